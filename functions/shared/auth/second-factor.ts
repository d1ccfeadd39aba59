import type { StoredTotp, TotpProof } from '../table/account-totp.js';
import { deriveKey, openSecret } from './secret-box.js';
import { checkTotp, hashRecoveryCode, isTotpCode, normaliseRecoveryCode } from './totp.js';

/** The keys of the second factor, derived from the token key (auth/secret-box.ts). */
export interface SecondFactorKeys {
  /** Seals and opens TOTP secrets. */
  readonly secret: Buffer;
  /** Keys the recovery codes' hashes. */
  readonly recovery: Buffer;
}

/** The second factor's keys derived from `tokenKey`. */
export function secondFactorKeys(tokenKey: string): SecondFactorKeys {
  return { secret: deriveKey(tokenKey, 'totp-secret'), recovery: deriveKey(tokenKey, 'recovery-code') };
}

/** What a code typed at sign-in (or to turn TOTP off) proves, before it is spent in a conditional write. */
export type SecondFactorProof =
  | { readonly ok: true; readonly proof: TotpProof }
  /**
   * `wrong`: no code of the window, or no recovery code of the account; `reused`: a code of a step already
   * accepted; `unreadable`: the stored secret does not open (the token key changed since it was sealed).
   */
  | { readonly ok: false; readonly reason: 'wrong' | 'reused' | 'unreadable' };

/** Longest recovery code accepted as typed (12 characters, dashes and spaces around them). */
export const maxSecondFactorCodeChars = 32;

/**
 * What `code` proves for the account `accountId` whose second factor is `stored` (TOTP on), at `now`. A six-digit
 * code is a TOTP code of its window and must be of a step later than the last accepted one; anything else is a
 * recovery code, proven only by its hash being among the account's (the conditional write that removes it is
 * what makes it single use). Nothing is written here.
 */
export function proveSecondFactor(
  keys: SecondFactorKeys,
  accountId: string,
  stored: Pick<StoredTotp, 'secret' | 'lastStep' | 'recoveryHashes'>,
  code: string,
  now: number,
): SecondFactorProof {
  if (!stored.secret) return { ok: false, reason: 'wrong' };
  const typed = code.trim();
  if (isTotpCode(typed)) {
    const secret = openSecret(keys.secret, accountId, stored.secret);
    if (secret === undefined) return { ok: false, reason: 'unreadable' };
    const check = checkTotp(secret, typed, now, stored.lastStep);
    return check.ok ? { ok: true, proof: { step: check.step } } : check;
  }
  if (normaliseRecoveryCode(typed).length === 0) return { ok: false, reason: 'wrong' };
  const hash = hashRecoveryCode(keys.recovery, accountId, typed);
  return stored.recoveryHashes.includes(hash)
    ? { ok: true, proof: { recoveryHash: hash } }
    : { ok: false, reason: 'wrong' };
}
