import { createSsoAssertionVerifier, type VerifySsoAssertion } from '../shared/auth/sso-assertion.js';
import { createIssuerKeys } from '../shared/auth/sso-issuer-keys.js';
import type { Config } from '../shared/config.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { refusedAssertion } from '../shared/domain/sso-claims.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import type { ClaimSsoAssertion } from '../shared/table/sso-assertions.js';
import type { IssueSession } from './issue-session.js';
import { admitNetworkAttempt } from './network-attempts.js';
import type { AccountOfIdentity } from './sign-in-with-identity.js';

/** `{ "assertion": "<JWT>" }`; the assertion's size is checked by its own rule (a 401 naming it). */
const ssoBodySchema = z.object({ assertion: z.string().check(z.minLength(1)) });

/**
 * Exchanges a network may try per hour. A member's exchange happens once per sign-in on the site (the token then
 * lasts TOKEN_TTL_HOURS); sixty an hour lets a household or an office in, and keeps forged assertions to a trickle.
 */
const exchangesPerHour = 60;

/**
 * The verifier of this server's SSO settings, built once per instance (the issuer's keys are cached in it), or
 * undefined when SSO is not configured: no key (SSO_SECRET, SSO_SECRET_PARAMETER), no issuer (SSO_ISSUER), or no
 * audience (SSO_AUDIENCE; config.ts refuses a key or an issuer without it).
 */
export function ssoAssertionVerifier(
  config: Pick<Config, 'SSO_SECRET' | 'SSO_SECRET_PARAMETER' | 'SSO_ISSUER' | 'SSO_AUDIENCE'>,
  secret: SecretSource,
): VerifySsoAssertion | undefined {
  const audience = config.SSO_AUDIENCE;
  const keyed = config.SSO_SECRET !== undefined || config.SSO_SECRET_PARAMETER !== undefined;
  if (audience === undefined || (!keyed && config.SSO_ISSUER === undefined)) return undefined;
  return createSsoAssertionVerifier({
    audience,
    // An issuer alone: no HS256 assertion is taken, whatever the secret source says.
    secret: keyed ? secret : async () => undefined,
    ...(config.SSO_ISSUER
      ? { issuer: { url: config.SSO_ISSUER, keys: createIssuerKeys({ issuer: config.SSO_ISSUER }) } }
      : {}),
  });
}

/** What {@link createSignInWithSso} takes. */
export interface SignInWithSsoDependencies {
  readonly config: Pick<Config, 'IP_HASH_SALT'>;
  /** Verifies the assertion and checks its claims (auth/sso-assertion.ts); undefined when SSO is not configured. */
  readonly verifyAssertion: VerifySsoAssertion | undefined;
  /** The key that signs sign-in tokens, read first: without one, nothing is counted or verified. */
  readonly tokenSecret: SecretSource;
  /** Counts the exchanges of each network (account-limits.ts), before any signature is verified. */
  readonly accountLimits: Pick<AccountLimits, 'countAttempt'>;
  /** Records an assertion's `jti` as used; false when it was used before. */
  readonly claimAssertion: ClaimSsoAssertion;
  /** Finds or makes the account of the identity the site vouched for (sign-in-with-identity.ts). */
  readonly accountOfIdentity: AccountOfIdentity;
  /** What ends every sign-in: the account's checks and its token (issue-session.ts). */
  readonly issueSession: IssueSession;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

/**
 * `POST /api/token/sso {assertion}`: single sign-on with the site (issue 28, docs/single-sign-on.md). The site's
 * backend (HS256 with SSO_SECRET) or its own OpenID Connect issuer (SSO_ISSUER) vouches for a member in a
 * short-lived JWT; this answers exactly as `POST /api/token` does, Waline's user and a token, which the site's page
 * stores as the widget's `WALINE_USER`. The account is the one of `(site, sub)`, made at the first exchange.
 *
 * Without SSO configured, a 403 that says so. Each network's exchanges are counted before any signature is
 * verified (a 429 past the hour's allowance). Every assertion that breaks a rule is a 401 naming it
 * (`assertion: expired`, `assertion: aud must be …`); a verified one is then used up: its `jti` is recorded
 * (DynamoDB, conditional put) until it would expire anyway, and a second exchange is `assertion: jti already used`.
 */
export function createSignInWithSso({
  config,
  verifyAssertion,
  tokenSecret,
  accountLimits,
  claimAssertion,
  accountOfIdentity,
  issueSession,
  now,
}: SignInWithSsoDependencies): Router {
  return async (request) => {
    const { assertion } = parseInput(ssoBodySchema, request.jsonBody(), request.lang);
    if (!verifyAssertion) {
      throw new AppError(
        'forbidden',
        'Single sign-on is not configured on this server (set SSO_SECRET, SSO_SECRET_PARAMETER or SSO_ISSUER, ' +
          'and SSO_AUDIENCE).',
      );
    }
    if (!(await tokenSecret())) throw new AppError('forbidden', translate(request.lang, 'signInDisabled'));
    const time = now();
    await admitNetworkAttempt(accountLimits, {
      action: 'sso',
      salt: config.IP_HASH_SALT,
      sourceIp: request.sourceIp,
      lang: request.lang,
      time,
      perWindow: exchangesPerHour,
      tooMany: 'tooManySignIns',
    });
    const { identity, jti, usableUntil } = await verifyAssertion(assertion, time);
    if (!(await claimAssertion(identity.provider, jti, time, usableUntil))) {
      throw refusedAssertion('jti already used (every assertion is exchanged once)');
    }
    return envelope(await issueSession(await accountOfIdentity(identity), request.lang));
  };
}
