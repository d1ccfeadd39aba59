/**
 * Browser code that hands a signed-in user (`POST /api/token`'s `data`, with `remember`) to where the sign-in
 * was asked from, whatever method signed in (password, passkey, an issuer's callback, the site's SSO). Needs
 * {@link siteOriginsScript} (site-origins.ts) before it. It defines `handOff(user, redirect, error)`:
 *
 * - `redirect` (the widget's `?redirect=`): only to a configured origin, with `?token=` (the widget reads the
 *   query, not a fragment);
 * - an opener (the widget's popup): `postMessage` aimed at each configured origin, which the browser delivers only
 *   to an opener on that very origin, then the window closes;
 * - neither: this server's moderation page, the token in sessionStorage.
 *
 * `error` is the element that says why nothing was handed off.
 */
export const handOffScript = String.raw`
const handOff = (user, redirect, error) => {
  if (redirect) {
    if (!configured(originOf(redirect))) { error.textContent = 'Refusing to send a sign-in to ' + redirect; return; }
    const url = new URL(redirect);
    url.searchParams.set('token', user.token);
    location.href = url.toString();
  } else if (window.opener) {
    for (const origin of configuredOrigins) window.opener.postMessage({ type: 'userInfo', data: user }, origin);
    window.close();
  } else {
    sessionStorage.setItem('MARGINALIA_TOKEN', user.token);
    location.href = location.pathname.replace(/\/ui(\/.*)?$/, '/') + 'ui';
  }
};
`;
