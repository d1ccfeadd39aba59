import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  checkToken,
  signToken,
  tokenFor,
  verifyToken,
} from '../../../../../functions/shared/auth/token.js';

const secret = 'k'.repeat(32);
const now = 1_800_000_000_000;
const claims = { sub: '01ADMIN', ver: 3, exp: now / 1000 + 60 };
/** What an administrator's token said before accounts, and what it reads as now (version 0). */
const legacyClaims = { sub: '01ADMIN', email: 'admin@example.com', exp: now / 1000 + 60 };
const legacyRead = { sub: '01ADMIN', ver: 0, exp: now / 1000 + 60 };

/**
 * A token signed before jose, by the hand-written signer (its header, `JSON.stringify` of the claims,
 * HMAC-SHA256 keyed with the secret's UTF-8), for `legacyClaims` and `secret`: the tokens administrators
 * already hold must keep verifying, as session version 0.
 */
const issuedToken =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwMUFETUlOIiwiZW1haWwiOiJhZG1pbkBleGFtcGxlLmNvbSIsImV4cCI6MTgwMDAwMDA2MH0.Pug8qebTmwKQ1rmtVpALJuWLoJOBbAXLfRSdx7tof7Q';

describe('signToken and verifyToken', () => {
  it('returns the claims when the token is ours and not expired', async () => {
    expect(await verifyToken(secret, await signToken(secret, claims), now)).toEqual(claims);
  });

  it('accepts a token issued before accounts as version 0, and signs the same claims into the same token', async () => {
    expect(await checkToken(secret, issuedToken, now)).toEqual({ ok: true, claims: legacyRead });
    expect(await signToken(secret, legacyClaims)).toBe(issuedToken);
  });

  it('reads the version a token carries over an email beside it', async () => {
    const both = await signToken(secret, { ...legacyClaims, ver: 2 } as typeof claims);
    expect(await checkToken(secret, both, now)).toEqual({ ok: true, claims: { ...legacyRead, ver: 2 } });
  });

  it('refuses a token signed with our key under another HMAC algorithm', async () => {
    const body = `${Buffer.from('{"alg":"HS384","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const signature = createHmac('sha384', secret).update(body).digest('base64url');

    expect(await checkToken(secret, `${body}.${signature}`, now)).toEqual({
      ok: false,
      refusal: 'malformed',
    });
    // Cut to an HS256 signature's length, so that only its algorithm can refuse it: still not ours.
    expect(await checkToken(secret, `${body}.${signature.slice(0, 43)}`, now)).toEqual({
      ok: false,
      refusal: 'malformed',
    });
  });

  it('refuses a token when it is expired, signed with another key, or altered', async () => {
    const token = await signToken(secret, claims);
    const [head, , signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'someone' })).toString('base64url');

    expect(await verifyToken(secret, token, now + 61_000)).toBeUndefined();
    expect(await verifyToken('x'.repeat(32), token, now)).toBeUndefined();
    expect(await verifyToken(secret, `${head}.${forgedPayload}.${signature}`, now)).toBeUndefined();
  });

  it('refuses alg none and other headers even when correctly signed', async () => {
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    const otherHeader = Buffer.from('{"alg":"HS256"}').toString('base64url');
    const body = `${otherHeader}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const signed = `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;

    expect(await verifyToken(secret, none, now)).toBeUndefined();
    expect(await verifyToken(secret, signed, now)).toBeUndefined();
  });

  it('treats garbage and the widget literal "undefined" as no token', async () => {
    for (const garbage of [undefined, '', 'undefined', 'a.b.c', 'a.b.c.d', 'x'.repeat(5000)]) {
      expect(await verifyToken(secret, garbage, now)).toBeUndefined();
    }
  });
});

describe('tokenFor', () => {
  it('signs the account for ttlHours from the second nowMs falls in', async () => {
    const token = await tokenFor(secret, { id: claims.sub, sessionVersion: 7 }, now + 999, 2);

    expect(await checkToken(secret, token, now)).toEqual({
      ok: true,
      claims: { sub: claims.sub, ver: 7, exp: now / 1000 + 7200 },
    });
    // Exactly these claims: no address travels in a token any more.
    const [, payload] = token.split('.');
    expect(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'))).toEqual({
      sub: claims.sub,
      ver: 7,
      exp: now / 1000 + 7200,
    });
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
  it('names why a token is refused: another key, expiry, or a shape that is not ours', async () => {
    const token = await signToken(secret, claims);

    expect(await checkToken(secret, token, now)).toEqual({ ok: true, claims });
    expect(await checkToken('x'.repeat(32), token, now)).toEqual({ ok: false, refusal: 'signature' });
    expect(await checkToken(secret, token, now + 61_000)).toEqual({ ok: false, refusal: 'expired' });
    expect(await checkToken(secret, 'a.b.c', now)).toEqual({ ok: false, refusal: 'malformed' });
    expect(await checkToken(secret, undefined, now)).toEqual({ ok: false, refusal: 'malformed' });
  });
});

describe('what a token must be, to the letter', () => {
  const token = issuedToken;
  /** A token over `payload` (any text), correctly signed with `secret` under our header. */
  const signedPayload = (payload: string) => {
    const [head] = token.split('.');
    const body = `${head}.${Buffer.from(payload).toString('base64url')}`;
    return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
  };

  it('is a standard HS256 JWT: its header decodes to exactly {alg, typ}', async () => {
    const [head] = (await signToken(secret, claims)).split('.');
    expect(JSON.parse(Buffer.from(head ?? '', 'base64url').toString('utf8'))).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
  });

  it('is valid until the millisecond before its expiry, and not at that instant', async () => {
    expect(await checkToken(secret, token, claims.exp * 1000 - 1)).toEqual({ ok: true, claims: legacyRead });
    expect(await checkToken(secret, token, claims.exp * 1000)).toEqual({ ok: false, refusal: 'expired' });
  });

  it('refuses a truncated signature as malformed, without throwing', async () => {
    await expect(checkToken(secret, token.slice(0, -4), now)).resolves.toEqual({
      ok: false,
      refusal: 'malformed',
    });
    expect(await verifyToken(secret, token.slice(0, -4), now)).toBeUndefined();
  });

  it('refuses a valid token with a fourth segment', async () => {
    expect(await checkToken(secret, `${token}.x`, now)).toEqual({ ok: false, refusal: 'malformed' });
    expect(await checkToken(secret, `${token}.`, now)).toEqual({ ok: false, refusal: 'malformed' });
  });

  it('refuses a correctly signed token longer than 4096 characters before checking it', async () => {
    const long = await signToken(secret, { ...legacyClaims, email: 'e'.repeat(5000) });
    // The longest email whose token still fits: base64 grows in steps, so search for exactly 4096.
    const candidates = await Promise.all(
      Array.from({ length: 3100 }, (_, n) => signToken(secret, { ...legacyClaims, email: 'e'.repeat(n) })),
    );
    const padded = candidates.find((candidate) => candidate.length === 4096);

    expect(await checkToken(secret, long, now)).toEqual({ ok: false, refusal: 'malformed' });
    // The cap itself is allowed: 4096 characters exactly.
    expect(padded).toHaveLength(4096);
    expect(await checkToken(secret, padded, now)).toMatchObject({ ok: true });
  });

  it('refuses correctly signed payloads whose claims are missing, mistyped or not JSON', async () => {
    for (const payload of [
      JSON.stringify({ email: legacyClaims.email, exp: claims.exp }),
      JSON.stringify({ sub: 1, email: legacyClaims.email, exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, email: ['a'], exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, email: legacyClaims.email }),
      JSON.stringify({ sub: claims.sub, email: legacyClaims.email, exp: String(claims.exp) }),
      JSON.stringify({ ver: 1, exp: claims.exp }),
      JSON.stringify({ sub: 1, ver: 1, exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, ver: 1 }),
      JSON.stringify({ sub: claims.sub, ver: -1, exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, ver: 1.5, exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, ver: '1', exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, ver: null, exp: claims.exp }),
      JSON.stringify({ sub: claims.sub, ver: 2 ** 53, exp: claims.exp }),
      'not json',
    ]) {
      expect(await checkToken(secret, signedPayload(payload), now), payload).toEqual({
        ok: false,
        refusal: 'malformed',
      });
    }
    // The controls: the same construction with good claims passes, version 0 included.
    expect(await checkToken(secret, signedPayload(JSON.stringify(claims)), now)).toEqual({
      ok: true,
      claims,
    });
    expect(await checkToken(secret, signedPayload(JSON.stringify({ ...claims, ver: 0 })), now)).toEqual({
      ok: true,
      claims: { ...claims, ver: 0 },
    });
  });

  it('reads only a whole "Bearer <token>" header', () => {
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('xBearer a')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Bearer  a')).toBe('a');
    expect(bearerToken('BEARER a')).toBe('a');
  });
});
