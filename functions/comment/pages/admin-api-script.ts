/**
 * Browser code the administrators' pages (`/ui`, `/ui/users`) start with: `root` (the server's root, whatever path
 * prefix it is served under), the administrator's `token` from sessionStorage (none: off to the sign-in page),
 * `api(path, init)` (a JSON call with the token; a 401 forgets it and signs in again; an `errno` throws its
 * message), and `element(tag, text, className)`, which writes text with textContent only.
 */
export const adminApiScript = String.raw`
const root = location.pathname.replace(/\/ui(\/.*)?$/, '/');
const token = sessionStorage.getItem('MARGINALIA_TOKEN');
if (!token) location.href = root + 'ui/login';
const api = async (path, init = {}) => {
  const response = await fetch(root + 'api/' + path, {
    ...init, headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
  });
  const answer = await response.json();
  if (response.status === 401) { sessionStorage.removeItem('MARGINALIA_TOKEN'); location.href = root + 'ui/login'; }
  if (answer.errno) throw new Error(answer.errmsg);
  return answer.data;
};
const element = (tag, text, className) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};
`;
