import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CommentStatus, StoredComment } from '../domain/comment.js';
import { attributes, entities, keys } from './keys.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * What happened that may notify someone. `comment.submitted`: a comment was stored (never written for
 * spam); `comment.approved`: an administrator approved a held reply whose parent's author was not told of it
 * yet; `test`: the owner asked for a test mail from `/ui`; `account.mail`: a mail of an account's life
 * (account-mail-event.ts).
 */
export type NotificationCause = 'comment.submitted' | 'comment.approved' | 'test' | 'account.mail';

/**
 * Where an outbox event or one of its deliveries stands. An event is `pending` until every delivery the
 * rules give it is final; `sent` when each was sent (or `skipped`: suppressed, capped, no channel);
 * `failed` when one failed (its error kept), for the sweep or `/ui` to re-drive.
 */
export type OutboxState = 'pending' | 'sent' | 'failed' | 'skipped';

/** The comment an event is about, as it was when the event was written. */
export interface OutboxSubject {
  readonly url: string;
  readonly id: string;
  /** The thread root (replies only). */
  readonly rid?: string;
  /** The comment it answers (replies only). */
  readonly pid?: string;
  readonly status: CommentStatus;
  /** Written by a signed-in administrator. */
  readonly byAdmin: boolean;
}

/** An outbox event: one item, written in the same transaction as its cause. */
export interface OutboxEvent {
  /**
   * A new ULID, made when its cause is written (never the comment's id, which an import need not make a
   * ULID); its time names the day partition (keys.outboxEvent).
   */
  readonly id: string;
  readonly cause: NotificationCause;
  /** Epoch milliseconds. */
  readonly at: number;
  /** Absent for a test mail. */
  readonly subject?: OutboxSubject;
}

/** The event of `comment` (stored or just approved), or undefined when it can notify nobody (spam). */
export function commentEvent(
  cause: Exclude<NotificationCause, 'test' | 'account.mail'>,
  eventId: string,
  at: number,
  comment: Pick<StoredComment, 'url' | 'id' | 'rid' | 'pid' | 'status' | 'type'>,
): OutboxEvent | undefined {
  if (comment.status === 'spam') return undefined;
  return {
    id: eventId,
    cause,
    at,
    subject: {
      url: comment.url,
      id: comment.id,
      ...(comment.rid === undefined ? {} : { rid: comment.rid }),
      ...(comment.pid === undefined ? {} : { pid: comment.pid }),
      status: comment.status,
      byAdmin: comment.type === 'administrator',
    },
  };
}

/** How long outbox events and their delivery records are kept (TTL), in days. */
export const outboxRetentionDays = 30;

/** The item of `event`, pending, with no attempt yet. */
export function outboxEventItem(event: OutboxEvent): Record<string, unknown> {
  return {
    ...keys.outboxEvent(event.id),
    entity: entities.outbox,
    eventId: event.id,
    cause: event.cause,
    at: event.at,
    ...(event.subject ? { subject: { ...event.subject } } : {}),
    state: 'pending' satisfies OutboxState,
    attempts: 0,
    [attributes.expiresAt]: Math.ceil(event.at / 1000) + outboxRetentionDays * 86_400,
  };
}

/** The transaction item that writes `event` beside its cause. */
export function outboxPut(tableName: string, event: OutboxEvent): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: outboxEventItem(event),
      // An event is written once: a transaction retried after a lost answer finds it and is refused as a whole
      // (its other items carry the same kind of guard), so nobody is told twice of one cause.
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}
