// Hand-written rather than jose (installed): jose's SignJWT and jwtVerify add 18.7 KB minified (6.6 KB
// gzipped) to the comment function's bundle, which has 12.1 KB left under its 500 KB target
// (scripts/bench/report.ts): 487.9 KB would become 506.6 KB. Its cold start was not measurably slower
// (+0.1 to +0.5 ms of 112 to 125 ms, within the noise). Measured with lib/bundle-options.ts's settings,
// medians of 60 to 100 paired cold starts (scripts/bench/cold-start-runner.ts), Node 20.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed-in administrator's token says. */
export interface TokenClaims {
  /** The administrator's id. */
  readonly sub: string;
  readonly email: string;
  /** Expiry, in seconds since the epoch. */
  readonly exp: number;
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const header = encode({ alg: 'HS256', typ: 'JWT' });
const sign = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest();

/** Signs `claims` as a compact HS256 JWT. */
export function signToken(secret: string, claims: TokenClaims): string {
  const body = `${header}.${encode(claims)}`;
  return `${body}.${sign(secret, body).toString('base64url')}`;
}

/**
 * A token for `account`, valid `ttlHours` from `nowMs` (ms since the epoch): what a sign-in and a password
 * change answer.
 */
export function tokenFor(
  secret: string,
  account: { readonly id: string; readonly email: string },
  nowMs: number,
  ttlHours: number,
): string {
  return signToken(secret, {
    sub: account.id,
    email: account.email,
    exp: Math.floor(nowMs / 1000) + ttlHours * 3600,
  });
}

/** Why a token was refused: not ours in shape, signed with another key, or expired. */
export type TokenRefusal = 'malformed' | 'signature' | 'expired';

/**
 * Checks `token` against `secret` at `nowMs`: its claims when it is an HS256 JWT signed with `secret`
 * and not expired, else why not. Only `signature` can mean that the key changed since it was read.
 */
export function checkToken(
  secret: string,
  token: string | undefined,
  nowMs: number,
): { ok: true; claims: TokenClaims } | { ok: false; refusal: TokenRefusal } {
  const refused = (refusal: TokenRefusal) => ({ ok: false, refusal }) as const;
  if (!token || token.length > 4096) return refused('malformed');
  const [head, payload, signature, extra] = token.split('.');
  // Only our own header: no `alg: none`, no algorithm switching.
  if (head !== header || !payload || !signature || extra !== undefined) return refused('malformed');
  const expected = sign(secret, `${head}.${payload}`);
  const actual = Buffer.from(signature, 'base64url');
  if (actual.length !== expected.length) return refused('malformed');
  if (!timingSafeEqual(actual, expected)) return refused('signature');
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<TokenClaims>;
    if (
      typeof claims.sub !== 'string' ||
      typeof claims.email !== 'string' ||
      typeof claims.exp !== 'number'
    ) {
      return refused('malformed');
    }
    return claims.exp * 1000 > nowMs ? { ok: true, claims: claims as TokenClaims } : refused('expired');
  } catch {
    return refused('malformed');
  }
}

/**
 * The claims of `token` when it is an HS256 JWT signed with `secret` and not expired at `nowMs`;
 * undefined for anything else (the widget sends `Bearer undefined`: that is simply anonymous).
 */
export function verifyToken(
  secret: string,
  token: string | undefined,
  nowMs: number,
): TokenClaims | undefined {
  const check = checkToken(secret, token, nowMs);
  return check.ok ? check.claims : undefined;
}

/** The bearer token of an `Authorization` header, if any. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1];
}
