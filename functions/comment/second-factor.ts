import type { Account } from '../shared/domain/account.js';
import { AppError } from '../shared/domain/errors.js';
import { type Lang, translate } from '../shared/domain/messages.js';

/**
 * The second factor of a sign-in, asked after the password was found right (sign-in.ts). `code` is the
 * body's `code`: 6 to 8 digits of the account's authenticator app, or one of its recovery codes.
 *
 * THE HOOK for TOTP (issue 27): until the TOTP check lands here, an account with a second factor cannot
 * sign in at all (no code: "a code is required"; a code: refused the same way, since nothing can check it).
 * An account without one passes.
 */
export type CheckSecondFactor = (account: Account, code: string | undefined, lang: Lang) => Promise<void>;

/** The check in force: refuses every sign-in of an account that has a second factor (see above). */
export const checkSecondFactor: CheckSecondFactor = async (account, _code, lang) => {
  if (account.totp)
    throw new AppError('forbidden', translate(lang, 'secondFactorRequired'), { code: 'required' });
};
