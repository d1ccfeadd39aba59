import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { attributes, entities, keys, type RecipientKind } from './keys.js';
import { redriveEvent } from './event-redrive.js';
import type { OutboxState } from './outbox-event.js';
import {
  fromOutboxEventItem,
  maxKeptErrorChars,
  outboxExpiry,
  type StoredOutboxEvent,
} from './outbox-items.js';
import type { DeliveryState } from './outbox-items.js';

/** The answer to a claim: the lease is ours (with the delivery's attempts so far), or why not. */
export type DeliveryClaim =
  | {
      readonly claimed: true;
      /** Attempts including this one. */
      readonly attempts: number;
      /** Whether an earlier attempt already took this delivery's slot of the recipient's caps. */
      readonly counted: boolean;
    }
  | {
      readonly claimed: false;
      /**
       * `sent` or `skipped` (final), `sending` (another sender holds an unexpired lease), or `failed`: its
       * next attempt is not due yet (`retryAt`), or it was given up (`gaveUp`).
       */
      readonly state: DeliveryState | undefined;
      readonly retryAt?: number;
      readonly gaveUp?: boolean;
      readonly lastError?: string;
    };

/** How one delivery ended. */
export interface DeliveryOutcome {
  readonly state: 'sent' | 'failed' | 'skipped';
  /** The error (failed) or the reason (skipped), without any address. */
  readonly lastError?: string;
  /** This attempt took the delivery's cap slot (so a retry does not take another). */
  readonly counted?: boolean;
  /** Failed: when it is tried again (epoch ms); absent, it was given up (a permanent failure, or no tries left). */
  readonly retryAt?: number;
  /** Skipped until its reader confirms (REPLY_MAIL=confirmed): the confirmation hands it back (reply-confirmations.ts). */
  readonly awaitingConfirmation?: boolean;
}

/** How an event was left: pending deliveries' earliest retry, or given up. */
export interface EventOutcome {
  readonly state: Exclude<OutboxState, 'pending'>;
  readonly lastError?: string;
  /** Failed: the earliest next attempt of its deliveries (the sweep re-drives it then). */
  readonly retryAt?: number;
  /** Failed, and no delivery is tried again automatically (only a re-drive from /ui tries them). */
  readonly gaveUp?: boolean;
}

/** The sender's own reads and writes of outbox events and their deliveries. */
export interface DeliveryStore {
  /** Event `eventId`, read consistently (a re-drive just set it back to pending), or undefined. */
  getEvent(eventId: string): Promise<StoredOutboxEvent | undefined>;
  /**
   * Records that event `eventId` was processed once more and ended `state` (with why, for failed or skipped;
   * when it is retried, or that it was given up), and clears a re-drive by hand.
   */
  finishEvent(eventId: string, outcome: EventOutcome, at: number): Promise<void>;
  /**
   * Takes the lease of one delivery: only when it is neither sent nor skipped, no other sender holds an
   * unexpired lease and (unless `byHand`, a re-drive from /ui) a failed one is due (`retryAt` passed) and
   * not given up. Counts the attempt.
   */
  claim(
    eventId: string,
    recipient: RecipientKind,
    lease: { readonly at: number; readonly leaseMs: number; readonly byHand?: boolean },
  ): Promise<DeliveryClaim>;
  /** Records how a delivery ended and frees its lease; a delivery once `sent` stays sent. */
  record(eventId: string, recipient: RecipientKind, outcome: DeliveryOutcome, at: number): Promise<void>;
  /**
   * The sweep's re-drive of event `eventId`: sets it back to `pending` (at `at`), so that the stream carries it
   * to the sender as a `/ui` re-drive does, and counts one sweep in the same write; false when it is no longer
   * pending or failed (nothing written).
   */
  redriveBySweep(eventId: string, at: number): Promise<boolean>;
  /**
   * Ids of the events of `days` (UTC days, e.g. today and yesterday) that the sweep should re-drive: failed
   * with a retry due by `now`; or, only while swept fewer than `maxSweeps` times, pending and untouched since
   * `staleBefore` or failed before retries were scheduled (neither `retryAt` nor `gaveUp`). At most `limit`,
   * oldest first.
   */
  eventsToRedrive(options: {
    readonly days: readonly string[];
    readonly now: number;
    readonly staleBefore: number;
    readonly maxSweeps: number;
    readonly limit: number;
  }): Promise<string[]>;
}

const truncated = (error: string | undefined) => error?.slice(0, maxKeptErrorChars);

/**
 * The part of an update that records how an event or a delivery ended: its state, time and error (or
 * none), and its retry schedule: `retryAt` when it is tried again, `gaveUp` when it never is automatically.
 */
