import { admitAttempt, clientNetwork, signInLimits } from '../shared/auth/sign-in-guard.js';
import type { Config } from '../shared/config.js';
import type { AccountFailures } from '../shared/domain/account-failures.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { type Lang, translate } from '../shared/domain/messages.js';
import { normalizeAddress } from '../shared/domain/normalize-address.js';
import type { ApiRequest } from '../shared/http/request.js';
import type { SignInRecords } from '../shared/table/sign-in-records.js';

/** How often an attempt that raced another one on the same account reads the account's record again. */
const accountRaceAttempts = 3;

/**
 * The keyed hash an address's sign-in failures are kept under: keyed like IPs (the table keeps no address typed
 * into a form), normalised as accounts are (one account's lock, however its address is spelt).
 */
export function accountHashOf(salt: string, email: string): string {
  return hashIp(salt, `account:${normalizeAddress(email)}`);
}

/** The 429 of a locked account or IP, saying in how many minutes to try again. */
export function tooManySignIns(lang: Lang, time: number, retryAt: number): AppError {
  return new AppError(
    'rate_limited',
    translate(lang, 'tooManySignIns', { minutes: Math.max(1, Math.ceil((retryAt - time) / 60_000)) }),
  );
}

/**
 * Counts one attempt against the account's lock (auth/sign-in-guard.ts) before anything is hashed, or throws its
 * 429 while the account is locked. `failures` is the record as read; a count that raced another is decided again
 * on the record as it then is.
 */
export async function admitAccountAttempt(
  signInRecords: Pick<SignInRecords, 'signInRecord' | 'countAccountAttempt'>,
  hashes: { readonly accountHash: string; readonly networkHash: string },
  failures: AccountFailures | undefined,
  time: number,
  lang: Lang,
): Promise<void> {
  let current = failures;
  for (let race = 1; ; race++) {
    const decision = admitAttempt(current, time);
    if (!decision.admitted) throw tooManySignIns(lang, time, decision.retryAt);
    const expiresAt = Math.ceil((time + signInLimits.memoryMs) / 1000);
    if (await signInRecords.countAccountAttempt(hashes.accountHash, current, decision.next, expiresAt))
      return;
    // Another attempt on this account was counted meanwhile: decide again on the record as it is.
    if (race >= accountRaceAttempts) throw tooManySignIns(lang, time, time + signInLimits.firstLockMs);
    current = (await signInRecords.signInRecord(hashes.accountHash, hashes.networkHash)).failures;
  }
}

/**
 * The account lock for a signed-in account's own checks of its password and second factor (turning TOTP off:
 * two-factor.ts): the sign-in's lock, so guesses there and here share one budget. No network is exempt here.
 */
export function createAccountAttempts({
  signInRecords,
  config,
  now,
}: {
  readonly signInRecords: SignInRecords;
  readonly config: Pick<Config, 'IP_HASH_SALT'>;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}): {
  readonly admit: (email: string, request: ApiRequest) => Promise<void>;
  readonly succeeded: (email: string, request: ApiRequest) => Promise<void>;
} {
  const hashesOf = (email: string, request: ApiRequest) => ({
    accountHash: accountHashOf(config.IP_HASH_SALT, email),
    networkHash: hashIp(config.IP_HASH_SALT, clientNetwork(request.sourceIp)),
  });
  return {
    async admit(email, request) {
      const hashes = hashesOf(email, request);
      const record = await signInRecords.signInRecord(hashes.accountHash, hashes.networkHash);
      await admitAccountAttempt(signInRecords, hashes, record.failures, now(), request.lang);
    },
    async succeeded(email, request) {
      const hashes = hashesOf(email, request);
      const knownUntil = Math.ceil((now() + signInLimits.knownNetworkMs) / 1000);
      await signInRecords.signedIn(hashes.accountHash, hashes.networkHash, knownUntil);
    },
  };
}
