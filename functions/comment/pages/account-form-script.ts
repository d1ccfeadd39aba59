/**
 * The browser side the account pages (register, forgot, reset) share: the API's root beside `/ui`, and one
 * JSON call that answers Waline's envelope or says the server did not answer. Everything shown is written
 * with textContent.
 */
export const accountFormScript = String.raw`
const root = location.pathname.replace(/\/ui(\/.*)?$/, '/');
const form = document.querySelector('form');
const error = document.getElementById('error');
const done = document.getElementById('done');
const send = async (method, path, body) => {
  error.textContent = '';
  try {
    const response = await fetch(root + 'api/' + path, {
      method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (answer.errno) { error.textContent = typeof answer.errmsg === 'string' && answer.errmsg ? answer.errmsg : 'The request was refused.'; return false; }
    return true;
  } catch {
    error.textContent = 'The server did not answer.';
    return false;
  }
};
const finish = () => { form.hidden = true; done.hidden = false; };
const samePasswords = () => {
  if (form.password.value === form.confirm.value) return true;
  error.textContent = 'The two passwords differ.';
  return false;
};
`;