function outcomeUpdate(
  outcome: { readonly state: string; readonly lastError?: string; readonly retryAt?: number },
  gaveUp: boolean,
  at: number,
) {
  const lastError = truncated(outcome.lastError);
  const retryAt = outcome.state === 'failed' ? outcome.retryAt : undefined;
  return {
    set: [
      '#state = :state',
      '#updatedAt = :at',
      ...(lastError === undefined ? [] : ['#lastError = :error']),
      ...(retryAt === undefined ? [] : ['#retryAt = :retryAt']),
      ...(gaveUp ? ['#gaveUp = :true'] : []),
    ],
    remove: [
      ...(lastError === undefined ? ['#lastError'] : []),
      ...(retryAt === undefined ? ['#retryAt'] : []),
      ...(gaveUp ? [] : ['#gaveUp']),
    ],
    names: {
      '#state': 'state',
      '#updatedAt': 'updatedAt',
      '#lastError': 'lastError',
      '#retryAt': 'retryAt',
      '#gaveUp': 'gaveUp',
    },
    values: {
      ':state': outcome.state,
      ':at': at,
      ...(lastError === undefined ? {} : { ':error': lastError }),
      ...(retryAt === undefined ? {} : { ':retryAt': retryAt }),
      ...(gaveUp ? { ':true': true } : {}),
    },
  };
}

