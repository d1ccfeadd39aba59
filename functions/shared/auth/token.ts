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
 * The claims of `token` when it is an HS256 JWT signed with `secret` and not expired at `nowMs`;
 * undefined for anything else (the widget sends `Bearer undefined`: that is simply anonymous).
 */
export function verifyToken(
  secret: string,
  token: string | undefined,
  nowMs: number,
): TokenClaims | undefined {
  if (!token || token.length > 4096) return undefined;
  const [head, payload, signature, extra] = token.split('.');
  // Only our own header: no `alg: none`, no algorithm switching.
  if (head !== header || !payload || !signature || extra !== undefined) return undefined;
  const expected = sign(secret, `${head}.${payload}`);
  const actual = Buffer.from(signature, 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<TokenClaims>;
    if (
      typeof claims.sub !== 'string' ||
      typeof claims.email !== 'string' ||
      typeof claims.exp !== 'number'
    ) {
      return undefined;
    }
    return claims.exp * 1000 > nowMs ? (claims as TokenClaims) : undefined;
  } catch {
    return undefined;
  }
}

/** The bearer token of an `Authorization` header, if any. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1];
}
