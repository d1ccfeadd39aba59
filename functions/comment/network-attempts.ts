import { clientNetwork } from '../shared/auth/sign-in-guard.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { type Lang, type MessageKey, translate } from '../shared/domain/messages.js';
import type { AccountLimits } from '../shared/table/account-limits.js';

/** The window the account routes count a network's attempts in. */
const windowMs = 60 * 60 * 1000;

/**
 * Counts one registration, reset request, single sign-on exchange or data request from the request's network (an
 * IPv6 /64, as a keyed hash) in this hour, and refuses it with a 429 (`tooMany`, with the minutes left) past
 * `perWindow`. Called before anything costly: no address is looked up, no password hashed, no signature verified.
 */
export async function admitNetworkAttempt(
  limits: Pick<AccountLimits, 'countAttempt'>,
  attempt: {
    readonly action: 'register' | 'reset' | 'sso' | 'my-data';
    readonly salt: string;
    readonly sourceIp: string;
    readonly lang: Lang;
    readonly time: number;
    readonly perWindow: number;
    readonly tooMany: MessageKey;
  },
): Promise<void> {
  const { time } = attempt;
  const window = Math.floor(time / windowMs);
  const networkHash = hashIp(attempt.salt, clientNetwork(attempt.sourceIp));
  const expiresAt = Math.ceil(((window + 2) * windowMs) / 1000);
  if ((await limits.countAttempt(attempt.action, networkHash, window, expiresAt)) > attempt.perWindow) {
    const minutes = Math.max(1, Math.ceil(((window + 1) * windowMs - time) / 60_000));
    throw new AppError('rate_limited', translate(attempt.lang, attempt.tooMany, { minutes }));
  }
}
