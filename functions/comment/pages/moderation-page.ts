import type { HttpResult } from '../../shared/http/http-types.js';
import { adminApiScript } from './admin-api-script.js';
import { htmlPage } from './page-shell.js';

// Runs in the browser. Everything from comments is written with textContent: nothing a visitor
// typed is ever parsed as HTML here.
const script = String.raw`${adminApiScript}const state = { status: 'waiting', page: 1, keyword: '' };
const list = document.getElementById('list');
const info = document.getElementById('info');
// A button that runs action, then reloads what it changed (the comment list unless told otherwise).
const button = (label, className, action, reload = () => load()) => {
  const node = element('button', label, className);
  node.type = 'button';
  node.addEventListener('click', async () => { node.disabled = true; try { await action(); } finally { await reload(); } });
  return node;
};
async function load() {
  const query = new URLSearchParams({ type: 'list', page: String(state.page), pageSize: '20' });
  if (state.status !== 'all') query.set('status', state.status);
  if (state.keyword) query.set('keyword', state.keyword);
  let data;
  try { data = await api('comment?' + query); } catch (error) { info.textContent = error.message; return; }
  document.getElementById('waiting').textContent = String(data.waitingCount);
  document.getElementById('spam').textContent = String(data.spamCount);
  info.textContent = data.totalPages ? 'Page ' + data.page + ' of ' + data.totalPages : 'Nothing here.';
  list.replaceChildren(...data.data.map((comment) => {
    const item = element('li', undefined, 'comment');
    const head = element('div', undefined, 'head');
    head.append(element('strong', comment.nick || 'Anonymous'), element('span', ' ' + (comment.mail || ''), 'muted'),
      element('span', ' on ' + comment.url + ' · ' + new Date(comment.time).toLocaleString() + ' · ' + comment.status, 'muted'));
    const actions = element('div', undefined, 'actions');
    const id = encodeURIComponent(comment.objectId);
    const put = (body) => api('comment/' + id, { method: 'PUT', body: JSON.stringify(body) });
    if (comment.status !== 'approved') actions.append(button('Approve', '', () => put({ status: 'approved' })));
    if (comment.status !== 'spam') actions.append(button('Spam', 'secondary', () => put({ status: 'spam' })));
    if (comment.status !== 'waiting') actions.append(button('Hold', 'secondary', () => put({ status: 'waiting' })));
    actions.append(button('Delete', 'danger', async () => {
      if (confirm('Delete this comment and its replies?')) await api('comment/' + id, { method: 'DELETE' });
    }));
    item.append(head, element('p', comment.orig, 'text'));
    // Why it was held or marked spam when it came in (comments stored before this was kept have none).
    if (comment.heldReason) item.append(element('div', 'Held because: ' + comment.heldReason, 'reason'));
    item.append(element('div', 'IP hash: ' + (comment.ipHash || '-'), 'muted'), actions);
    return item;
  }));
  document.getElementById('prev').disabled = state.page <= 1;
  document.getElementById('next').disabled = state.page >= data.totalPages;
}
for (const tab of document.querySelectorAll('[data-status]')) {
  tab.addEventListener('click', () => {
    state.status = tab.dataset.status; state.page = 1;
    for (const other of document.querySelectorAll('[data-status]')) other.setAttribute('aria-pressed', String(other === tab));
    load();
  });
}
document.getElementById('search').addEventListener('submit', (event) => {
  event.preventDefault(); state.keyword = event.target.keyword.value.trim(); state.page = 1; load();
});
document.getElementById('prev').addEventListener('click', () => { state.page--; load(); });
document.getElementById('next').addEventListener('click', () => { state.page++; load(); });
document.getElementById('signout').addEventListener('click', () => {
  sessionStorage.removeItem('MARGINALIA_TOKEN'); location.href = root + 'ui/login';
});
document.getElementById('accounts').href = root + 'ui/users';
// The notification log: each event, what became of each recipient (by kind: no address is ever shown),
// a re-drive for those not sent, and a test mail to the owner.
const log = document.getElementById('log');
const logInfo = document.getElementById('log-info');
const notifyResult = document.getElementById('notify-result');
const attempts = (count) => count + (count === 1 ? ' attempt' : ' attempts');
const retry = (entry) => entry.retryAt ? ' · next try ' + new Date(entry.retryAt).toLocaleString()
  : entry.gaveUp ? ' · given up (re-drive to try again)' : '';
const notificationAction = async (body, done) => {
  try {
    const data = await api('notification', { method: 'POST', body: JSON.stringify(body) });
    notifyResult.textContent = done(data.id);
  } catch (error) { notifyResult.textContent = error.message; }
};
async function loadLog() {
  let answer;
  try { answer = await api('notification?days=7&limit=50'); } catch (error) { logInfo.textContent = error.message; return; }
  logInfo.textContent = answer.data.length
    ? 'The last ' + answer.days + ' days, newest first.' : 'No notification in the last ' + answer.days + ' days.';
  log.replaceChildren(...answer.data.map((event) => {
    const item = element('li', undefined, 'event');
    item.dataset.state = event.state;
    const head = element('div', undefined, 'head');
    head.append(element('strong', event.state), element('span', ' · ' + event.cause + ' · ' +
      new Date(event.at).toLocaleString() + ' · ' + attempts(event.attempts) + retry(event) + ' · ' + event.id, 'muted'));
    item.append(head);
    if (event.comment) {
      item.append(element('div', 'Comment ' + event.comment.id + ' on ' + event.comment.url + ' (' + event.comment.status + ')', 'muted'));
    }
    if (event.lastError) item.append(element('div', 'Last error: ' + event.lastError, 'error'));
    const deliveries = element('ul', undefined, 'deliveries');
    deliveries.append(...event.deliveries.map((delivery) => element('li', delivery.recipient + ': ' + delivery.state +
      ' · ' + attempts(delivery.attempts) + retry(delivery) + (delivery.lastError ? ' · ' + delivery.lastError : ''))));
    if (event.deliveries.length) item.append(deliveries);
    if (event.state === 'failed' || event.state === 'pending') {
      const actions = element('div', undefined, 'actions');
      actions.append(button('Re-drive', 'secondary', () => notificationAction({ action: 'redrive', id: event.id },
        (id) => 'Notification ' + id + ' handed to the sender again.'), loadLog));
      item.append(actions);
    }
    return item;
  }));
}
const testMail = document.getElementById('test-mail');
testMail.addEventListener('click', async () => {
  testMail.disabled = true;
  try {
    await notificationAction({ action: 'test' }, (id) => 'Test mail ' + id + ' queued: it is listed below once sent.');
    await loadLog();
  } finally { testMail.disabled = false; }
});
document.getElementById('refresh-log').addEventListener('click', () => loadLog());
// Commenters' data requests (issue 28): one line each, by the first characters of the address's keyed hash.
async function loadDataLog() {
  const dataLog = document.getElementById('data-log');
  let entries;
  try { entries = await api('my-data/log'); } catch (error) { dataLog.replaceChildren(element('li', error.message, 'error')); return; }
  if (!entries.length) { dataLog.replaceChildren(element('li', 'No data request yet.', 'muted')); return; }
  dataLog.replaceChildren(...entries.map((entry) => element('li', entry.kind + ' · ' +
    new Date(entry.at).toLocaleString() + ' · address ' + entry.hashPrefix + '… · by ' + entry.via + ' · ' + entry.outcome +
    ' · ' + Object.entries(entry.counts).map(([name, count]) => name + ' ' + count).join(', '))));
}
if (token) { load(); loadLog(); loadDataLog(); }
`;

