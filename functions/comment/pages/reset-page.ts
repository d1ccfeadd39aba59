import { limits } from '../../shared/domain/limits.js';
import type { HttpResult } from '../../shared/http/http-types.js';
import { accountFormScript } from './account-form-script.js';
import { htmlPage } from './page-shell.js';

// Runs in the browser. The mailed link's token is read from the query once and taken out of the address bar
// and the history at once (the Referrer-Policy keeps it from leaving as a Referer); the new password is posted
// with it (POST /api/user/password), which ends every sign-in of the account.
const script = String.raw`${accountFormScript}
const params = new URLSearchParams(location.search);
const token = params.get('token');
if (params.has('token')) {
  params.delete('token');
  const query = params.toString();
  history.replaceState(null, '', location.pathname + (query ? '?' + query : '') + location.hash);
}
if (!token) { form.hidden = true; document.getElementById('missing').hidden = false; }
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!samePasswords()) return;
  if (await send('POST', 'user/password', { token, password: form.password.value })) finish();
});
`;

/** `GET /ui/reset?token=`: the page of a reset link: a new password, set once. */
export function resetPage(): HttpResult {
  return htmlPage({
    title: 'Choose a new password · Marginalia',
    body: `<main>
<h1>Choose a new password</h1>
<form id="reset" class="card">
  <label>New password <input name="password" type="password" minlength="${limits.passwordMinChars}" maxlength="${limits.passwordMaxChars}" required autocomplete="new-password"></label>
  <label>New password again <input name="confirm" type="password" required autocomplete="new-password"></label>
  <p class="muted">At least ${limits.passwordMinChars} characters. Every sign-in of the account ends.</p>
  <button type="submit">Set the password</button>
  <p id="error" class="error" role="alert"></p>
</form>
<div id="missing" class="card" role="alert" hidden>
  <p>This page needs the link from the reset mail. <a href="forgot">Ask for a new one</a>.</p>
</div>
<div id="done" class="card" role="status" hidden>
  <p><strong>Your password is set.</strong> Every earlier sign-in has ended. <a href="login">Sign in</a></p>
</div>
</main>`,
    script,
  });
}
