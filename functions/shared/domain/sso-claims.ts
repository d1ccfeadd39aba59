import { controlCharacters } from './comment-schemas.js';
import { AppError } from './errors.js';
import { type ExternalIdentity, externalIdentityLimits } from './external-identity.js';
import { limits } from './limits.js';
import { isPlainAddress } from './mail-address.js';

/**
 * The rules of a single sign-on assertion (issue 28, `POST /api/token/sso`, docs/single-sign-on.md): what its
 * claims must be once its signature is verified (auth/sso-assertion.ts), and the identity they make. Claims
 * have OpenID Connect's standard names.
 */

/** The bounds of an assertion. */
export const ssoAssertionLimits = {
  /** A compact JWT of a few hundred bytes of claims is well under this; anything longer is refused unread. */
  maxChars: 8192,
  /** An assertion lives at most this long: `exp` at most 5 minutes after `iat`. */
  maxLifetimeSeconds: 300,
  /** How far the site's clock may be from ours, either way, in `exp`, `iat` and `nbf`. */
  clockSkewSeconds: 60,
  /** Bounds of `jti` (and `sub`: externalIdentityLimits.subjectChars). */
  jtiChars: 255,
} as const;

/** A refusal of an assertion: a 401 whose message names the rule, `assertion: <rule>`. */
export function refusedAssertion(rule: string): AppError {
  return new AppError('unauthorized', `assertion: ${rule}`);
}

/** What the route needs of a checked assertion besides the identity: its single-use id and how long to keep it. */
export interface CheckedSsoClaims {
  readonly identity: ExternalIdentity;
  readonly jti: string;
  /** Seconds since the epoch until which the assertion would still pass: `exp` plus the skew allowed. */
  readonly usableUntil: number;
}

/**
 * Checks the claims of an assertion whose signature was verified, for the API `audience`, at `nowSeconds`, and
 * makes the identity `provider` vouches for. Throws {@link refusedAssertion} naming the first rule broken:
 * `aud` must be (or hold) the audience; `iat` and `exp` are required numbers, `exp` at most
 * {@link ssoAssertionLimits}`.maxLifetimeSeconds` after `iat`, neither `iat` nor `nbf` in the future and `exp`
 * not past (each give or take the skew); `sub` and `jti` are required strings; `name` (or `preferred_username`)
 * is the display name; `picture` and `website` are http(s) addresses; `email` one plain address, verified only
 * when `email_verified` is `true`.
 */
export function checkSsoClaims(
  claims: Readonly<Record<string, unknown>>,
  rules: { readonly audience: string; readonly provider: string; readonly nowSeconds: number },
): CheckedSsoClaims {
  const { audience, provider, nowSeconds } = rules;
  const skew = ssoAssertionLimits.clockSkewSeconds;
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.some((aud) => typeof aud === 'string' && sameAudience(aud, audience))) {
    throw refusedAssertion(`aud must be ${audience}`);
  }
  const { iat, exp, nbf } = claims;
  if (!isSeconds(iat)) throw refusedAssertion('iat is required (seconds since the epoch)');
  if (!isSeconds(exp)) throw refusedAssertion('exp is required (seconds since the epoch)');
  if (exp - iat > ssoAssertionLimits.maxLifetimeSeconds) {
    throw refusedAssertion(`exp must be at most ${ssoAssertionLimits.maxLifetimeSeconds} seconds after iat`);
  }
  if (exp + skew <= nowSeconds) throw refusedAssertion('expired');
  if (iat - skew > nowSeconds) throw refusedAssertion('iat is in the future');
  if (nbf !== undefined && (!isSeconds(nbf) || nbf - skew > nowSeconds)) {
    throw refusedAssertion('nbf must be seconds since the epoch, not in the future');
  }
  const subject = boundedText(claims.sub, externalIdentityLimits.subjectChars);
  if (subject === undefined) {
    throw refusedAssertion(`sub is required (1 to ${externalIdentityLimits.subjectChars} characters)`);
  }
  const jti = boundedText(claims.jti, ssoAssertionLimits.jtiChars);
  if (jti === undefined) {
    throw refusedAssertion(
      `jti is required (1 to ${ssoAssertionLimits.jtiChars} characters, new for every assertion)`,
    );
  }
  return {
    identity: { provider, subject, profile: profileOf(claims), ...emailOf(claims) },
    jti,
    usableUntil: exp + skew,
  };
}

/** An audience is the API's URL: a trailing slash on either side does not make it another. */
function sameAudience(claimed: string, audience: string): boolean {
  const bare = (value: string) => value.replace(/\/+$/, '');
  return bare(claimed) === bare(audience);
}

function isSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** A string of 1 to `max` characters without control characters, or undefined. */
function boundedText(value: unknown, max: number): string | undefined {
  return typeof value === 'string' &&
    value.length > 0 &&
    value.length <= max &&
    !controlCharacters.test(value)
    ? value
    : undefined;
}

/** The display name, link and avatar the account starts with (the member edits them later on /ui/profile). */
function profileOf(claims: Readonly<Record<string, unknown>>): ExternalIdentity['profile'] {
  const rawName = claims.name ?? claims.preferred_username;
  const displayName = typeof rawName === 'string' ? boundedText(rawName.trim(), limits.nickChars) : undefined;
  if (displayName === undefined) {
    throw refusedAssertion(`name is required (1 to ${limits.nickChars} characters; or preferred_username)`);
  }
  const link = webAddress(claims, 'website');
  const avatar = webAddress(claims, 'picture');
  return { displayName, ...(link ? { link } : {}), ...(avatar ? { avatar } : {}) };
}

/** An optional http(s) address claim: the widget shows it as an href or an image, never `javascript:`. */
function webAddress(
  claims: Readonly<Record<string, unknown>>,
  name: 'website' | 'picture',
): string | undefined {
  const value = claims[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (
    typeof value !== 'string' ||
    value.length > limits.linkChars ||
    !/^https?:\/\/[^/?#\s]/i.test(value) ||
    !URL.canParse(value)
  ) {
    throw refusedAssertion(`${name} must be an http(s) address of at most ${limits.linkChars} characters`);
  }
  return value;
}

function emailOf(claims: Readonly<Record<string, unknown>>): Pick<ExternalIdentity, 'email'> {
  const { email } = claims;
  if (email === undefined || email === null || email === '') return {};
  if (typeof email !== 'string' || !isPlainAddress(email)) {
    throw refusedAssertion('email must be one plain address');
  }
  // Only a plain `true` vouches for the address: a string "true" is not OIDC's boolean.
  return { email: { address: email.trim(), verified: claims.email_verified === true } };
}