const style = `
  nav, .actions, .pager { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; margin: .75rem 0; }
  [aria-pressed="true"] { outline: 2px solid var(--accent); outline-offset: 2px; }
  ul { list-style: none; padding: 0; }
  .comment { border: 1px solid #8884; border-radius: .5rem; padding: .75rem 1rem; margin: .75rem 0; }
  .text { white-space: pre-wrap; overflow-wrap: anywhere; }
  .reason { font-size: .9rem; margin: .25rem 0; }
  h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; }
  .event { border: 1px solid #8884; border-radius: .5rem; padding: .5rem 1rem; margin: .5rem 0; overflow-wrap: anywhere; }
  .event[data-state="failed"] { border-color: #c0392b; }
  .deliveries { margin: .25rem 0; padding-left: 1rem; list-style: disc; font-size: .9rem; }
`;

/**
 * `GET /ui`: the moderation queues (waiting, spam), approve / spam / delete in one click, search; and the
 * notification log, with a re-drive of those not sent and a test mail to the owner; the commenters' data requests.
 */
export function moderationPage(): HttpResult {
  return htmlPage({
    title: 'Moderation · Marginalia',
    style,
    body: `<main>
<h1>Moderation</h1>
<nav>
  <button class="secondary" data-status="waiting" aria-pressed="true">Waiting (<span id="waiting">0</span>)</button>
  <button class="secondary" data-status="spam" aria-pressed="false">Spam (<span id="spam">0</span>)</button>
  <button class="secondary" data-status="approved" aria-pressed="false">Approved</button>
  <button class="secondary" data-status="all" aria-pressed="false">All</button>
  <a id="accounts" href="users">Accounts</a>
  <button class="secondary" id="signout" type="button">Sign out</button>
</nav>
<form id="search"><input name="keyword" type="search" placeholder="Search text, nick or mail"> <button>Search</button></form>
<p id="info" class="muted"></p>
<ul id="list"></ul>
<div class="pager"><button class="secondary" id="prev" type="button">Previous</button><button class="secondary" id="next" type="button">Next</button></div>
<section aria-labelledby="notifications">
<h2 id="notifications">Notifications</h2>
<div class="actions"><button id="test-mail" type="button">Send a test mail</button><button class="secondary" id="refresh-log" type="button">Refresh</button></div>
<p id="notify-result" role="status"></p>
<p id="log-info" class="muted"></p>
<ul id="log"></ul>
</section>
<section aria-labelledby="data-requests">
<h2 id="data-requests">Commenters' data requests</h2>
<p class="muted">Downloads and erasures readers asked for at <code>/ui/my-data</code> or from their profile, newest 50; no address is kept.</p>
<ul id="data-log"></ul>
</section>
</main>`,
    script,
  });
}
