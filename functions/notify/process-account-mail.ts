import type { DeliveryStore } from '../shared/table/delivery-store.js';
import type { StoredOutboxEvent } from '../shared/table/outbox-items.js';
import type { SendAccountMail } from './channels/account-mail-channel.js';
import { isPermanentFailure } from './channels/permanent-failure.js';
import { nextRetryAt } from './delivery-retry.js';

/** What sending one account mail event takes. */
export interface AccountMailProcessing {
  readonly deliveries: DeliveryStore;
  /** Absent without a mail channel: the event is recorded skipped. */
  readonly accountMail: SendAccountMail | undefined;
  readonly now: () => number;
  readonly leaseMs: number;
  readonly retryDelaysMs?: readonly number[];
  /** An error as the table keeps it (process-event.ts `keptError`: addresses blanked out, bounded). */
  readonly keptError: (error: unknown) => string;
}

/** How processing ended (process-event.ts `AccountMailOutcome`). */
export interface AccountMailOutcome {
  readonly final: true;
  readonly state: 'sent' | 'failed' | 'skipped' | 'held elsewhere';
}

/**
 * Sends the one mail of an `account.mail` event (its one delivery, recipient `account`) as every notice is
 * sent: claimed once, recorded sent, skipped (and why) or failed with its next try, and the event finished
 * with it. A failure is retried on the notices' schedule; a permanent refusal is not.
 */
export async function processAccountMail(
  event: StoredOutboxEvent,
  { deliveries, accountMail, now, leaseMs, retryDelaysMs, keptError }: AccountMailProcessing,
): Promise<AccountMailOutcome> {
  const skip = async (lastError: string): Promise<AccountMailOutcome> => {
    await deliveries.finishEvent(event.id, { state: 'skipped', lastError }, now());
    return { final: true, state: 'skipped' };
  };
  if (!event.account) return skip('not an account mail');
  if (!accountMail) return skip('no mail channel');
  const claim = await deliveries.claim(event.id, 'account', {
    at: now(),
    leaseMs,
    byHand: event.byHand === true,
  });
  if (!claim.claimed) {
    if (claim.state === 'sent' || claim.state === 'skipped') {
      await deliveries.finishEvent(event.id, { state: claim.state }, now());
      return { final: true, state: claim.state };
    }
    if (claim.state === 'failed' && (claim.retryAt !== undefined || claim.gaveUp)) {
      return { final: true, state: 'failed' };
    }
    return { final: true, state: 'held elsewhere' };
  }
  try {
    const outcome = await accountMail({ id: event.id, at: event.at, account: event.account });
    if (outcome !== 'sent') {
      await deliveries.record(event.id, 'account', { state: 'skipped', lastError: outcome.skip }, now());
      return skip(outcome.skip);
    }
  } catch (error) {
    const permanent = isPermanentFailure(error);
    const retryAt = permanent ? undefined : nextRetryAt(claim.attempts, now(), retryDelaysMs);
    const lastError = `${keptError(error)}${permanent ? ' (refused for good: not retried)' : ''}`;
    const schedule = retryAt === undefined ? { gaveUp: true } : { retryAt };
    await deliveries.record(
      event.id,
      'account',
      { state: 'failed', lastError, ...(retryAt === undefined ? {} : { retryAt }) },
      now(),
    );
    await deliveries.finishEvent(
      event.id,
      { state: 'failed', lastError: `account: ${lastError}`, ...schedule },
      now(),
    );
    return { final: true, state: 'failed' };
  }
  await deliveries.record(event.id, 'account', { state: 'sent' }, now());
  await deliveries.finishEvent(event.id, { state: 'sent' }, now());
  return { final: true, state: 'sent' };
}
