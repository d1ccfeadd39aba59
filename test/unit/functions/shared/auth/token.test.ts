import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  checkToken,
  signToken,
  verifyToken,
} from '../../../../../functions/shared/auth/token.js';

const secret = 'k'.repeat(32);
const now = 1_800_000_000_000;
const claims = { sub: '01ADMIN', email: 'admin@example.com', exp: now / 1000 + 60 };

/**
 * A token as issued so far, for `claims` and `secret`: whatever signs and checks tokens, the tokens
 * administrators already hold must keep verifying (same header, claims and key use).
 */
const issuedToken =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwMUFETUlOIiwiZW1haWwiOiJhZG1pbkBleGFtcGxlLmNvbSIsImV4cCI6MTgwMDAwMDA2MH0.Pug8qebTmwKQ1rmtVpALJuWLoJOBbAXLfRSdx7tof7Q';

describe('signToken and verifyToken', () => {
  it('returns the claims when the token is ours and not expired', () => {
    expect(verifyToken(secret, signToken(secret, claims), now)).toEqual(claims);
  });

  it('accepts a token issued before, and signs the same claims into the same token', () => {
    expect(checkToken(secret, issuedToken, now)).toEqual({ ok: true, claims });
    expect(signToken(secret, claims)).toBe(issuedToken);
  });

  it('refuses a token signed with our key under another HMAC algorithm', () => {
    const body = `${Buffer.from('{"alg":"HS384","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const signature = createHmac('sha384', secret).update(body).digest('base64url');

    expect(checkToken(secret, `${body}.${signature}`, now)).toEqual({ ok: false, refusal: 'malformed' });
    // Cut to the length of an HS256 signature, it is still not ours.
    expect(checkToken(secret, `${body}.${signature.slice(0, 43)}`, now)).toEqual({
      ok: false,
      refusal: 'malformed',
    });
  });

  it('refuses a token when it is expired, signed with another key, or altered', () => {
    const token = signToken(secret, claims);
    const [head, , signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'someone' })).toString('base64url');

    expect(verifyToken(secret, token, now + 61_000)).toBeUndefined();
    expect(verifyToken('x'.repeat(32), token, now)).toBeUndefined();
    expect(verifyToken(secret, `${head}.${forgedPayload}.${signature}`, now)).toBeUndefined();
  });

  it('refuses alg none and other headers even when correctly signed', () => {
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    const otherHeader = Buffer.from('{"alg":"HS256"}').toString('base64url');
    const body = `${otherHeader}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const signed = `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;

    expect(verifyToken(secret, none, now)).toBeUndefined();
    expect(verifyToken(secret, signed, now)).toBeUndefined();
  });

  it('treats garbage and the widget literal "undefined" as no token', () => {
    for (const garbage of [undefined, '', 'undefined', 'a.b.c', 'a.b.c.d', 'x'.repeat(5000)]) {
      expect(verifyToken(secret, garbage, now)).toBeUndefined();
    }
  });
});

describe('bearerToken', () => {
  it('reads the token of a Bearer header and nothing else', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('checkToken', () => {
  it('names why a token is refused: another key, expiry, or a shape that is not ours', () => {
    const token = signToken(secret, claims);

    expect(checkToken(secret, token, now)).toEqual({ ok: true, claims });
    expect(checkToken('x'.repeat(32), token, now)).toEqual({ ok: false, refusal: 'signature' });
    expect(checkToken(secret, token, now + 61_000)).toEqual({ ok: false, refusal: 'expired' });
    expect(checkToken(secret, 'a.b.c', now)).toEqual({ ok: false, refusal: 'malformed' });
    expect(checkToken(secret, undefined, now)).toEqual({ ok: false, refusal: 'malformed' });
  });
});

describe('what a token must be, to the letter', () => {
  const token = signToken(secret, claims);
  /** A token over `payload` (any text), correctly signed with `secret` under our header. */
  const signedPayload = (payload: string) => {
    const [head] = token.split('.');
    const body = `${head}.${Buffer.from(payload).toString('base64url')}`;
    return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
  };

  it('is a standard HS256 JWT: its header decodes to exactly {alg, typ}', () => {
    const [head] = token.split('.');
    expect(JSON.parse(Buffer.from(head ?? '', 'base64url').toString('utf8'))).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
  });

  it('is valid until the millisecond before its expiry, and not at that instant', () => {
    expect(checkToken(secret, token, claims.exp * 1000 - 1)).toEqual({ ok: true, claims });
    expect(checkToken(secret, token, claims.exp * 1000)).toEqual({ ok: false, refusal: 'expired' });
  });

  it('refuses a truncated signature as malformed, without throwing', () => {
    expect(() => checkToken(secret, token.slice(0, -4), now)).not.toThrow();
    expect(checkToken(secret, token.slice(0, -4), now)).toEqual({ ok: false, refusal: 'malformed' });
    expect(verifyToken(secret, token.slice(0, -4), now)).toBeUndefined();
  });

  it('refuses a valid token with a fourth segment', () => {
    expect(checkToken(secret, `${token}.x`, now)).toEqual({ ok: false, refusal: 'malformed' });
    expect(checkToken(secret, `${token}.`, now)).toEqual({ ok: false, refusal: 'malformed' });
  });

  it('refuses a correctly signed token longer than 4096 characters before checking it', () => {
    const long = signToken(secret, { ...claims, email: 'e'.repeat(5000) });
    // The longest email whose token still fits: base64 grows in steps, so search for exactly 4096.
    const padded = Array.from({ length: 3100 }, (_, n) =>
      signToken(secret, { ...claims, email: 'e'.repeat(n) }),
    ).find((candidate) => candidate.length === 4096);

    expect(checkToken(secret, long, now)).toEqual({ ok: false, refusal: 'malformed' });
    // The cap itself is allowed: 4096 characters exactly.
    expect(padded).toHaveLength(4096);
    expect(checkToken(secret, padded, now)).toMatchObject({ ok: true });
  });

  it('refuses correctly signed payloads whose claims are missing, mistyped or not JSON', () => {
    for (const payload of [
      JSON.stringify({ email: claims.email, exp: claims.exp }),
      JSON.stringify({ sub: 1, email: claims.email, exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, email: ['a'], exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, email: claims.email }),
      JSON.stringify({ sub: claims.sub, email: claims.email, exp: String(claims.exp) }),
      'not json',
    ]) {
      expect(checkToken(secret, signedPayload(payload), now), payload).toEqual({
        ok: false,
        refusal: 'malformed',
      });
    }
    // The control: the same construction with good claims passes.
    expect(checkToken(secret, signedPayload(JSON.stringify(claims)), now)).toEqual({ ok: true, claims });
  });

  it('reads only a whole "Bearer <token>" header', () => {
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('xBearer a')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Bearer  a')).toBe('a');
    expect(bearerToken('BEARER a')).toBe('a');
  });
});
