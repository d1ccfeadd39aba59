import { decodeTime } from 'ulid';
import { type AccountMailSubject, fromAccountMailSubject } from './account-mail-event.js';
import type { CommentStatus } from '../domain/comment.js';
import type { RecipientKind } from './keys.js';
import {
  type NotificationCause,
  type OutboxEvent,
  type OutboxState,
  type OutboxSubject,
  outboxRetentionDays,
} from './outbox-event.js';

/**
 * Outbox event and delivery items read back (for the sender and the log), and what every write of them
 * shares. Neither ever holds an address: deliveries name their recipient by kind only.
 */

/** The state of one delivery: `sending` while a sender holds its lease. */
export type DeliveryState = OutboxState | 'sending';

/** What became of one (event, recipient), as the log shows it: never an address. */
export interface DeliveryRecord {
  readonly recipient: RecipientKind;
  readonly state: DeliveryState;
  readonly attempts: number;
  /** Why the last attempt failed, or why it was skipped (suppressed, capped). */
  readonly lastError?: string;
  /** Failed: when it is tried again (epoch ms). */
  readonly retryAt?: number;
  /** Failed for good: never tried again unless re-driven from /ui. */
  readonly gaveUp?: boolean;
  /** Epoch ms of the last change. */
  readonly updatedAt: number;
}

/** An outbox event as stored: the event and where it stands. */
export interface StoredOutboxEvent extends OutboxEvent {
  readonly state: OutboxState;
  readonly attempts: number;
  readonly lastError?: string;
  /** Failed: when the sweep re-drives it for its earliest delivery retry (epoch ms). */
  readonly retryAt?: number;
  /** Failed, and none of its deliveries is tried again automatically. */
  readonly gaveUp?: boolean;
  /** Re-driven from /ui and not yet processed: its deliveries are tried whatever their schedule. */
  readonly byHand?: boolean;
  /** `account.mail`: which mail, to which account (account-mail-event.ts). */
  readonly account?: AccountMailSubject;
}

/** The longest error (or skip reason) kept in the table. */
export const maxKeptErrorChars = 500;

const causes: readonly NotificationCause[] = [
  'comment.submitted',
  'comment.approved',
  'test',
  'account.mail',
];
const eventStates: readonly OutboxState[] = ['pending', 'sent', 'failed', 'skipped'];
const deliveryStates: readonly DeliveryState[] = ['pending', 'sent', 'failed', 'skipped', 'sending'];
const recipients: readonly RecipientKind[] = ['owner', 'parent', 'webhook', 'telegram', 'account'];
const statuses: readonly CommentStatus[] = ['approved', 'waiting', 'spam'];

const oneOf = <T extends string>(allowed: readonly T[], value: unknown): T | undefined =>
  allowed.find((candidate) => candidate === value);
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
/** The retry schedule of an event or a delivery: `retryAt` when set, `gaveUp` when true. */
const schedule = (item: Record<string, unknown>) => ({
  ...(typeof item.retryAt === 'number' && Number.isFinite(item.retryAt) ? { retryAt: item.retryAt } : {}),
  ...(item.gaveUp === true ? { gaveUp: true } : {}),
});

/** The TTL (epoch seconds) of the items of event `eventId`: its time (a ULID's) plus the retention. */
export function outboxExpiry(eventId: string): number {
  return Math.ceil(decodeTime(eventId) / 1000) + outboxRetentionDays * 86_400;
}

function fromSubject(value: unknown): OutboxSubject | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const subject = value as Record<string, unknown>;
  const url = text(subject.url);
  const id = text(subject.id);
  const status = oneOf(statuses, subject.status);
  if (url === undefined || id === undefined || status === undefined) return undefined;
  const rid = text(subject.rid);
  const pid = text(subject.pid);
  return {
    url,
    id,
    ...(rid === undefined ? {} : { rid }),
    ...(pid === undefined ? {} : { pid }),
    status,
    byAdmin: subject.byAdmin === true,
  };
}

/** An outbox event item read back, or undefined when it is not one. */
export function fromOutboxEventItem(item: Record<string, unknown>): StoredOutboxEvent | undefined {
  const id = text(item.eventId);
  const cause = oneOf(causes, item.cause);
  const state = oneOf(eventStates, item.state);
  if (id === undefined || cause === undefined || state === undefined) return undefined;
  const subject = fromSubject(item.subject);
  const account = fromAccountMailSubject(item.account);
  const lastError = text(item.lastError);
  return {
    id,
    cause,
    at: count(item.at),
    ...(subject ? { subject } : {}),
    state,
    attempts: count(item.attempts),
    ...(lastError === undefined ? {} : { lastError }),
    ...schedule(item),
    ...(item.byHand === true ? { byHand: true } : {}),
    ...(account ? { account } : {}),
  };
}

/** A delivery item read back (with its event's id), or undefined when it is not one. */
export function fromDeliveryItem(
  item: Record<string, unknown>,
): (DeliveryRecord & { readonly eventId: string }) | undefined {
  const eventId = text(item.eventId);
  const recipient = oneOf(recipients, item.recipient);
  const state = oneOf(deliveryStates, item.state);
  if (eventId === undefined || recipient === undefined || state === undefined) return undefined;
  const lastError = text(item.lastError);
  return {
    eventId,
    recipient,
    state,
    attempts: count(item.attempts),
    ...(lastError === undefined ? {} : { lastError }),
    ...schedule(item),
    updatedAt: count(item.updatedAt),
  };
}
