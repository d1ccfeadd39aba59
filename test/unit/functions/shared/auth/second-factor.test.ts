import { describe, expect, it } from 'vitest';
import { proveSecondFactor, secondFactorKeys } from '../../../../../functions/shared/auth/second-factor.js';
import { sealSecret } from '../../../../../functions/shared/auth/secret-box.js';
import { hashRecoveryCode, totpCodeAt, totpStep } from '../../../../../functions/shared/auth/totp.js';

const keys = secondFactorKeys('token key');
const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const now = Date.UTC(2026, 10, 29, 12);
const step = totpStep(now);
const stored = {
  secret: sealSecret(keys.secret, 'A1', secret),
  lastStep: step - 1,
  recoveryHashes: [hashRecoveryCode(keys.recovery, 'A1', 'abcd-efgh-jkmn')],
};

describe('proveSecondFactor', () => {
  it('proves a TOTP code by its step, later than the last accepted one', () => {
    expect(proveSecondFactor(keys, 'A1', stored, ` ${totpCodeAt(secret, step)} `, now)).toEqual({
      ok: true,
      proof: { step },
    });
    expect(proveSecondFactor(keys, 'A1', stored, totpCodeAt(secret, step - 1), now)).toEqual({
      ok: false,
      reason: 'reused',
    });
  });

  it('proves a recovery code of the account, as typed, by its hash', () => {
    expect(proveSecondFactor(keys, 'A1', stored, 'ABCD-EFGH-JKMN', now)).toEqual({
      ok: true,
      proof: { recoveryHash: stored.recoveryHashes[0] },
    });
    expect(proveSecondFactor(keys, 'A1', stored, 'abcd-efgh-jkmp', now)).toEqual({
      ok: false,
      reason: 'wrong',
    });
    expect(proveSecondFactor(keys, 'A1', stored, ' - ', now)).toEqual({ ok: false, reason: 'wrong' });
  });

  it('proves nothing without a secret, and says when the sealed secret no longer opens', () => {
    const code = totpCodeAt(secret, step);

    expect(proveSecondFactor(keys, 'A1', { ...stored, secret: undefined }, code, now)).toEqual({
      ok: false,
      reason: 'wrong',
    });
    expect(proveSecondFactor(secondFactorKeys('rotated key'), 'A1', stored, code, now)).toEqual({
      ok: false,
      reason: 'unreadable',
    });
    expect(proveSecondFactor(keys, 'A2', stored, code, now)).toEqual({ ok: false, reason: 'unreadable' });
  });
});
