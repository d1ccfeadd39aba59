import { limits } from '../../shared/domain/limits.js';
import type { HttpResult } from '../../shared/http/http-types.js';
import { myDataScript } from './my-data-script.js';
import { htmlPage } from './page-shell.js';
import { type SiteSettings, siteOriginsScript, siteSettingsElement } from './site-origins.js';
import { passkeyScript, passkeySection } from './passkey-section.js';
import { twoFactorScript, twoFactorSection } from './two-factor-section.js';

// Runs in the browser. The widget opens this page with the administrator's token in the query
// (`?lng=..&token=..`): it is read once and taken out of the address bar and the history at once (and the
// Referrer-Policy keeps it from leaving as a Referer). Everything shown is written with textContent.
// After a change the opener is told as Waline's admin page tells it, `{type: 'profile', data}`, which the
// widget merges into the user it shows and stores; like the sign-in, only configured origins get it, as
// after a password change it carries the new token.
const script = String.raw`${siteOriginsScript}
const root = location.pathname.replace(/\/ui(\/.*)?$/, '/');
const params = new URLSearchParams(location.search);
let token = params.get('token') || sessionStorage.getItem('MARGINALIA_TOKEN');
if (params.has('token')) {
  params.delete('token');
  const query = params.toString();
  history.replaceState(null, '', location.pathname + (query ? '?' + query : '') + location.hash);
}
const info = document.getElementById('info');
const profile = document.getElementById('profile');
const details = document.getElementById('details');
const passwordForm = document.getElementById('password-form');
const status = document.getElementById('status');
const error = document.getElementById('error');
const referrer = originOf(document.referrer);
if (window.opener && referrer && !configured(referrer)) {
  document.getElementById('unknown-site').textContent = referrer;
  document.getElementById('unknown-opener').hidden = false;
}

const call = async (method, path, body) => {
  const response = await fetch(root + 'api/' + path, {
    method,
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
};
const signedOut = () => {
  sessionStorage.removeItem('MARGINALIA_TOKEN');
  info.hidden = true;
  profile.hidden = true;
  document.getElementById('unsigned').hidden = false;
};
const show = (user) => {
  document.getElementById('name').textContent = user.display_name;
  document.getElementById('email').textContent = user.email;
  document.getElementById('avatar').src = user.avatar;
  details.display_name.value = user.display_name;
  details.url.value = user.url;
  details.avatar.value = user.avatar && user.avatar.startsWith('https://') ? user.avatar : '';
  info.hidden = true;
  profile.hidden = false;
};
const tell = (user) => {
  if (!window.opener) return;
  const data = {
    display_name: user.display_name, url: user.url, avatar: user.avatar, email: user.email, objectId: user.objectId,
  };
  // After a password change the widget's token no longer works: it gets the new one.
  if (user.token) data.token = user.token;
  for (const origin of configuredOrigins) window.opener.postMessage({ type: 'profile', data }, origin);
};

async function load() {
  if (!token) { signedOut(); return; }
  let answer;
  try { answer = await call('GET', 'token'); } catch { info.textContent = 'The server did not answer.'; return; }
  // GET /api/token answers {} for anyone but a signed-in administrator.
  if (answer.errno || !answer.data || !answer.data.objectId) { signedOut(); return; }
  // Kept for this tab only: a reload, and the moderation page, stay signed in.
  sessionStorage.setItem('MARGINALIA_TOKEN', token);
  show(answer.data);
  loadPasskeys();
}

async function save(body, done) {
  status.textContent = '';
  error.textContent = '';
  let answer;
  try { answer = await call('PUT', 'user', body); } catch { error.textContent = 'The server did not answer.'; return false; }
  if (answer.errno === 401) { signedOut(); return false; }
  if (answer.errno) { error.textContent = answer.errmsg || 'Saving failed.'; return false; }
  if (answer.data.token) {
    token = answer.data.token;
    sessionStorage.setItem('MARGINALIA_TOKEN', token);
  }
  show(answer.data);
  tell(answer.data);
  status.textContent = done;
  return true;
}

details.addEventListener('submit', (event) => {
  event.preventDefault();
  save({ display_name: details.display_name.value, url: details.url.value, avatar: details.avatar.value }, 'Profile saved.');
});
passwordForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (passwordForm.password.value !== passwordForm.confirm.value) {
    status.textContent = '';
    error.textContent = 'The two passwords differ.';
    return;
  }
  const done = 'Password changed. Every other sign-in of this account has ended; this page, and the comment box that opened it, stay signed in.';
  const body = { password: passwordForm.password.value, currentPassword: passwordForm.current.value };
  if (await save(body, done)) passwordForm.reset();
});
// Waline's widget also posts the token once the window is open: taken from the opener on a configured
// origin only, so no other page can sign this one in as someone else.
addEventListener('message', (event) => {
  if (event.source !== window.opener || !configured(event.origin)) return;
  const message = event.data;
  if (!message || message.type !== 'TOKEN' || typeof message.data !== 'string' || message.data === token) return;
  token = message.data;
  load();
});
load();
${twoFactorScript}${myDataScript}
// Your data (issue 28): the download and the erase of what the account and its address own, with its token.
document.getElementById('data-download').addEventListener('click', () => downloadMyData('Bearer ' + token));
document.getElementById('data-erase').addEventListener('click', async () => {
  if (await eraseMyData('Bearer ' + token)) sessionStorage.removeItem('MARGINALIA_TOKEN');
});
${passkeyScript}`;