/** Builds the delivery store on `client` and `tableName`. */
export function createDeliveryStore(client: DynamoDBDocumentClient, tableName: string): DeliveryStore {
  /** The attributes every write of a delivery sets, so that whichever write comes first makes a whole item. */
  const deliveryIdentity = (eventId: string, recipient: RecipientKind) => ({
    names: {
      '#entity': 'entity',
      '#eventId': 'eventId',
      '#recipient': 'recipient',
      '#expiresAt': attributes.expiresAt,
    },
    values: {
      ':entity': entities.delivery,
      ':eventId': eventId,
      ':recipient': recipient,
      ':expiresAt': outboxExpiry(eventId),
    },
    set: '#entity = :entity, #eventId = :eventId, #recipient = :recipient, #expiresAt = :expiresAt',
  });

  return {
    async getEvent(eventId) {
      const output = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.outboxEvent(eventId), ConsistentRead: true }),
      );
      return output.Item ? fromOutboxEventItem(output.Item) : undefined;
    },

    async finishEvent(eventId, outcome, at) {
      const gaveUp = outcome.state === 'failed' && outcome.retryAt === undefined && outcome.gaveUp === true;
      const update = outcomeUpdate(outcome, gaveUp, at);
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.outboxEvent(eventId),
            // ADD counts this processing among the event's attempts, whoever else counted meanwhile. `retryAt`
            // is when the sweep re-drives it; `byHand` (a /ui re-drive) has been served.
            UpdateExpression: `SET ${update.set.join(', ')} ADD #attempts :one REMOVE ${['#byHand', ...update.remove].join(', ')}`,
            // Never a bare item for an event that expired (TTL) while it was being sent.
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { ...update.names, '#attempts': 'attempts', '#byHand': 'byHand' },
            ExpressionAttributeValues: { ...update.values, ':one': 1 },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },

    async claim(eventId, recipient, { at, leaseMs, byHand = false }) {
      const identity = deliveryIdentity(eventId, recipient);
      try {
        const output = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.delivery(eventId, recipient),
            UpdateExpression: `SET ${identity.set}, #state = :sending, #leaseUntil = :leaseUntil, #updatedAt = :at ADD #attempts :one`,
            // The idempotence of a send: never a delivery already sent (or skipped, also final), never one
            // another sender holds; a lease that expired (its sender died mid-send) may be taken over. Its own
            // schedule: a failed one only once its retry is due and never once given up, unless an
            // administrator re-drove the event by hand.
            ConditionExpression:
              'attribute_not_exists(#state) OR (#state <> :sent AND #state <> :skipped AND ' +
              '(attribute_not_exists(#leaseUntil) OR #leaseUntil < :at)' +
              (byHand
                ? ')'
                : ' AND attribute_not_exists(#gaveUp) AND (attribute_not_exists(#retryAt) OR #retryAt <= :at))'),
            ExpressionAttributeNames: {
              ...identity.names,
              '#state': 'state',
              '#leaseUntil': 'leaseUntil',
              '#updatedAt': 'updatedAt',
              '#attempts': 'attempts',
              ...(byHand ? {} : { '#gaveUp': 'gaveUp', '#retryAt': 'retryAt' }),
            },
            ExpressionAttributeValues: {
              ...identity.values,
              ':sending': 'sending',
              ':sent': 'sent',
              ':skipped': 'skipped',
              ':leaseUntil': at + leaseMs,
              ':at': at,
              ':one': 1,
            },
            ReturnValues: 'ALL_NEW',
            // A refusal says why at no extra read: the delivery's state as it stands.
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return {
          claimed: true,
          attempts: Number(output.Attributes?.attempts) || 1,
          counted: output.Attributes?.counted === true,
        };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const old = error.Item;
        const retryAt = Number(old?.retryAt?.N);
        return {
          claimed: false,
          state: old?.state?.S as DeliveryState | undefined,
          ...(Number.isFinite(retryAt) ? { retryAt } : {}),
          ...(old?.gaveUp?.BOOL === true ? { gaveUp: true } : {}),
          ...(old?.lastError?.S === undefined ? {} : { lastError: old.lastError.S }),
        };
      }
    },

    async record(eventId, recipient, outcome, at) {
      const identity = deliveryIdentity(eventId, recipient);
      const update = outcomeUpdate(outcome, outcome.state === 'failed' && outcome.retryAt === undefined, at);
      const set = [
        identity.set,
        ...update.set,
        ...(outcome.counted ? ['#counted = :counted'] : []),
        ...(outcome.awaitingConfirmation ? ['#awaiting = :awaiting'] : []),
      ];
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.delivery(eventId, recipient),
            // A failure keeps when it is tried again (`retryAt`) or that it never is (`gaveUp`).
            UpdateExpression: `SET ${set.join(', ')} REMOVE ${['#leaseUntil', ...update.remove].join(', ')}`,
            // A sender whose lease ran out may finish after the one that took over: a failure or a skip
            // never overwrites a recorded send, which would send it again. A send is always recorded.
            ...(outcome.state === 'sent'
              ? {}
              : { ConditionExpression: 'attribute_not_exists(#state) OR #state <> :sent' }),
            ExpressionAttributeNames: {
              ...identity.names,
              ...update.names,
              '#leaseUntil': 'leaseUntil',
              ...(outcome.counted ? { '#counted': 'counted' } : {}),
              ...(outcome.awaitingConfirmation ? { '#awaiting': 'awaitingConfirmation' } : {}),
            },
            ExpressionAttributeValues: {
              ...identity.values,
              ...update.values,
              ...(outcome.state === 'sent' ? {} : { ':sent': 'sent' }),
              ...(outcome.counted ? { ':counted': true } : {}),
              ...(outcome.awaitingConfirmation ? { ':awaiting': true } : {}),
            },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },

    redriveBySweep: (eventId, at) => redriveEvent(client, tableName, eventId, at, 'count'),

    async eventsToRedrive({ days, now, staleBefore, maxSweeps, limit }) {
      const found: string[] = [];
      for (const day of days) {
        const pages = paginateQuery(
          { client },
          {
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk',
            // Events only (deliveries share the partition). Failed ones whose earliest retry is due (each
            // delivery bounds its own tries). Pending ones only once the stream has had its chance
            // (untouched since `staleBefore`: written then, or re-driven then), and failed ones written before
            // retries were scheduled (neither `retryAt` nor `gaveUp`) at once, both only while the sweep's own
            // re-drives are below the bound.
            FilterExpression:
              '#entity = :outbox AND ((#state = :failed AND #retryAt <= :now) OR (' +
              '(attribute_not_exists(#sweeps) OR #sweeps < :maxSweeps) AND (' +
              '(#state = :pending AND ((attribute_exists(#updatedAt) AND #updatedAt < :stale) OR ' +
              '(attribute_not_exists(#updatedAt) AND #at < :stale))) OR ' +
              '(#state = :failed AND attribute_not_exists(#retryAt) AND attribute_not_exists(#gaveUp)))))',
            ExpressionAttributeNames: {
              '#entity': 'entity',
              '#sweeps': 'sweeps',
              '#state': 'state',
              '#updatedAt': 'updatedAt',
              '#at': 'at',
              '#eventId': 'eventId',
              '#retryAt': 'retryAt',
              '#gaveUp': 'gaveUp',
            },
            ExpressionAttributeValues: {
              ':pk': keys.outboxPartition(day),
              ':outbox': entities.outbox,
              ':maxSweeps': maxSweeps,
              ':pending': 'pending',
              ':failed': 'failed',
              ':stale': staleBefore,
              ':now': now,
            },
            ProjectionExpression: '#eventId',
          },
        );
        for await (const page of pages) {
          for (const item of page.Items ?? []) {
            if (typeof item.eventId === 'string' && found.length < limit) found.push(item.eventId);
          }
          // Breaking out of the pages stops the paging: no further page is read.
          if (found.length >= limit) break;
        }
        if (found.length >= limit) break;
      }
      return found;
    },
  };
}
