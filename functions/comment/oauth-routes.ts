import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../shared/config.js';
import { AppError } from '../shared/domain/errors.js';
import type { Router } from '../shared/http/http-function.js';
import type { HttpResult } from '../shared/http/http-types.js';
import type { ApiRequest } from '../shared/http/request.js';
import { logError } from '../shared/log.js';
import { type OAuthFlows, oauthFlowLimits } from '../shared/table/oauth-flows.js';
import type { IssueSession } from './issue-session.js';
import { oauthRefusedPage, oauthSignedInPage } from './pages/oauth-result-page.js';
import type { AccountOfIdentity } from './sign-in-with-identity.js';
import { type SignInProvider, SignInRefusal } from './sign-in-provider.js';

/** What {@link createOAuthRoutes} takes. */
export interface OAuthRoutesDependencies {
  /** The configured providers (sign-in-providers.ts); none: every route answers that none is. */
  readonly providers: readonly SignInProvider[];
  readonly flows: OAuthFlows;
  readonly accountOfIdentity: AccountOfIdentity;
  readonly issueSession: IssueSession;
  readonly config: Pick<Config, 'ALLOWED_ORIGINS' | 'SITE_URL' | 'SERVER_URL'>;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

/** How long a flow may take from the redirect to the callback. */
export const flowLifetimeMs = 10 * 60 * 1000;

/** The bounds of the callback's query: a state is 43 characters, codes are far under 2 kB. */
const callbackLimits = { stateChars: 128, valueChars: 2048 } as const;

/** The callback's parameters a provider answers with (RFC 6749, RFC 9207's `iss`): the only ones read. */
const callbackParameters = ['code', 'state', 'error', 'error_description', 'iss'] as const;

/** A browser's cookie value: 32 random bytes, base64url. */
const browserValuePattern = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const randomValue = () => randomBytes(32).toString('base64url');

/**
 * `GET /api/oauth/{id}` and `GET /api/oauth/callback` (issue 28): sign-in with an OpenID Connect issuer or
 * GitHub. The first (a link on /ui/login) stores a flow (state, nonce, PKCE verifier, the widget's redirect)
 * for ten minutes, bound to this browser by a cookie (HttpOnly, SameSite=Lax, `__Host-` on https) whose hash
 * the flow holds, and sends the browser to the provider. The second takes the flow once, only with that
 * cookie: a callback link begun in another browser signs nobody in (login CSRF), and is refused before any
 * code is exchanged. It then asks the provider who signed in, finds or makes the account
 * (sign-in-with-identity.ts), and ends in {@link IssueSession} like every sign-in: its page hands the user to
 * the widget. Every refusal is a page that says what went wrong, never a code or a token.
 */
export function createOAuthRoutes({
  providers,
  flows,
  accountOfIdentity,
  issueSession,
  config,
  now,
}: OAuthRoutesDependencies): { readonly begin: Router; readonly callback: Router } {
  const begin: Router = async (request) => {
    const provider = providers.find((candidate) => candidate.key === request.id);
    if (!provider) return oauthRefusedPage(404, 'No such sign-in is configured on this server.');
    const server = serverOf(request, config);
    const redirect = request.query('redirect') || undefined;
    if (
      request.queryAll('redirect').length > 1 ||
      (redirect && !isConfiguredTarget(redirect, server, config))
    ) {
      return oauthRefusedPage(
        400,
        'Sign-in goes only to the sites this server is configured for (ALLOWED_ORIGINS, SITE_URL), and the redirect names another.',
      );
    }
    const known = request.cookie?.(server.cookieName);
    const browser = known && browserValuePattern.test(known) ? known : randomValue();
    const state = randomValue();
    const nonce = randomValue();
    // PKCE (RFC 7636): 32 random bytes as the verifier, its SHA-256 as the challenge (S256).
    const codeVerifier = randomValue();
    let location: URL;
    try {
      location = await provider.authorizationUrl({
        redirectUri: server.redirectUri,
        state,
        nonce,
        codeChallenge: sha256(codeVerifier),
      });
    } catch (error) {
      return refusalPage(error);
    }
    const time = now();
    await flows.begin(sha256(state), {
      provider: provider.key,
      issuer: provider.issuer,
      nonce,
      codeVerifier,
      ...(redirect ? { redirect } : {}),
      remember: request.query('remember') !== '0',
      browserHash: sha256(browser),
      validUntil: time + flowLifetimeMs,
    });
    return {
      statusCode: 302,
      headers: {
        location: location.toString(),
        'set-cookie': cookieHeader(server, browser),
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      },
      body: '',
    };
  };

  const callback: Router = async (request) => {
    const state = singleValue(request, 'state', callbackLimits.stateChars);
    if (!state)
      return oauthRefusedPage(400, 'This sign-in link is incomplete. Start again from the sign-in page.');
    const server = serverOf(request, config);
    const browser = request.cookie?.(server.cookieName);
    // Refused here, before any read: no cookie is no sign-in of this browser's.
    if (!browser || !browserValuePattern.test(browser)) return notThisBrowsers();
    const flow = await flows.take(sha256(state), sha256(browser), now());
    if (!flow) return notThisBrowsers();
    const provider = providers.find(
      (candidate) => candidate.key === flow.provider && candidate.issuer === flow.issuer,
    );
    if (!provider) return oauthRefusedPage(400, 'This sign-in is no longer configured on this server.');
    const callbackUrl = new URL(server.redirectUri);
    for (const name of callbackParameters) {
      const value = singleValue(request, name, callbackLimits.valueChars);
      if (value === null)
        return oauthRefusedPage(400, `The sign-in answer's ${name} is repeated or too long.`);
      if (value !== undefined) callbackUrl.searchParams.set(name, value);
    }
    try {
      const identity = await provider.identityOf({
        callbackUrl,
        redirectUri: server.redirectUri,
        state,
        nonce: flow.nonce,
        codeVerifier: flow.codeVerifier,
      });
      const account = await accountOfIdentity(identity);
      const user = await issueSession(account, request.lang);
      return oauthSignedInPage({
        allowedOrigins: config.ALLOWED_ORIGINS,
        siteUrl: config.SITE_URL,
        user,
        remember: flow.remember,
        ...(flow.redirect ? { redirect: flow.redirect } : {}),
      });
    } catch (error) {
      return refusalPage(error);
    }
  };

  return { begin, callback };
}

/** The one answer for a flow this browser did not begin, one used already, and one past its ten minutes. */
function notThisBrowsers(): HttpResult {
  return oauthRefusedPage(
    400,
    'This sign-in was not started in this browser, was used already, or took longer than ten minutes. Start again from the sign-in page.',
  );
}

/** A refusal's page: the provider's refusal or the account's (banned, unconfirmed) as it says; anything else bland. */
function refusalPage(error: unknown): HttpResult {
  if (error instanceof SignInRefusal) {
    // What the library refused, for the operator setting an issuer up: its message names a claim or a status,
    // never a code or a token. A reader's refusal (`denied`) is theirs to make, and not logged.
    if (error.reason !== 'denied') {
      const cause = error.cause instanceof Error ? `${error.cause.name}: ${error.cause.message}` : undefined;
      logError('an external sign-in was refused', { reason: error.reason, ...(cause ? { cause } : {}) });
    }
    const status = error.reason === 'unreachable' ? 502 : error.reason === 'unavailable' ? 503 : 400;
    return oauthRefusedPage(status, error.message);
  }
  if (error instanceof AppError && error.status < 500) return oauthRefusedPage(400, error.message);
  // Only the error's name and message: an oauth4webapi error may hold the answer it refused, never logged whole.
  logError('an external sign-in failed', {
    error: error instanceof Error ? `${error.name}: ${error.message}` : 'unknown',
  });
  return oauthRefusedPage(503, 'The sign-in could not be finished. Try again later.');
}

/** Query parameter `name`: undefined when absent, null when repeated or longer than `maxChars`. */
function singleValue(request: ApiRequest, name: string, maxChars: number): string | undefined | null {
  const values = request.queryAll(name);
  if (values.length === 0) return undefined;
  const value = values[0]!;
  return values.length > 1 || value.length > maxChars ? null : value;
}

/** This server as the browser reached it: its origin, the callback's address and the cookie's name. */
interface ServerAddress {
  readonly origin: string;
  readonly redirectUri: string;
  readonly secure: boolean;
  readonly cookieName: string;
}

/**
 * SERVER_URL when set (keeping its base path); otherwise the request's host, over https (http only on a loopback
 * host, as local mode serves).
 */
function serverOf(request: ApiRequest, config: Pick<Config, 'SERVER_URL'>): ServerAddress {
  const host = request.host ?? 'localhost';
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(host);
  const base = config.SERVER_URL
    ? config.SERVER_URL.replace(/\/+$/, '')
    : `${loopback && request.header('x-forwarded-proto') === 'http' ? 'http' : 'https'}://${host}`;
  const secure = base.startsWith('https:');
  return {
    origin: new URL(base).origin,
    redirectUri: `${base}/api/oauth/callback`,
    secure,
    // `__Host-`: set only over https, by this host alone, for every path: no sibling domain can plant one.
    cookieName: secure ? '__Host-marginalia-signin' : 'marginalia-signin',
  };
}

function cookieHeader(server: ServerAddress, value: string): string {
  return [
    `${server.cookieName}=${value}`,
    'Path=/',
    `Max-Age=${flowLifetimeMs / 1000}`,
    'HttpOnly',
    // Lax: sent on the provider's top-level redirect back here, never on another site's requests.
    'SameSite=Lax',
    ...(server.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Whether the widget's `redirect` is an http(s) address on a configured site (as the login page checks). */
function isConfiguredTarget(
  redirect: string,
  server: ServerAddress,
  config: Pick<Config, 'ALLOWED_ORIGINS' | 'SITE_URL'>,
): boolean {
  if (redirect.length > oauthFlowLimits.redirectChars || !URL.canParse(redirect)) return false;
  const url = new URL(redirect);
  if (!/^https?:$/.test(url.protocol)) return false;
  const origins = [
    ...config.ALLOWED_ORIGINS.filter((origin) => origin !== '*'),
    ...(config.SITE_URL && URL.canParse(config.SITE_URL) ? [new URL(config.SITE_URL).origin] : []),
    server.origin,
  ];
  return origins.includes(url.origin);
}
