import { limits } from '../../shared/domain/limits.js';
import type { HttpResult } from '../../shared/http/http-types.js';
import { accountFormScript } from './account-form-script.js';
import {
  type CaptchaWidget,
  captchaSettingsElement,
  captchaSources,
  captchaTokenScript,
} from './captcha-widget.js';
import { myDataScript } from './my-data-script.js';
import { htmlPage } from './page-shell.js';

// Runs in the browser: without `?token=`, asks for a link (POST /api/my-data; the answer is the same for every
// address, and so is what the page says); with one, offers the download and the erase with it as the Bearer.
const script = String.raw`${captchaTokenScript}${accountFormScript}${myDataScript}
const token = new URLSearchParams(location.search).get('token');
if (token) {
  form.hidden = true;
  document.getElementById('actions').hidden = false;
  // The token leaves the address bar (and the history) once read.
  history.replaceState(null, '', location.pathname);
  document.getElementById('download').addEventListener('click', () => downloadMyData('Bearer ' + token));
  document.getElementById('erase').addEventListener('click', async () => {
    if (await eraseMyData('Bearer ' + token)) document.getElementById('erase').disabled = true;
  });
}
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  let captchaFields;
  try { captchaFields = await captchaToken(); } catch { error.textContent = 'The captcha could not be loaded; reload the page.'; return; }
  if (!captchaFields) { error.textContent = 'Solve the captcha first.'; return; }
  if (await send('POST', 'my-data', { email: form.email.value, ...captchaFields })) finish();
});
`;

/**
 * `GET /ui/my-data[?token=]`: a commenter asks for a link to their data by mail; the link brings them back here,
 * where they download it (JSON) or erase it. Signed-in readers find the same in `/ui/profile`.
 */
export function myDataPage(settings: { readonly captcha?: CaptchaWidget }): HttpResult {
  const { captcha } = settings;
  return htmlPage({
    title: 'Your data · Marginalia',
    body: `<main>
<h1>Your comments and data</h1>
<form id="request" class="card">
  <p>Type the address you comment with. We mail it a link to download or erase what this site keeps for it; the link works for one hour.</p>
  <label>Email <input name="email" type="email" maxlength="${limits.mailChars}" required autocomplete="email"></label>
  ${captcha?.field === 'turnstile' ? '<div id="captcha"></div>' : ''}
  <button type="submit">Mail me a link</button>
  <p id="error" class="error" role="alert"></p>
</form>
<div id="done" class="card" role="status" hidden>
  <p><strong>Check your mailbox.</strong> A link is on its way to that address; it works for one hour.</p>
</div>
<div id="actions" class="card" hidden>
  <p>Download everything this site keeps for your address, as a JSON file, or erase it. Comments others answered stay for their replies, without your name, address or link.</p>
  <button id="download" type="button">Download my data</button>
  <button id="erase" type="button" class="danger">Erase my data</button>
</div>
<p id="data-status" role="status"></p>
${captchaSettingsElement(captcha)}
</main>`,
    script,
    ...(captcha ? { thirdParty: captchaSources(captcha) } : {}),
  });
}
