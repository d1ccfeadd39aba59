import { describe, expect, it } from 'vitest';
import {
  checkTotp,
  hashRecoveryCode,
  isTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  normaliseRecoveryCode,
  otpauthUrl,
  totpCodeAt,
  totpStep,
} from '../../../../../functions/shared/auth/totp.js';

/** RFC 6238 appendix B's SHA-1 key, the ASCII "12345678901234567890", in base32. */
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
/** RFC 6238 appendix B, SHA-1: the time (s) and the last 6 of its 8 digits (the same truncation, mod 10^6). */
const rfcVectors = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
  [20000000000, '353130'],
] as const;

describe('checkTotp', () => {
  it.each(rfcVectors)('accepts the RFC 6238 code of %i s with its step', (seconds, code) => {
    expect(checkTotp(rfcSecret, code, seconds * 1000, -1)).toEqual({
      ok: true,
      step: totpStep(seconds * 1000),
    });
    expect(totpCodeAt(rfcSecret, totpStep(seconds * 1000))).toBe(code);
  });

  it('accepts a code one step either side of now and names its own step', () => {
    const now = 1111111111_000;
    const step = totpStep(now);

    expect(checkTotp(rfcSecret, totpCodeAt(rfcSecret, step - 1), now, -1)).toEqual({
      ok: true,
      step: step - 1,
    });
    expect(checkTotp(rfcSecret, totpCodeAt(rfcSecret, step + 1), now, -1)).toEqual({
      ok: true,
      step: step + 1,
    });
  });

  it('refuses a code two steps away as wrong', () => {
    const now = 1111111111_000;
    const step = totpStep(now);

    expect(checkTotp(rfcSecret, totpCodeAt(rfcSecret, step - 2), now, -1)).toEqual({
      ok: false,
      reason: 'wrong',
    });
    expect(checkTotp(rfcSecret, totpCodeAt(rfcSecret, step + 2), now, -1)).toEqual({
      ok: false,
      reason: 'wrong',
    });
  });

  it('refuses a right code of a step not later than the last accepted one as reused', () => {
    const now = 1111111111_000;
    const step = totpStep(now);
    const code = totpCodeAt(rfcSecret, step);

    expect(checkTotp(rfcSecret, code, now, step)).toEqual({ ok: false, reason: 'reused' });
    expect(checkTotp(rfcSecret, totpCodeAt(rfcSecret, step - 1), now, step - 1)).toEqual({
      ok: false,
      reason: 'reused',
    });
    expect(checkTotp(rfcSecret, code, now, step - 1)).toEqual({ ok: true, step });
  });

  it('refuses a wrong code and anything that is not six digits', () => {
    expect(checkTotp(rfcSecret, '000000', 59_000, -1)).toEqual({ ok: false, reason: 'wrong' });
    expect(checkTotp(rfcSecret, '2870820', 59_000, -1)).toEqual({ ok: false, reason: 'wrong' });
    expect(checkTotp(rfcSecret, '28708', 59_000, -1)).toEqual({ ok: false, reason: 'wrong' });
    expect(isTotpCode('287082')).toBe(true);
    expect(isTotpCode('abcd-efgh-jkmn')).toBe(false);
  });
});

describe('newTotpSecret and otpauthUrl', () => {
  it('makes a fresh 20-byte base32 secret each time, which its own codes verify', () => {
    const secret = newTotpSecret();

    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    expect(checkTotp(secret, totpCodeAt(secret, totpStep(Date.now())), Date.now(), -1).ok).toBe(true);
  });

  it('names the site and the account in the URL an authenticator reads', () => {
    const url = new URL(otpauthUrl(rfcSecret, 'My Blog', 'ann@example.com'));

    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/My Blog:ann@example.com');
    expect(url.searchParams.get('secret')).toBe(rfcSecret);
    expect(url.searchParams.get('issuer')).toBe('My Blog');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
  });
});

describe('recovery codes', () => {
  const key = Buffer.alloc(32, 7);

  it('makes ten distinct codes of 12 unambiguous characters in groups of four', () => {
    const codes = newRecoveryCodes();

    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes)
      expect(code).toMatch(/^[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/);
  });

  it('hashes a code as typed, in any case, with or without dashes and spaces, to one hash', () => {
    const hash = hashRecoveryCode(key, 'A1', 'abcd-efgh-jkmn');

    expect(normaliseRecoveryCode(' ABCD efgh-JKMN ')).toBe('abcdefghjkmn');
    expect(hashRecoveryCode(key, 'A1', 'ABCD EFGH JKMN')).toBe(hash);
    expect(hash).toMatch(/^[\w-]{43}$/);
    expect(hash).not.toContain('abcd');
  });

  it('hashes under the key and the account: another of either gives another hash', () => {
    const hash = hashRecoveryCode(key, 'A1', 'abcd-efgh-jkmn');

    expect(hashRecoveryCode(key, 'A2', 'abcd-efgh-jkmn')).not.toBe(hash);
    expect(hashRecoveryCode(Buffer.alloc(32, 8), 'A1', 'abcd-efgh-jkmn')).not.toBe(hash);
    expect(hashRecoveryCode(key, 'A1', 'abcd-efgh-jkmp')).not.toBe(hash);
  });
});