const style = `
  .who { display: flex; gap: 1rem; align-items: center; margin-bottom: 1rem; }
  .who img { border-radius: 50%; }
  .who h2 { margin: 0; font-size: 1.2rem; }
  .who p { margin: 0; }
  section form.card { margin-bottom: 1.5rem; }
  h3 { margin: 0; font-size: 1rem; }
`;

/**
 * `GET /ui/profile`: the signed-in administrator's name and address, and forms to change the display name,
 * link and password (`PUT /api/user`); the widget opens it from the user's avatar and name. Anyone without
 * an administrator's token is told that sign-in is for administrators.
 */
export function profilePage(settings: SiteSettings): HttpResult {
  return htmlPage({
    title: 'Profile · Marginalia',
    style,
    body: `<main>
<h1>Your profile</h1>
<p id="info" class="muted">Loading…</p>
<div id="unsigned" class="card" role="alert" hidden>
  <p><strong>You are not signed in.</strong> Commenting needs no account: the name, e-mail and website you give go with each comment.</p>
  <p><a href="login">Sign in</a>, or <a href="register">create an account</a>.</p>
</div>
<div id="unknown-opener" class="card" role="alert" hidden>
  <p>Changes are saved on this server, but <strong id="unknown-site"></strong>, which opened this page, is not one of the sites it is configured for: its comment box is not told of them.</p>
  <p>If it is your site, set <code>SITE_URL</code> to its address, or add its origin to <code>ALLOWED_ORIGINS</code>.</p>
</div>
<section id="profile" hidden>
  <div class="who">
    <img id="avatar" alt="" width="64" height="64">
    <div><h2 id="name"></h2><p id="email" class="muted"></p></div>
  </div>
  <form id="details" class="card">
    <h3>Profile</h3>
    <label>Display name <input name="display_name" maxlength="${limits.nickChars}" required autocomplete="nickname"></label>
    <label>Website <input name="url" type="url" maxlength="${limits.linkChars}" placeholder="https://" autocomplete="url"></label>
    <label>Avatar (an https address; empty: from your e-mail) <input name="avatar" type="url" maxlength="${limits.linkChars}" placeholder="https://"></label>
    <button type="submit">Save profile</button>
  </form>
  <form id="password-form" class="card">
    <h3>Change password</h3>
    <label>Current password <input name="current" type="password" maxlength="${limits.passwordMaxChars}" required autocomplete="current-password"></label>
    <label>New password <input name="password" type="password" minlength="${limits.passwordMinChars}" maxlength="${limits.passwordMaxChars}" required autocomplete="new-password"></label>
    <label>New password again <input name="confirm" type="password" required autocomplete="new-password"></label>
    <p class="muted">At least ${limits.passwordMinChars} characters. Every other sign-in of this account ends.</p>
    <button type="submit">Change password</button>
  </form>
  ${twoFactorSection}
  <div id="your-data" class="card">
    <h3>Your data</h3>
    <p class="muted">Download your comments and everything kept for your account and address (JSON), or erase them with the account. Comments others answered stay for their replies, without your name.</p>
    <button id="data-download" type="button">Download my data</button>
    <button id="data-erase" type="button" class="danger">Erase my data and account</button>
    <p id="data-status" role="status"></p>
  </div>
  ${passkeySection}
  <p id="status" role="status"></p>
  <p id="error" class="error" role="alert"></p>
  <p><a href="../ui">Moderate comments</a></p>
</section>
${siteSettingsElement(settings)}
</main>`,
    script,
  });
}
