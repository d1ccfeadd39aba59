import { decodeJwt, decodeProtectedHeader, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { AppError } from '../domain/errors.js';
import {
  type CheckedSsoClaims,
  checkSsoClaims,
  refusedAssertion,
  ssoAssertionLimits,
} from '../domain/sso-claims.js';
import { logError } from '../log.js';
import type { SecretSource } from '../secrets/parameter-secret.js';
import { IssuerUnavailableError } from './sso-issuer-keys.js';

/**
 * Verifies a single sign-on assertion (issue 28, `POST /api/token/sso`) and checks its claims
 * (domain/sso-claims.ts), or throws a 401 naming the rule it broke (503 when the site's issuer cannot be asked).
 */
export type VerifySsoAssertion = (assertion: string, nowMs: number) => Promise<CheckedSsoClaims>;

/** How assertions are verified: the API's audience, the site backend's key, the site's issuer. */
export interface SsoAssertionSettings {
  /** SSO_AUDIENCE: the `aud` every assertion must carry, and the site's name in its accounts' provider. */
  readonly audience: string;
  /** SSO_SECRET (or its SSM parameter): the HS256 key; it gives undefined when not configured. */
  readonly secret: SecretSource;
  /** SSO_ISSUER and its keys (auth/sso-issuer-keys.ts), when configured. */
  readonly issuer?: { readonly url: string; readonly keys: JWTVerifyGetKey };
}

/** The algorithms an issuer's ID token may be signed with: asymmetric ones only, from its published keys. */
export const issuerAlgorithms = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** The provider of accounts made from the site backend's HS256 assertions: the site, whatever its audience. */
export const ssoSiteProvider = 'sso:site';

/**
 * Builds {@link VerifySsoAssertion}. The header's `alg` picks the key, and nothing else may: HS256 only with
 * the site backend's secret (never an issuer's public key taken as an HMAC key), an asymmetric algorithm only
 * with the keys of SSO_ISSUER and only for a token whose `iss` is SSO_ISSUER; `none` and every other algorithm
 * are refused before any key is read. An HS256 signature that fails asks for the secret again (it may have been
 * rotated: secrets/parameter-secret.ts bounds how often) and is tried once with a new one.
 *
 * Accounts are keyed by who vouches: {@link ssoSiteProvider} for the backend's HS256 assertions (one site per
 * deployment: a new audience or secret keeps its members' accounts), `oidc:<issuer>` for the issuer's ID tokens,
 * the same key as a sign-in with that issuer's button (domain/external-identity.ts).
 */
export function createSsoAssertionVerifier(settings: SsoAssertionSettings): VerifySsoAssertion {
  const { audience, issuer } = settings;
  const rules = (provider: string, nowMs: number) => ({
    audience,
    provider,
    nowSeconds: Math.floor(nowMs / 1000),
  });

  const withSecret = async (assertion: string, nowMs: number) => {
    const secret = await settings.secret();
    if (!secret) throw refusedAssertion('alg HS256 is accepted only with SSO_SECRET, which is not set here');
    const verify = (key: string) => verified(assertion, new TextEncoder().encode(key), ['HS256'], nowMs);
    let payload;
    try {
      payload = await verify(secret);
    } catch (error) {
      const fresh =
        error instanceof errors.JWSSignatureVerificationFailed && (await settings.secret({ refresh: true }));
      if (!fresh || fresh === secret) throw refusal(error);
      payload = await verify(fresh).catch((retried: unknown) => {
        throw refusal(retried);
      });
    }
    return checkSsoClaims(payload, rules(ssoSiteProvider, nowMs));
  };

  const withIssuer = async (assertion: string, alg: string, nowMs: number) => {
    if (!issuer) throw refusedAssertion(`alg ${alg} is accepted only from SSO_ISSUER, which is not set here`);
    // Read unverified only to refuse another issuer's token before fetching keys; verified below.
    if (unverifiedIssuer(assertion) !== issuer.url) throw refusedAssertion(`iss must be ${issuer.url}`);
    const payload = await verified(assertion, issuer.keys, issuerAlgorithms, nowMs).catch(
      (error: unknown) => {
        throw refusal(error);
      },
    );
    if (payload.iss !== issuer.url) throw refusedAssertion(`iss must be ${issuer.url}`);
    return checkSsoClaims(payload, rules(`oidc:${issuer.url}`, nowMs));
  };

  return async (assertion, nowMs) => {
    if (assertion.length > ssoAssertionLimits.maxChars) {
      throw refusedAssertion(`longer than ${ssoAssertionLimits.maxChars} characters`);
    }
    const alg = algorithmOf(assertion);
    if (alg === 'HS256') return withSecret(assertion, nowMs);
    if ((issuerAlgorithms as readonly string[]).includes(alg)) return withIssuer(assertion, alg, nowMs);
    if (alg.toLowerCase() === 'none')
      throw refusedAssertion('alg none is refused: an assertion must be signed');
    throw refusedAssertion(
      `alg ${alg} is not accepted: HS256 (with SSO_SECRET) or ${issuerAlgorithms.join(', ')} (from SSO_ISSUER)`,
    );
  };
}

/** The signature checked with `key` for `algorithms` only, and jose's checks of `exp` and `nbf` (with the skew). */
async function verified(
  assertion: string,
  key: Uint8Array | JWTVerifyGetKey,
  algorithms: readonly string[],
  nowMs: number,
) {
  const options = {
    algorithms: [...algorithms],
    clockTolerance: ssoAssertionLimits.clockSkewSeconds,
    currentDate: new Date(nowMs),
  };
  // Two calls for jose's two overloads: a key, or a function that finds one.
  const { payload } =
    key instanceof Uint8Array
      ? await jwtVerify(assertion, key, options)
      : await jwtVerify(assertion, key, options);
  return payload;
}

const notAJwt = 'not a JWT (a compact JWS: three base64url parts separated by dots)';

function algorithmOf(assertion: string): string {
  let header;
  try {
    header = decodeProtectedHeader(assertion);
  } catch {
    throw refusedAssertion(notAJwt);
  }
  return typeof header.alg === 'string' ? header.alg : 'none';
}

function unverifiedIssuer(assertion: string): unknown {
  try {
    return decodeJwt(assertion).iss;
  } catch {
    throw refusedAssertion(notAJwt);
  }
}

/** jose's verdict on an assertion in the rule's words; a failure to reach the issuer is a 503. */
function refusal(error: unknown): Error {
  if (error instanceof AppError) return error;
  if (error instanceof IssuerUnavailableError) {
    // Why goes to the log, for the operator; the caller learns only which service to wait for.
    logError(`single sign-on: ${error.message}`);
    return new AppError(
      'unavailable',
      'assertion: cannot be verified now: the keys of SSO_ISSUER could not be fetched; try again later',
    );
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return refusedAssertion('signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey) {
    return refusedAssertion('no key of SSO_ISSUER matches its kid and alg');
  }
  if (error instanceof errors.JWKSMultipleMatchingKeys) {
    return refusedAssertion('several keys of SSO_ISSUER match it: name one with kid');
  }
  if (error instanceof errors.JWTExpired) return refusedAssertion('expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return refusedAssertion(`${error.claim} is invalid (${error.reason})`);
  }
  if (error instanceof errors.JOSEError) return refusedAssertion(`not a valid JWT (${error.message})`);
  return error instanceof Error ? error : new Error(String(error));
}
