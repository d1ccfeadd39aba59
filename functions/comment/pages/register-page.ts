import { limits } from '../../shared/domain/limits.js';
import type { HttpResult } from '../../shared/http/http-types.js';
import { accountFormScript } from './account-form-script.js';
import {
  type CaptchaWidget,
  captchaSettingsElement,
  captchaSources,
  captchaTokenScript,
} from './captcha-widget.js';
import { htmlPage } from './page-shell.js';

// Runs in the browser: posts Waline's registration body (and the captcha's token) to POST /api/user. The
// answer is the same whether or not the address had an account, so the page always says to read the mail.
const script = String.raw`${captchaTokenScript}${accountFormScript}
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!samePasswords()) return;
  let captchaFields;
  try { captchaFields = await captchaToken(); } catch { error.textContent = 'The captcha could not be loaded; reload the page.'; return; }
  if (!captchaFields) { error.textContent = 'Solve the captcha first.'; return; }
  const body = {
    display_name: form.display_name.value, email: form.email.value, password: form.password.value,
    url: form.url.value, ...captchaFields,
  };
  if (await send('POST', 'user', body)) finish();
});
`;

/**
 * `GET /ui/register`: a reader creates an account (`POST /api/user`); the answer sends them to their mailbox.
 * With REGISTRATION=closed the page still loads and the server's 403 says registration is closed.
 */
export function registerPage(settings: { readonly captcha?: CaptchaWidget }): HttpResult {
  const { captcha } = settings;
  return htmlPage({
    title: 'Create an account · Marginalia',
    body: `<main>
<h1>Create an account</h1>
<form id="register" class="card">
  <label>Display name <input name="display_name" maxlength="${limits.nickChars}" required autocomplete="nickname"></label>
  <label>Email <input name="email" type="email" maxlength="${limits.mailChars}" required autocomplete="email"></label>
  <label>Password <input name="password" type="password" minlength="${limits.passwordMinChars}" maxlength="${limits.passwordMaxChars}" required autocomplete="new-password"></label>
  <label>Password again <input name="confirm" type="password" required autocomplete="new-password"></label>
  <label>Website (optional) <input name="url" type="url" maxlength="${limits.linkChars}" placeholder="https://" autocomplete="url"></label>
  <p class="muted">At least ${limits.passwordMinChars} characters. We mail you a link to confirm the address; it works for 24 hours.</p>
  ${captcha?.field === 'turnstile' ? '<div id="captcha"></div>' : ''}
  <button type="submit">Create account</button>
  <p id="error" class="error" role="alert"></p>
</form>
<div id="done" class="card" role="status" hidden>
  <p><strong>Check your mailbox.</strong> We sent a link to confirm the address; follow it, then sign in.</p>
</div>
<p><a href="login">Sign in</a> · <a href="forgot">Forgot your password?</a></p>
${captchaSettingsElement(captcha)}
</main>`,
    script,
    ...(captcha ? { thirdParty: captchaSources(captcha) } : {}),
  });
}
