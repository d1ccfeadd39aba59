import { proveSecondFactor, secondFactorKeys } from '../shared/auth/second-factor.js';
import { logError } from '../shared/log.js';
import type { Account } from '../shared/domain/account.js';
import { AppError } from '../shared/domain/errors.js';
import { type Lang, translate } from '../shared/domain/messages.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { AccountTotpStore } from '../shared/table/account-totp.js';

/**
 * The sign-in's second step (sign-in.ts), after the right password: nothing for an account without TOTP; for one
 * with it, `code` must be a TOTP code of a step later than the last accepted one, or one of its recovery codes,
 * and is spent by a conditional write (table/account-totp.ts) so that two sign-ins racing with one code cannot
 * both pass. Throws a 401 whose `details.code` is `required` (no code: the login page then asks for one) or
 * `wrong`. The attempt was counted against the account's lock before the password was checked, and only a
 * success clears it: a wrong code costs what a wrong password costs.
 */
export type CheckSecondFactor = (
  account: Pick<Account, 'id' | 'totp'>,
  code: string | undefined,
  lang: Lang,
) => Promise<void>;

/** Builds the sign-in's second-factor check. */
export function createSecondFactorCheck({
  totp,
  tokenSecret,
  now,
}: {
  readonly totp: Pick<AccountTotpStore, 'read' | 'spend'>;
  /** The key that signs tokens: the second factor's keys are derived from it. */
  readonly tokenSecret: SecretSource;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}): CheckSecondFactor {
  return async (account, code, lang) => {
    if (!account.totp) return;
    if (code === undefined || code.trim() === '') {
      throw new AppError('unauthorized', translate(lang, 'secondFactorRequired'), { code: 'required' });
    }
    const wrong = () => new AppError('unauthorized', translate(lang, 'wrongSecondFactor'), { code: 'wrong' });
    // Read again, consistently: the last step and the recovery codes another sign-in may have just spent.
    const [stored, secret] = await Promise.all([totp.read(account.id), tokenSecret()]);
    if (!stored?.secret || !secret) throw wrong();
    const proof = proveSecondFactor(secondFactorKeys(secret), account.id, stored, code, now());
    if (!proof.ok) {
      // Sealed under another token key (JWT_TOKEN changed): neither it nor the recovery codes work any more, and
      // the account cannot sign in until its TOTP attributes are removed. The operator should hear of it.
      if (proof.reason === 'unreadable') logError('TOTP secret does not open: was the token key changed?');
      throw wrong();
    }
    if (!(await totp.spend(account.id, stored.secret, proof.proof))) throw wrong();
  };
}
