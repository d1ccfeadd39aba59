import { limits } from '../../shared/domain/limits.js';
import type { HttpResult } from '../../shared/http/http-types.js';
import { accountFormScript } from './account-form-script.js';
import { htmlPage } from './page-shell.js';

// Runs in the browser: asks for a reset link (PUT /api/user/password, Waline's). The answer is the same
// whether or not the address has an account, and so is what the page says.
const script = String.raw`${accountFormScript}
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (await send('PUT', 'user/password', { email: form.email.value })) finish();
});
`;

/** `GET /ui/forgot`: asks for a password-reset link by mail. */
export function forgotPage(): HttpResult {
  return htmlPage({
    title: 'Forgot your password · Marginalia',
    body: `<main>
<h1>Forgot your password?</h1>
<form id="forgot" class="card">
  <label>Email <input name="email" type="email" maxlength="${limits.mailChars}" required autocomplete="email"></label>
  <button type="submit">Send me a reset link</button>
  <p id="error" class="error" role="alert"></p>
</form>
<div id="done" class="card" role="status" hidden>
  <p><strong>Check your mailbox.</strong> If the address has an account here, a link to choose a new password is on its way; it works once, for one hour.</p>
</div>
<p><a href="login">Sign in</a> · <a href="register">Create an account</a></p>
</main>`,
    script,
  });
}
