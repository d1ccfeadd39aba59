import { limits } from '../../shared/domain/limits.js';

/**
 * The profile page's two-factor section (profile-page.ts): `twoFactorSection` is its HTML, `twoFactorScript` runs
 * after the page's own script and uses its `call(method, path, body)`, `token` and `configuredOrigins`.
 *
 * Nothing is asked of the server until the visitor opens the section: `GET /api/token/2fa` then either says TOTP is
 * on (the section offers to turn it off) or answers a new secret, shown once as a QR code and as text, with a field
 * for the first code. The recovery codes `POST` answers are shown once. Every text is written with textContent; the
 * QR is the server's SVG data URL in an `<img>`.
 */
export const twoFactorSection = `<section id="two-factor" class="card">
    <h3>Two-factor sign-in</h3>
    <p class="muted">A code from an authenticator app, asked at each sign-in after the password.</p>
    <button type="button" id="two-factor-open">Set up or turn off two-factor sign-in</button>
    <form id="two-factor-enrol" hidden>
      <p>Scan this code with your authenticator app, or type the key into it. It is shown only now.</p>
      <img id="two-factor-qr" alt="QR code of the two-factor key" width="200" height="200">
      <p>Key: <code id="two-factor-secret"></code></p>
      <p class="muted">Link: <a id="two-factor-url">otpauth link</a></p>
      <label>Code from the app <input name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autocomplete="one-time-code"></label>
      <label>Your password <input name="password" type="password" maxlength="${limits.passwordMaxChars}" required autocomplete="current-password"></label>
      <button type="submit">Turn on two-factor sign-in</button>
    </form>
    <div id="two-factor-codes" hidden>
      <p><strong>Two-factor sign-in is on.</strong> Keep these recovery codes somewhere safe: each signs in once instead of a code, and they are shown only now.</p>
      <ul id="two-factor-code-list"></ul>
    </div>
    <form id="two-factor-disable" hidden>
      <p><strong>Two-factor sign-in is on.</strong> To turn it off, give your password and a code (or a recovery code).</p>
      <label>Password <input name="password" type="password" maxlength="${limits.passwordMaxChars}" required autocomplete="current-password"></label>
      <label>Code or recovery code <input name="code" maxlength="32" required autocomplete="one-time-code"></label>
      <button type="submit">Turn off two-factor sign-in</button>
    </form>
    <p id="two-factor-status" role="status"></p>
  </section>`;

// Runs in the browser, after the profile page's script.
export const twoFactorScript = String.raw`
{
  const open = document.getElementById('two-factor-open');
  const enrol = document.getElementById('two-factor-enrol');
  const codes = document.getElementById('two-factor-codes');
  const disable = document.getElementById('two-factor-disable');
  const said = document.getElementById('two-factor-status');
  const hideAll = () => { enrol.hidden = true; codes.hidden = true; disable.hidden = true; said.textContent = ''; };
  const answerOf = async (method, body) => {
    try { return await call(method, 'token/2fa', body); } catch { return { errno: 500, errmsg: 'The server did not answer.' }; }
  };
  open.addEventListener('click', async () => {
    hideAll();
    const answer = await answerOf('GET');
    if (answer.errno) { said.textContent = answer.errmsg || 'Two-factor sign-in is not available.'; return; }
    if (answer.data.enable) { disable.hidden = false; return; }
    document.getElementById('two-factor-qr').src = answer.data.qr;
    document.getElementById('two-factor-secret').textContent = answer.data.secret;
    document.getElementById('two-factor-url').href = answer.data.otpauth_url;
    enrol.hidden = false;
    open.hidden = true;
  });
  enrol.addEventListener('submit', async (event) => {
    event.preventDefault();
    const answer = await answerOf('POST', { code: enrol.code.value, password: enrol.password.value });
    if (answer.errno) { said.textContent = answer.errmsg || 'That code was refused.'; return; }
    enrol.reset();
    hideAll();
    // The secret is not kept on the page once it has served.
    document.getElementById('two-factor-qr').removeAttribute('src');
    document.getElementById('two-factor-secret').textContent = '';
    const list = document.getElementById('two-factor-code-list');
    list.replaceChildren(...answer.data.recovery_codes.map((code) => {
      const item = document.createElement('li');
      item.textContent = code;
      return item;
    }));
    codes.hidden = false;
    open.hidden = false;
    // Every other sign-in of the account ended: this page and the comment box that opened it get the new token.
    if (answer.data.token) {
      token = answer.data.token;
      sessionStorage.setItem('MARGINALIA_TOKEN', token);
      if (window.opener) {
        for (const origin of configuredOrigins) window.opener.postMessage({ type: 'profile', data: { token } }, origin);
      }
    }
  });
  disable.addEventListener('submit', async (event) => {
    event.preventDefault();
    const answer = await answerOf('DELETE', { password: disable.password.value, code: disable.code.value });
    if (answer.errno) { said.textContent = answer.errmsg || 'Two-factor sign-in was not turned off.'; return; }
    disable.reset();
    hideAll();
    said.textContent = 'Two-factor sign-in is off.';
  });
}
`;
