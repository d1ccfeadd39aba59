import type { HttpResult } from '../../shared/http/http-types.js';
import { adminApiScript } from './admin-api-script.js';
import { htmlPage } from './page-shell.js';

// Runs in the browser. Everything from accounts is written with textContent: nothing a visitor typed (a
// display name, a label) is ever parsed as HTML here.
const script = String.raw`${adminApiScript}const state = { page: 1 };
const list = document.getElementById('list');
const info = document.getElementById('info');
const button = (label, className, action) => {
  const node = element('button', label, className);
  node.type = 'button';
  node.addEventListener('click', async () => {
    node.disabled = true;
    try { await action(); } catch (error) { info.textContent = error.message; } finally { await load(); }
  });
  return node;
};
async function load() {
  let answer;
  try { answer = await api('user?page=' + state.page + '&pageSize=20'); } catch (error) { info.textContent = error.message; return; }
  // Not an administrator's token: the server answered the public wall, an array.
  if (Array.isArray(answer)) { info.textContent = 'Sign in as an administrator to manage accounts.'; return; }
  info.textContent = answer.totalPages ? 'Page ' + answer.page + ' of ' + answer.totalPages : 'No account yet.';
  list.replaceChildren(...answer.data.map((account) => {
    const item = element('li', undefined, 'account');
    item.dataset.type = account.type;
    const head = element('div', undefined, 'head');
    head.append(element('strong', account.display_name || '(no name)'), element('span', ' ' + account.email, 'muted'),
      element('span', ' · ' + account.type + ' · ' + account.state + (account.label ? ' · ' + account.label : '') +
        ' · since ' + new Date(account.createdAt).toLocaleDateString(), 'muted'));
    const actions = element('div', undefined, 'actions');
    const id = encodeURIComponent(account.objectId);
    const put = (body) => api('user/' + id, { method: 'PUT', body: JSON.stringify(body) });
    if (account.state === 'awaiting-approval') actions.append(button('Approve', '', () => put({ state: 'active' })));
    if (account.type === 'guest') actions.append(button('Make administrator', 'secondary', () => put({ type: 'administrator' })));
    if (account.type === 'administrator') actions.append(button('Make guest', 'secondary', () => put({ type: 'guest' })));
    if (account.type === 'banned') actions.append(button('Unban', 'secondary', () => put({ type: 'guest' })));
    if (account.totp) {
      actions.append(button('Turn off two-factor', 'secondary', async () => {
        if (confirm('Turn off this account\u2019s two-factor sign-in? Its password alone will sign it in.')) await put({ totp: false });
      }));
    }
    actions.append(button('Label', 'secondary', async () => {
      const label = prompt('Label (up to 32 characters; empty removes it)', account.label || '');
      if (label !== null) await put({ label });
    }));
    if (account.type !== 'banned') {
      actions.append(button(account.state === 'unconfirmed' ? 'Delete' : 'Ban', 'danger', async () => {
        if (confirm(account.state === 'unconfirmed' ? 'Delete this unconfirmed account?' : 'Ban this account? Its sign-ins end now.')) {
          await api('user/' + id, { method: 'DELETE' });
        }
      }));
    }
    item.append(head, actions);
    return item;
  }));
  document.getElementById('prev').disabled = state.page <= 1;
  document.getElementById('next').disabled = state.page >= answer.totalPages;
}
document.getElementById('prev').addEventListener('click', () => { state.page--; load(); });
document.getElementById('next').addEventListener('click', () => { state.page++; load(); });
document.getElementById('signout').addEventListener('click', () => {
  sessionStorage.removeItem('MARGINALIA_TOKEN'); location.href = root + 'ui/login';
});
if (token) load();
`;

const style = `
  nav, .actions, .pager { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; margin: .75rem 0; }
  ul { list-style: none; padding: 0; }
  .account { border: 1px solid #8884; border-radius: .5rem; padding: .75rem 1rem; margin: .75rem 0; overflow-wrap: anywhere; }
  .account[data-type="banned"] { opacity: .7; }
`;

/**
 * `GET /ui/users`: the accounts, newest first, for administrators: approve an account awaiting approval,
 * label it, make it an administrator or a guest, turn its two-factor sign-in off, ban it (or delete it while
 * unconfirmed). The page holds no
 * data: it reads `GET /api/user?page=` with the administrator's token, as `/ui` reads the queues.
 */
export function usersPage(): HttpResult {
  return htmlPage({
    title: 'Accounts · Marginalia',
    style,
    body: `<main>
<h1>Accounts</h1>
<nav>
  <a href="../ui">Moderation</a>
  <button class="secondary" id="signout" type="button">Sign out</button>
</nav>
<p id="info" class="muted" role="status"></p>
<ul id="list"></ul>
<div class="pager"><button class="secondary" id="prev" type="button">Previous</button><button class="secondary" id="next" type="button">Next</button></div>
</main>`,
    script,
  });
}
