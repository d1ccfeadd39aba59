import type { HttpResult } from '../../shared/http/http-types.js';
import { embedJson, htmlPage } from './page-shell.js';

/** The settings the sign-in page needs to decide where it may hand the token. */
export interface LoginPageSettings {
  /** ALLOWED_ORIGINS: `*`, or the sites that embed the widget. */
  readonly allowedOrigins: readonly string[];
  /** SITE_URL, if set. */
  readonly siteUrl?: string;
}

// Runs in the browser. The token is handed only to a trusted origin: one of ALLOWED_ORIGINS, the
// server's own, or SITE_URL. When every origin is allowed and no SITE_URL is set, the page that
// opened this one may receive it too, but only once the administrator ticks a box naming that
// site: a stranger's page cannot collect a sign-in silently.
const script = String.raw`
const settings = JSON.parse(document.getElementById('settings').textContent);
const root = location.pathname.replace(/\/ui(\/.*)?$/, '/');
const params = new URLSearchParams(location.search);
const redirect = params.get('redirect');
const form = document.getElementById('login');
const error = document.getElementById('error');
const target = document.getElementById('target');
const originOf = (url) => { try { return new URL(url).origin; } catch { return undefined; } };
const referrer = originOf(document.referrer);
const siteOrigin = originOf(settings.siteUrl || '');
const configured = (origin) => Boolean(origin) &&
  (settings.allowedOrigins.includes(origin) || origin === location.origin || origin === siteOrigin);
const confirmable = (origin) => Boolean(origin) && !siteOrigin &&
  settings.allowedOrigins.includes('*') && origin === referrer && !configured(origin);
const trusted = (origin) => configured(origin) || (confirmable(origin) && form.confirm.checked);
const destination = redirect ? originOf(redirect) : window.opener ? referrer : location.origin;
target.textContent = destination ? 'Signing in for ' + destination : '';
if (confirmable(destination)) {
  document.getElementById('confirm-site').textContent = destination;
  document.getElementById('confirm-row').hidden = false;
  form.confirm.required = true;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const body = { email: form.email.value, password: form.password.value };
  let answer;
  try {
    const response = await fetch(root + 'api/token', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    answer = await response.json();
  } catch {
    error.textContent = 'The server did not answer.';
    return;
  }
  if (answer.errno) { error.textContent = answer.errmsg || 'Sign-in failed.'; return; }
  const user = { ...answer.data, remember: form.remember.checked };
  if (redirect) {
    if (!trusted(originOf(redirect))) { error.textContent = 'Refusing to send a sign-in to ' + redirect; return; }
    const url = new URL(redirect);
    url.searchParams.set('token', user.token);
    location.href = url.toString();
  } else if (window.opener) {
    const origins = settings.allowedOrigins.includes('*') ? [referrer] : settings.allowedOrigins;
    if (!origins.some(trusted)) { error.textContent = 'Refusing to send a sign-in to an unknown site.'; return; }
    for (const origin of origins.filter(trusted)) window.opener.postMessage({ type: 'userInfo', data: user }, origin);
    window.close();
  } else {
    sessionStorage.setItem('MARGINALIA_TOKEN', user.token);
    location.href = root + 'ui';
  }
});
`;

/** `GET /ui/login`: signs an administrator in and hands the user to the widget as Waline's admin does. */
export function loginPage(settings: LoginPageSettings): HttpResult {
  return htmlPage({
    title: 'Sign in · Marginalia',
    body: `<main>
<h1>Sign in to moderate</h1>
<p id="target" class="muted"></p>
<form id="login" class="card">
  <label>Email <input name="email" type="email" autocomplete="username" required></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <label><span><input name="remember" type="checkbox" checked> Remember me on this device</span></label>
  <label id="confirm-row" hidden><span><input name="confirm" type="checkbox"> Send my sign-in to <strong id="confirm-site"></strong>: I trust this site</span></label>
  <button type="submit">Sign in</button>
  <p id="error" class="error" role="alert"></p>
</form>
<script type="application/json" id="settings">${embedJson(settings)}</script>
</main>`,
    script,
  });
}
