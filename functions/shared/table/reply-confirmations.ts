import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, keyId } from './batch-get.js';
import { attributes, entities, keys } from './keys.js';
import { transactWrite } from './transact.js';

/**
 * Whether a reader's address takes reply mail (REPLY_MAIL=confirmed): it confirmed (`CONFIRM#<hash>`
 * `CONFIRMED`, kept), or it was sent the one confirmation mail of 30 days (`ASKED`, with the event whose
 * reply notice waits for the click, expiring by TTL). The address only as its keyed hash
 * (notify/address-hash.ts).
 */

/** How long one confirmation mail stands for an address: no second one within it, whatever is posted. */
export const confirmationIntervalDays = 30;

/** Where an address stands. */
export interface ReplyConsent {
  readonly confirmed: boolean;
  /** The confirmation mail of the last 30 days: the event whose notice waits, and when it was sent. */
  readonly asked?: { readonly eventId: string; readonly at: number };
}

/** The reply confirmations of the site. */
export interface ReplyConfirmations {
  /** Where `addressHash` stands at `now` (read consistently: a confirmation just recorded counts). */
  consent(addressHash: string, now: number): Promise<ReplyConsent>;
  /**
   * Records the confirmation mail of event `eventId` to `addressHash` at `at`, unless one was recorded in
   * the 30 days before: true when this one is recorded (and may be sent).
   */
  markAsked(addressHash: string, eventId: string, at: number): Promise<boolean>;
  /** Takes back the mark of event `eventId` (its mail was not sent after all: a cap refused it). */
  unmarkAsked(addressHash: string, eventId: string): Promise<void>;
  /** Records that `addressHash` confirmed at `at` (again: changes nothing that matters). */
  confirm(addressHash: string, at: number): Promise<void>;
  /**
   * Hands the reply notice of event `eventId` that waits for a confirmation to the sender again: its
   * reader delivery back to `pending`, the event back to `pending` (the stream carries it). False when
   * none waits (sent since, an old link, the event expired).
   */
  releasePending(eventId: string, at: number): Promise<boolean>;
}

const dayMs = 86_400_000;

/** Builds the reply confirmations on `client` and `tableName`. */
export function createReplyConfirmations(
  client: DynamoDBDocumentClient,
  tableName: string,
): ReplyConfirmations {
  return {
    async consent(addressHash, now) {
      const confirmed = keys.replyConfirmation(addressHash, 'confirmed');
      const asked = keys.replyConfirmation(addressHash, 'asked');
      const found = await batchGet(
        client,
        tableName,
        [confirmed, asked],
        ['eventId', 'at', attributes.expiresAt],
        { consistent: true },
      );
      const mark = found.get(keyId(asked));
      // TTL deletes an expired item only within days: one past its time is read as gone.
      const live = mark !== undefined && Number(mark[attributes.expiresAt]) * 1000 > now;
      return {
        confirmed: found.has(keyId(confirmed)),
        ...(live ? { asked: { eventId: String(mark.eventId), at: Number(mark.at) } } : {}),
      };
    },

    async markAsked(addressHash, eventId, at) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...keys.replyConfirmation(addressHash, 'asked'),
              entity: entities.replyConfirmation,
              eventId,
              at,
              [attributes.expiresAt]: Math.ceil((at + confirmationIntervalDays * dayMs) / 1000),
            },
            // One mail per 30 days even when two senders try at once: only where none is, or the last one's
            // time is past (TTL has not deleted it yet).
            ConditionExpression: 'attribute_not_exists(#pk) OR #expiresAt <= :now',
            ExpressionAttributeNames: { '#pk': attributes.pk, '#expiresAt': attributes.expiresAt },
            ExpressionAttributeValues: { ':now': Math.floor(at / 1000) },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    async unmarkAsked(addressHash, eventId) {
      try {
        await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.replyConfirmation(addressHash, 'asked'),
            // Only this event's own mark: never one that another event's sender wrote since.
            ConditionExpression: '#eventId = :eventId',
            ExpressionAttributeNames: { '#eventId': 'eventId' },
            ExpressionAttributeValues: { ':eventId': eventId },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },

    async confirm(addressHash, at) {
      // A plain put, no TTL: a confirmation lasts (a suppression still stops the mail).
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.replyConfirmation(addressHash, 'confirmed'),
            entity: entities.replyConfirmation,
            at,
          },
        }),
      );
    },

    async releasePending(eventId, at) {
      const outcome = await transactWrite(client, {
        TransactItems: [
          {
            Update: {
              TableName: tableName,
              Key: keys.delivery(eventId, 'parent'),
              // Pending again, and its cap slot (the confirmation mail's) spent: the notice takes its own.
              UpdateExpression:
                'SET #state = :pending, #updatedAt = :at REMOVE #awaiting, #counted, #lastError',
              // Only the delivery that waits for this confirmation: never one sent, nor a skip for another reason.
              ConditionExpression: '#state = :skipped AND #awaiting = :true',
              ExpressionAttributeNames: {
                '#state': 'state',
                '#updatedAt': 'updatedAt',
                '#awaiting': 'awaitingConfirmation',
                '#counted': 'counted',
                '#lastError': 'lastError',
              },
              ExpressionAttributeValues: {
                ':pending': 'pending',
                ':skipped': 'skipped',
                ':true': true,
                ':at': at,
              },
            },
          },
          {
            Update: {
              TableName: tableName,
              Key: keys.outboxEvent(eventId),
              // Pending with a new `updatedAt`: the stream's filter passes it, and the sender takes it again.
              UpdateExpression: 'SET #state = :pending, #updatedAt = :at REMOVE #sweeps',
              // Never a bare item for an event that expired (TTL) meanwhile.
              ConditionExpression: 'attribute_exists(#pk)',
              ExpressionAttributeNames: {
                '#pk': attributes.pk,
                '#state': 'state',
                '#updatedAt': 'updatedAt',
                '#sweeps': 'sweeps',
              },
              ExpressionAttributeValues: { ':pending': 'pending', ':at': at },
            },
          },
        ],
      });
      return outcome.ok;
    },
  };
}
