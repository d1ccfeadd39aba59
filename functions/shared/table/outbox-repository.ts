import { type DynamoDBDocumentClient, paginateQuery, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  type NotificationCause,
  type OutboxState,
  type OutboxSubject,
  outboxEventItem,
} from './outbox-event.js';
import { entities, keys, type SuppressionScope } from './keys.js';
import { redriveEvent } from './event-redrive.js';
import { type DeliveryRecord, fromDeliveryItem, fromOutboxEventItem } from './outbox-items.js';

/** One outbox event with its deliveries, as `/ui` lists them. */
export interface OutboxLogEntry {
  readonly eventId: string;
  readonly cause: NotificationCause;
  readonly at: number;
  readonly state: OutboxState;
  readonly attempts: number;
  readonly lastError?: string;
  /** Failed: when the sweep tries its earliest delivery again (epoch ms). */
  readonly retryAt?: number;
  /** Failed, and no delivery of it is tried again automatically. */
  readonly gaveUp?: boolean;
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

/** UTC days (`2026-11-25`) of the `days` days up to `now`, newest first. */
function daysUpTo(now: number, days: number): string[] {
  return Array.from({ length: Math.max(0, days) }, (_, back) =>
    new Date(now - back * 86_400_000).toISOString().slice(0, 10),
  );
}

/** A page of the log's Query: a handful of events with their deliveries. */
const logPageItems = 100;

/** Builds the outbox repository on `client` and `tableName`. */
export function createOutboxRepository(client: DynamoDBDocumentClient, tableName: string): OutboxRepository {
  return {
    async log({ now, days, limit }) {
      const entries: OutboxLogEntry[] = [];
      for (const day of daysUpTo(now, days)) {
        // Newest first, a delivery (`E#<id>#<recipient>`) comes right before its event (`E#<id>`).
        let deliveries: DeliveryRecord[] = [];
        const pages = paginateQuery(
          { client },
          {
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.outboxPartition(day) },
            // Descending: the newest event first, and the paging stops when `limit` events are read.
            ScanIndexForward: false,
            Limit: logPageItems,
          },
        );
        for await (const page of pages) {
          for (const item of page.Items ?? []) {
            if (entries.length >= limit) break;
            if (item.entity === entities.delivery) {
              const delivery = fromDeliveryItem(item);
              if (delivery) {
                const { eventId: _eventId, ...record } = delivery;
                deliveries.push(record);
              }
            } else if (item.entity === entities.outbox) {
              const event = fromOutboxEventItem(item);
              if (event) {
                entries.push({
                  eventId: event.id,
                  cause: event.cause,
                  at: event.at,
                  state: event.state,
                  attempts: event.attempts,
                  ...(event.lastError === undefined ? {} : { lastError: event.lastError }),
                  ...(event.retryAt === undefined ? {} : { retryAt: event.retryAt }),
                  ...(event.gaveUp ? { gaveUp: true } : {}),
                  ...(event.subject ? { subject: event.subject } : {}),
                  deliveries: deliveries.reverse(),
                });
              }
              deliveries = [];
            }
          }
          // Breaking out of the pages stops the paging: no further page is read.
          if (entries.length >= limit) break;
        }
        if (entries.length >= limit) break;
      }
      return entries;
    },

    redrive: (eventId, now) => redriveEvent(client, tableName, eventId, now, 'reset'),

    async enqueueTest(eventId, at) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: outboxEventItem({ id: eventId, cause: 'test', at }),
          // A new event each time: an id already used is a bug, not a second test.
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async suppress(addressHash, scope, reason, at) {
      // A plain put: asking twice is asking once (the latest reason and time are kept). No TTL: it lasts.
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.suppression(addressHash, scope),
            entity: entities.suppression,
            ...(scope.kind === 'thread' ? { rootId: scope.rootId } : {}),
            reason,
            at,
          },
        }),
      );
    },
  };
}
