import type { HttpResult } from '../../shared/http/http-types.js';
import {
  type CaptchaWidget,
  captchaSettingsElement,
  captchaSources,
  captchaTokenScript,
} from './captcha-widget.js';
import { handOffScript } from './hand-off-script.js';
import { escapeHtml, htmlPage } from './page-shell.js';
import { webauthnScript } from './webauthn-script.js';
import { type SiteSettings, siteOriginsScript, siteSettingsElement } from './site-origins.js';

// Runs in the browser. The token goes only to a configured origin: an ALLOWED_ORIGINS entry (not `*`),
// SITE_URL's origin, or this server's own. An opener or a redirect elsewhere gets nothing, and the page
// says what to configure: there is no way for a stranger's page to collect a sign-in, even with a click.
// The opener is told by postMessage aimed at each configured origin: the browser delivers it only to an
// opener on that very origin, whatever `document.referrer` claims or hides.
const script = String.raw`${siteOriginsScript}${handOffScript}${captchaTokenScript}${webauthnScript}
const root = location.pathname.replace(/\/ui(\/.*)?$/, '/');
const params = new URLSearchParams(location.search);
const redirect = params.get('redirect');
const form = document.getElementById('login');
const error = document.getElementById('error');
const target = document.getElementById('target');
const codeField = document.getElementById('code-field');
const providers = document.getElementById('providers');
// An issuer's or GitHub's sign-in: this window goes there and back (a popup stays the widget's popup), and the
// callback's page hands the user on as this page would, to the same redirect.
for (const link of document.querySelectorAll('a[data-provider]')) {
  link.addEventListener('click', (event) => {
    event.preventDefault();
    const query = new URLSearchParams({ remember: form.remember.checked ? '1' : '0' });
    if (redirect) query.set('redirect', redirect);
    location.href = root + 'api/oauth/' + encodeURIComponent(link.dataset.provider) + '?' + query;
  });
}
const referrer = originOf(document.referrer);
// Where the token would go: the redirect's site, the opener's (as far as the referrer tells), or here.
const destination = redirect ? originOf(redirect) : window.opener ? referrer : location.origin;
if (redirect ? !configured(destination) : window.opener && referrer && !configured(referrer)) {
  document.getElementById('unknown-site').textContent = destination || redirect;
  document.getElementById('refused').hidden = false;
  form.hidden = true;
  if (providers) providers.hidden = true;
} else if (destination) {
  target.textContent = 'Signing in for ' + destination;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  let captchaFields;
  try {
    captchaFields = await captchaToken();
  } catch {
    error.textContent = 'The captcha could not be loaded; reload the page.';
    return;
  }
  if (!captchaFields) { error.textContent = 'Solve the captcha first.'; return; }
  const body = { email: form.email.value, password: form.password.value, ...captchaFields };
  if (!codeField.hidden && form.code.value) body.code = form.code.value;
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
  // An account with two-factor sign-in answers, after the right password, that a code is needed: ask for it.
  if (answer.details && answer.details.code === 'required') {
    codeField.hidden = false;
    form.code.required = true;
    form.code.focus();
  }
  if (answer.errno) { error.textContent = answer.errmsg || 'Sign-in failed.'; return; }
  handOff({ ...answer.data, remember: form.remember.checked }, redirect, error);
});
// A passkey alone (a discoverable credential: the authenticator names the account), handed off as the password's.
const passkeyButton = document.getElementById('passkey-sign-in');
passkeyButton.hidden = !passkeysSupported;
passkeyButton.addEventListener('click', async () => {
  error.textContent = '';
  const post = async (path, body) => (await fetch(root + 'api/' + path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  })).json();
  let answer;
  try {
    const options = await post('token/passkey/options', {});
    if (options.errno) { error.textContent = options.errmsg || 'Passkey sign-in is not available.'; return; }
    let credential;
    try {
      credential = await getPasskey(options.data);
    } catch (failure) {
      error.textContent = 'No passkey was used (' + (failure && failure.name ? failure.name : 'cancelled') + ').';
      return;
    }
    answer = await post('token/passkey', { credential });
  } catch {
    error.textContent = 'The server did not answer.';
    return;
  }
  if (answer.errno) { error.textContent = answer.errmsg || 'Sign-in failed.'; return; }
  handOff({ ...answer.data, remember: form.remember.checked }, redirect, error);
});
`;

/**
 * `GET /ui/login`: signs a reader or an administrator in and hands the user to the widget as Waline's admin
 * does; it links the registration and the password-reset pages. With a
 * captcha site key, the page loads the provider's script (its policy lets that provider in, this page only)
 * and sends its token with the sign-in.
 */
export function loginPage(
  settings: SiteSettings & {
    readonly captcha?: CaptchaWidget;
    /** The OpenID Connect issuers and GitHub (issue 28): a "Sign in with <label>" button each. */
    readonly providers?: readonly { readonly key: string; readonly label: string }[];
  },
): HttpResult {
  const { captcha, providers = [], ...site } = settings;
  return htmlPage({
    title: 'Sign in · Marginalia',
    body: `<main>
<h1>Sign in</h1>
<p id="target" class="muted"></p>
<div id="refused" class="card" role="alert" hidden>
  <p>Sign-in goes only to the sites this server is configured for, and <strong id="unknown-site"></strong> is not one of them.</p>
  <p>If it is your site, set <code>SITE_URL</code> to its address, or add its origin to <code>ALLOWED_ORIGINS</code>, and sign in from it again.</p>
  <p><a href="../ui">Moderate on this server instead</a></p>
</div>
<form id="login" class="card">
  <label>Email <input name="email" type="email" autocomplete="username" required></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <label id="code-field" hidden>Code from your authenticator app, or a recovery code <input name="code" maxlength="32" autocomplete="one-time-code"></label>
  <label><span><input name="remember" type="checkbox" checked> Remember me on this device</span></label>
  ${captcha?.field === 'turnstile' ? '<div id="captcha"></div>' : ''}
  <button type="submit">Sign in</button>
  <button type="button" id="passkey-sign-in" class="secondary" hidden>Use a passkey</button>
  <p id="error" class="error" role="alert"></p>
</form>
${providerButtons(providers)}<p><a href="register">Create an account</a> · <a href="forgot">Forgot your password?</a></p>
${siteSettingsElement(site)}
${captchaSettingsElement(captcha)}
</main>`,
    script,
    style: `#providers { max-width: 22rem; display: grid; gap: .5rem; margin: 1rem 0; }
  a.provider { display: block; text-align: center; padding: .45rem .6rem; border-radius: .4rem;
    border: 1px solid #8886; color: inherit; text-decoration: none; }`,
    ...(captcha ? { thirdParty: captchaSources(captcha) } : {}),
  });
}

/** A link styled as a button per provider, which the page's script sends with its redirect and "remember me". */
function providerButtons(providers: readonly { readonly key: string; readonly label: string }[]): string {
  if (providers.length === 0) return '';
  const links = providers
    .map(
      ({ key, label }) =>
        `<a class="provider" data-provider="${escapeHtml(key)}" href="../api/oauth/${encodeURIComponent(key)}">Sign in with ${escapeHtml(label)}</a>`,
    )
    .join('\n  ');
  return `<div id="providers" class="card">
  ${links}
</div>
`;
}
