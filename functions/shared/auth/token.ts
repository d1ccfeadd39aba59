// jose costs the comment bundle 18.7 KB minified and its cold start +0.1 to +0.5 ms of ~112 ms (noise).
import { errors, jwtVerify, SignJWT } from 'jose';

/** What a signed-in account's token says. */
export interface TokenClaims {
  /** The account's id. */
  readonly sub: string;
  /**
   * The account's `sessionVersion` when the token was issued: a token of another version is refused
   * (auth/viewer.ts). Tokens issued before accounts (`{sub, email, exp}`) read as version 0.
   */
  readonly ver: number;
  /** Expiry, in seconds since the epoch. */
  readonly exp: number;
}

/** What an administrator's token said before accounts: still accepted, as `ver` 0. */
export interface LegacyTokenClaims {
  readonly sub: string;
  readonly email: string;
  readonly exp: number;
}

/** The header of every token we issue; a token is checked against it, so no `alg: none`, no switching. */
const header = { alg: 'HS256', typ: 'JWT' } as const;
/** Longer tokens are refused before any HMAC is computed. */
const maxTokenChars = 4096;
/** An HS256 signature is 32 bytes: 43 characters of base64url. */
const signatureChars = 43;
// The key is the secret's UTF-8 bytes, as it was for the tokens signed before jose: they still verify.
const encoder = new TextEncoder();

/** Signs `claims` as a compact HS256 JWT. */
export function signToken(secret: string, claims: TokenClaims | LegacyTokenClaims): Promise<string> {
  return new SignJWT({ ...claims }).setProtectedHeader(header).sign(encoder.encode(secret));
}

/**
 * A token for `account`, valid `ttlHours` from `nowMs` (ms since the epoch): what a sign-in and a password
 * change answer.
 */
export function tokenFor(
  secret: string,
  account: { readonly id: string; readonly sessionVersion: number },
  nowMs: number,
  ttlHours: number,
): Promise<string> {
  return signToken(secret, {
    sub: account.id,
    ver: account.sessionVersion,
    exp: Math.floor(nowMs / 1000) + ttlHours * 3600,
  });
}

/** Why a token was refused: not ours in shape, signed with another key, or expired. */
export type TokenRefusal = 'malformed' | 'signature' | 'expired';

/** The claims of an accepted token, or why it was refused. */
export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; refusal: TokenRefusal };

/**
 * Checks `token` against `secret` at `nowMs`: its claims when it is an HS256 JWT signed with `secret`
 * and not expired, else why not. Only `signature` can mean that the key changed since it was read.
 */
export async function checkToken(
  secret: string,
  token: string | undefined,
  nowMs: number,
): Promise<TokenCheck> {
  const refused = (refusal: TokenRefusal) => ({ ok: false, refusal }) as const;
  if (!token || token.length > maxTokenChars) return refused('malformed');
  // No HS256 key makes a signature of another length: a truncated one is not a sign the key changed.
  if (token.split('.')[2]?.length !== signatureChars) return refused('malformed');
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), {
      algorithms: [header.alg],
      typ: header.typ,
      currentDate: new Date(nowMs),
    });
    const { sub, exp } = payload;
    const ver = sessionVersionOf(payload);
    if (typeof sub !== 'string' || ver === undefined || typeof exp !== 'number') return refused('malformed');
    return { ok: true, claims: { sub, ver, exp } };
  } catch (error) {
    if (error instanceof errors.JWSSignatureVerificationFailed) return refused('signature');
    if (error instanceof errors.JWTExpired) return refused('expired');
    // Anything else jose refuses (segments, header, JSON, claim types) is not a token of ours.
    return refused('malformed');
  }
}

/**
 * The session version a payload carries: its `ver`, a whole number from 0; or 0 for a token issued before
 * accounts, which has an `email` and no `ver` (the administrators migrated with version 0 stay signed in).
 * Undefined for anything else.
 */
function sessionVersionOf(payload: Readonly<Record<string, unknown>>): number | undefined {
  const { ver, email } = payload;
  if (ver === undefined) return typeof email === 'string' ? 0 : undefined;
  return Number.isSafeInteger(ver) && (ver as number) >= 0 ? (ver as number) : undefined;
}

/**
 * The claims of `token` when it is an HS256 JWT signed with `secret` and not expired at `nowMs`;
 * undefined for anything else (the widget sends `Bearer undefined`: that is simply anonymous).
 */
export async function verifyToken(
  secret: string,
  token: string | undefined,
  nowMs: number,
): Promise<TokenClaims | undefined> {
  const check = await checkToken(secret, token, nowMs);
  return check.ok ? check.claims : undefined;
}

/** The bearer token of an `Authorization` header, if any. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1];
}
