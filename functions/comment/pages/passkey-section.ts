import { limits } from '../../shared/domain/limits.js';
import { passkeyLimits } from '../../shared/domain/passkey.js';
import { webauthnScript } from './webauthn-script.js';

/**
 * The profile page's passkey section (profile-page.ts): `passkeySection` is its HTML, `passkeyScript` runs after
 * the page's own script and uses its `call(method, path, body)` and `token`; the page calls `loadPasskeys()` once
 * it shows a signed-in account.
 *
 * The list (`GET /api/passkey`) shows each passkey's name, when it was added and last used, with a button that
 * removes it. Adding one asks for the current password (or, for an account without one, a recent sign-in), then
 * the browser's passkey dialog: `POST /api/passkey/options`, `navigator.credentials.create`, `POST /api/passkey`.
 * Every text is written with textContent.
 */
export const passkeySection = `<section id="passkeys" class="card">
    <h3>Passkeys</h3>
    <p class="muted">Sign in with your device's screen lock or a security key instead of a password. Up to ${passkeyLimits.perAccount}.</p>
    <ul id="passkey-list"></ul>
    <form id="passkey-add">
      <label>Name of the new passkey <input name="name" maxlength="${passkeyLimits.nameChars}" required value="Passkey"></label>
      <label id="passkey-password">Current password (to add or remove a passkey) <input name="password" type="password" maxlength="${limits.passwordMaxChars}" autocomplete="current-password"></label>
      <p id="passkey-fresh" class="muted" hidden>This account has no password: adding or removing a passkey works within ${passkeyLimits.freshSignInMs / 60_000} minutes of signing in.</p>
      <button type="submit">Add a passkey</button>
    </form>
    <p id="passkey-status" role="status"></p>
  </section>`;

// Runs in the browser, after the profile page's script.
export const passkeyScript = String.raw`${webauthnScript}
const passkeyList = document.getElementById('passkey-list');
const passkeyAdd = document.getElementById('passkey-add');
const passkeySaid = document.getElementById('passkey-status');
let passkeyNeedsPassword = true;
const passkeyAnswer = async (method, path, body) => {
  try { return await call(method, path, body); } catch { return { errno: 500, errmsg: 'The server did not answer.' }; }
};
const when = (time) => (time ? new Date(time).toLocaleString() : 'never');
const passkeyProof = () => (passkeyNeedsPassword ? { password: passkeyAdd.password.value } : {});
async function loadPasskeys() {
  if (!passkeysSupported) { passkeySaid.textContent = 'This browser cannot use passkeys.'; passkeyAdd.hidden = true; }
  const answer = await passkeyAnswer('GET', 'passkey');
  if (answer.errno) { passkeySaid.textContent = answer.errmsg || 'Passkeys are not available.'; return; }
  passkeyNeedsPassword = answer.data.needsPassword;
  document.getElementById('passkey-password').hidden = !passkeyNeedsPassword;
  document.getElementById('passkey-fresh').hidden = passkeyNeedsPassword;
  passkeyList.replaceChildren(...answer.data.passkeys.map((passkey) => {
    const item = document.createElement('li');
    const name = document.createElement('strong');
    name.textContent = passkey.name;
    const dates = document.createElement('span');
    dates.className = 'muted';
    dates.textContent = ' added ' + when(passkey.createdAt) + ', last used ' + when(passkey.lastUsedAt) + ' ';
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'secondary';
    remove.textContent = 'Remove';
    remove.setAttribute('aria-label', 'Remove passkey ' + passkey.name);
    remove.addEventListener('click', async () => {
      if (passkeyNeedsPassword && !passkeyAdd.password.value) {
        passkeySaid.textContent = 'Type your current password above to remove a passkey.';
        passkeyAdd.password.focus();
        return;
      }
      const removed = await passkeyAnswer('DELETE', 'passkey/' + encodeURIComponent(passkey.id), passkeyProof());
      if (removed.errno) { passkeySaid.textContent = removed.errmsg || 'The passkey was not removed.'; return; }
      passkeyAdd.password.value = '';
      passkeySaid.textContent = 'Passkey removed.';
      loadPasskeys();
    });
    item.append(name, dates, remove);
    return item;
  }));
}
passkeyAdd.addEventListener('submit', async (event) => {
  event.preventDefault();
  passkeySaid.textContent = '';
  if (passkeyNeedsPassword && !passkeyAdd.password.value) {
    passkeySaid.textContent = 'Type your current password to add a passkey.';
    return;
  }
  const options = await passkeyAnswer('POST', 'passkey/options', passkeyProof());
  if (options.errno) { passkeySaid.textContent = options.errmsg || 'A passkey cannot be added now.'; return; }
  let credential;
  try {
    credential = await createPasskey(options.data);
  } catch (error) {
    passkeySaid.textContent = 'No passkey was made (' + (error && error.name ? error.name : 'cancelled') + ').';
    return;
  }
  const added = await passkeyAnswer('POST', 'passkey', { name: passkeyAdd.name.value, credential });
  if (added.errno) { passkeySaid.textContent = added.errmsg || 'The passkey was not added.'; return; }
  passkeyAdd.password.value = '';
  passkeySaid.textContent = 'Passkey added: you can sign in with it alone.';
  loadPasskeys();
});
`;
