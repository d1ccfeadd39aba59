import type { NotificationCause, OutboxState, OutboxSubject } from './outbox-event.js';
import type { RecipientKind, SuppressionScope } from './keys.js';

/** The state of one delivery: `sending` while a sender holds its lease. */
export type DeliveryState = OutboxState | 'sending';

/** What became of one (event, recipient), as the log shows it: never an address. */
export interface DeliveryRecord {
  readonly recipient: RecipientKind;
  readonly state: DeliveryState;
  readonly attempts: number;
  /** Why the last attempt failed, or why it was skipped (suppressed, capped). */
  readonly lastError?: string;
  /** Epoch ms of the last change. */
  readonly updatedAt: number;
}

/** One outbox event with its deliveries, as `/ui` lists them. */
export interface OutboxLogEntry {
  readonly eventId: string;
  readonly cause: NotificationCause;
  readonly at: number;
  readonly state: OutboxState;
  readonly attempts: number;
  readonly lastError?: string;
  readonly subject?: OutboxSubject;
  readonly deliveries: readonly DeliveryRecord[];
}

/** Why an address is suppressed. */
export type SuppressionReason = 'unsubscribe' | 'bounce' | 'complaint';

/** The outbox as the comment function and /ui use it (the sender's own reads and writes: functions/notify/). */
export interface OutboxRepository {
  /** The newest events of the `days` days up to `now`, newest first, at most `limit`, with their deliveries. */
  log(options: {
    readonly now: number;
    readonly days: number;
    readonly limit: number;
  }): Promise<OutboxLogEntry[]>;
  /**
   * Sets a `failed` event (or one left `pending`) back to `pending`, which hands it to the sender again
   * through the stream; false when there is no such event or it was sent.
   */
  redrive(eventId: string, now: number): Promise<boolean>;
  /** Writes a `test` event: the sender mails the owner through the same pipeline. */
  enqueueTest(eventId: string, at: number): Promise<void>;
  /** Records that `addressHash` wants no more mail, from the whole site or from one thread. */
  suppress(
    addressHash: string,
    scope: SuppressionScope,
    reason: SuppressionReason,
    at: number,
  ): Promise<void>;
}
