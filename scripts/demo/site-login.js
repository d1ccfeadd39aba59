// The demo site's page (docs/single-sign-on.md): its backend vouches for the signed-in member in an assertion, the
// page exchanges it for Marginalia's token and stores the answer as the widget's WALINE_USER, then loads the widget.

const path = '/posts/members-corner';
const status = document.querySelector('#site-status');
const signIn = document.querySelector('#site-sign-in');
const signOut = document.querySelector('#site-sign-out');
const error = document.querySelector('#site-error');

/** The member the widget holds: WALINE_USER with a token, or undefined. */
function storedMember() {
  try {
    const user = JSON.parse(localStorage.getItem('WALINE_USER') || 'null');
    return user && user.token ? user : undefined;
  } catch {
    return undefined;
  }
}

/** What every site page does once the member is known: show them, then load the widget (it reads WALINE_USER once). */
async function showSite() {
  const member = storedMember();
  status.textContent = member
    ? `Signed in to the site as ${member.display_name}.`
    : 'You are not signed in to this site.';
  signIn.hidden = Boolean(member);
  signOut.hidden = !member;
  const { init } = await import('/vendor/waline-v3/waline.js');
  init({
    el: '#waline',
    serverURL: location.origin,
    path,
    lang: 'en',
    emoji: false,
    search: false,
    imageUploader: false,
    noRss: true,
  });
}

/** Signs the member in on the site, then in the widget: the ten lines a site's page needs. */
async function signInToSite() {
  error.hidden = true;
  // 1. The site's backend vouches for its signed-in member (a real site checks its own session here).
  const minted = await fetch('/demo/site-login/assertion', { method: 'POST' });
  const { assertion, error: backendError } = await minted.json();
  if (!assertion) throw new Error(backendError);
  // 2. Marginalia exchanges the assertion for its own token, answering as POST /api/token does.
  const answer = await fetch('/api/token/sso', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ assertion }),
  });
  const { errno, errmsg, data } = await answer.json();
  if (errno !== 0) throw new Error(errmsg);
  // 3. The widget takes its user from localStorage: `remember` keeps it there across visits.
  localStorage.setItem('WALINE_USER', JSON.stringify({ ...data, remember: true }));
}

signIn.addEventListener('click', () => {
  signInToSite().then(
    () => location.reload(),
    (failure) => {
      error.textContent = `The site could not sign you in: ${failure.message}`;
      error.hidden = false;
    },
  );
});
signOut.addEventListener('click', () => {
  localStorage.removeItem('WALINE_USER');
  location.reload();
});
void showSite();
