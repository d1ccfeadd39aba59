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

describe('signToken and verifyToken', () => {
  it('returns the claims when the token is ours and not expired', () => {
    expect(verifyToken(secret, signToken(secret, claims), now)).toEqual(claims);
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
