import type { SignedInUser } from '../issue-session.js';
import type { HttpResult } from '../../shared/http/http-types.js';
import { handOffScript } from './hand-off-script.js';
import { embedJson, escapeHtml, htmlPage } from './page-shell.js';
import { type SiteSettings, siteOriginsScript, siteSettingsElement } from './site-origins.js';

// Runs in the browser: hands the user to where the login page was opened from (handOff: the redirect's
// configured site, the widget's popup opener, or /ui), as the password sign-in does.
const script = String.raw`${siteOriginsScript}${handOffScript}
const signedIn = JSON.parse(document.getElementById('signed-in').textContent);
const error = document.getElementById('error');
handOff({ ...signedIn.user, remember: signedIn.remember }, signedIn.redirect, error);
`;

/**
 * The page a sign-in with an issuer or GitHub ends on (`GET /api/oauth/callback`): it hands the signed-in user to
 * the widget (hand-off-script.ts) and says so. Its address carried the provider's code, which the policy's
 * `no-referrer` keeps from being sent on.
 */
export function oauthSignedInPage(
  settings: SiteSettings & {
    readonly user: SignedInUser;
    readonly remember: boolean;
    readonly redirect?: string;
  },
): HttpResult {
  const { user, remember, redirect, ...site } = settings;
  return htmlPage({
    title: 'Signed in · Marginalia',
    body: `<main>
<h1>Signed in</h1>
<p>Signed in as <strong>${escapeHtml(user.display_name)}</strong>. This window goes back to the comments.</p>
<p id="error" class="error" role="alert"></p>
${siteSettingsElement(site)}
<script type="application/json" id="signed-in">${embedJson({ user, remember, redirect: redirect ?? null })}</script>
</main>`,
    script,
  });
}

/**
 * The page a refused sign-in with an issuer or GitHub ends on: what went wrong in plain words, and a way back to
 * the sign-in page. It carries no code, token or secret.
 */
export function oauthRefusedPage(statusCode: 400 | 404 | 502 | 503, message: string): HttpResult {
  const page = htmlPage({
    title: 'Sign-in failed · Marginalia',
    body: `<main>
<h1>Sign-in failed</h1>
<p class="error" role="alert" id="refusal">${escapeHtml(message)}</p>
<p><a href="../../ui/login">Back to the sign-in page</a></p>
</main>`,
    script: '',
  });
  return { ...page, statusCode };
}
