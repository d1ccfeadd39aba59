import { describe, expect, it } from 'vitest';
import { createSecondFactorCheck } from '../../../../functions/comment/second-factor.js';
import { secondFactorKeys } from '../../../../functions/shared/auth/second-factor.js';
import { sealSecret } from '../../../../functions/shared/auth/secret-box.js';
import { hashRecoveryCode, totpCodeAt, totpStep } from '../../../../functions/shared/auth/totp.js';
import type { Account } from '../../../../functions/shared/domain/account.js';
import type { AppError } from '../../../../functions/shared/domain/errors.js';
import { createFakeAccountTotpStore } from '../../../support/fake-account-totp.js';

const tokenKey = 'k'.repeat(32);
const keys = secondFactorKeys(tokenKey);
const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const now = Date.UTC(2026, 10, 29, 12);
const step = totpStep(now);

function check() {
  const store = createFakeAccountTotpStore();
  store.accounts.set('A1', {
    secret: sealSecret(keys.secret, 'A1', secret),
    lastStep: step - 2,
    recoveryHashes: [hashRecoveryCode(keys.recovery, 'A1', 'abcd-efgh-jkmn')],
    sessionVersion: 1,
  });
  const reads = { count: 0 };
  const counted = { ...store, read: async (id: string) => ((reads.count += 1), store.read(id)) };
  const checkSecondFactor = createSecondFactorCheck({
    totp: counted,
    tokenSecret: async () => tokenKey,
    now: () => now,
  });
  const withTotp = { id: 'A1', totp: { secret: 'sealed', lastStep: 0, recoveryHashes: [] } };
  /** Why the check refused, or 'passed'. */
  const outcome = (code: string | undefined, account: Pick<Account, 'id' | 'totp'> = withTotp) =>
    checkSecondFactor(account, code, 'en').then(
      () => 'passed',
      (error: AppError) => `${error.status} ${error.details?.code}`,
    );
  return { store, reads, outcome };
}

describe('createSecondFactorCheck', () => {
  it('passes an account without TOTP without reading anything', async () => {
    const { outcome, reads } = check();

    expect(await outcome(undefined, { id: 'A2' })).toBe('passed');
    expect(reads.count).toBe(0);
  });

  it('asks for a code when TOTP is on and none was sent', async () => {
    const { outcome } = check();

    expect(await outcome(undefined)).toBe('401 required');
    expect(await outcome('  ')).toBe('401 required');
  });

  it('passes a fresh code once, and refuses it and any earlier one afterwards', async () => {
    const { outcome, store } = check();

    expect(await outcome(totpCodeAt(secret, step))).toBe('passed');
    expect(store.accounts.get('A1')?.lastStep).toBe(step);
    expect(await outcome(totpCodeAt(secret, step))).toBe('401 wrong');
    expect(await outcome(totpCodeAt(secret, step - 1))).toBe('401 wrong');
    expect(await outcome('000000')).toBe('401 wrong');
  });

  it('lets only one of two sign-ins racing with one code pass', async () => {
    const { outcome } = check();
    const code = totpCodeAt(secret, step);

    expect((await Promise.all([outcome(code), outcome(code)])).sort()).toEqual(['401 wrong', 'passed']);
  });

  it('passes a recovery code once, and removes it', async () => {
    const { outcome, store } = check();

    expect(await outcome('ABCD-EFGH-JKMN')).toBe('passed');
    expect(store.accounts.get('A1')?.recoveryHashes).toEqual([]);
    expect(await outcome('abcd-efgh-jkmn')).toBe('401 wrong');
  });
});
