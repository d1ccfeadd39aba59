/**
 * Browser code shared by `/ui/my-data` and the profile's "Your data" section: `downloadMyData(authorization)`
 * reads every page of `GET /api/my-data` and saves them as one JSON file; `eraseMyData(authorization)` asks for
 * confirmation, then calls `DELETE /api/my-data` until it answers `done` (a large erase takes several calls).
 * Each reports in the element `#data-status` (textContent only).
 */
export const myDataScript = String.raw`
const dataRoot = location.pathname.replace(/\/ui(\/.*)?$/, '/');
const dataStatus = document.getElementById('data-status');
const dataCall = async (method, path, authorization) => {
  let response;
  // These routes have small limits of their own: a 429 waits its turn, a few times.
  for (let attempt = 0; attempt < 8; attempt++) {
    response = await fetch(dataRoot + 'api/my-data' + path, { method, headers: { authorization } });
    if (response.status !== 429) break;
    await new Promise((resolve) => setTimeout(resolve, 4000));
  }
  const answer = await response.json();
  if (answer.errno) throw new Error(typeof answer.errmsg === 'string' && answer.errmsg ? answer.errmsg : 'The request was refused.');
  return answer.data;
};
const downloadMyData = async (authorization) => {
  dataStatus.textContent = 'Reading your data…';
  try {
    let page = await dataCall('GET', '', authorization);
    const all = { ...page, comments: [...page.comments] };
    while (page.next) {
      page = await dataCall('GET', '?cursor=' + encodeURIComponent(page.next), authorization);
      all.comments.push(...page.comments);
    }
    delete all.next; all.truncated = false;
    const file = new Blob([JSON.stringify(all, null, 2)], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(file); link.download = 'my-data.json';
    document.body.append(link); link.click(); link.remove();
    dataStatus.textContent = 'Downloaded: ' + all.comments.length + ' comments.';
  } catch (problem) { dataStatus.textContent = problem.message || 'The server did not answer.'; }
};
const eraseMyData = async (authorization) => {
  if (!confirm('Erase your comments and everything kept for your address? This cannot be undone.')) return false;
  dataStatus.textContent = 'Erasing…';
  try {
    for (let call = 0; call < 200; call++) {
      const answer = await dataCall('DELETE', '', authorization);
      if (answer.done) {
        dataStatus.textContent = 'Erased: ' + answer.removed + ' comments removed, ' + answer.kept + ' kept for their replies without you.';
        return true;
      }
      dataStatus.textContent = 'Erasing… ' + answer.removed + ' so far.';
    }
  } catch (problem) { dataStatus.textContent = problem.message || 'The server did not answer.'; }
  return false;
};
`;
