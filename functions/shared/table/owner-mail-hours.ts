import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { attributes, entities, keys } from './keys.js';
import { retryOnConflict } from './transact.js';

/**
 * The owner's mails of each hour, one item per hour (`OWNERMAIL`, `H#2026-11-25T17`): `sent` counts the
 * mails sent one by one, up to AUTHOR_NOTIFY_CAP_PER_HOUR; past it `overflow` counts those left to the
 * hour's digest. Once the hour is over the sweep sends one digest of the overflow (`closed` from its first
 * claim on: a mail still counted after that is sent one by one rather than lost), and marks it `sentAt`.
 */

/** What becomes of one owner mail: sent now, or counted into its hour's digest. */
export type OwnerMailSlot = 'send' | 'digest';

/** An hour whose digest is still to send. */
export interface PendingDigest {
  /** `2026-11-25T17` (UTC). */
  readonly hour: string;
  /** Comments not mailed one by one. */
  readonly overflow: number;
}

/** A claimed digest: the count it says, frozen by the claim, and the attempts so far, this one included. */
export interface ClaimedDigest {
  readonly count: number;
  readonly attempts: number;
}

/** How sending an hour's digest ended. */
export type DigestOutcome =
  | { readonly state: 'sent' }
  /** Tried again at the next sweep, unless `gaveUp`. */
  | { readonly state: 'failed'; readonly error: string; readonly gaveUp: boolean };

/** The owner's mail hours: the per-hour cap and the digests of what went past it. */
export interface OwnerMailHours {
  /** The cap it was built with (AUTHOR_NOTIFY_CAP_PER_HOUR). */
  readonly perHour: number;
  /** Counts one owner mail in the hour of `at`: `send` while below the cap (or once the digest is taken), else `digest`. */
  take(at: number): Promise<OwnerMailSlot>;
  /**
   * The hours of the two days before `now`'s hour (never the current one: it may still overflow) whose digest
   * is neither sent, given up, nor held by another sweep's unexpired lease; oldest first.
   */
  pendingDigests(now: number): Promise<PendingDigest[]>;
  /** Takes the digest of `hour` for `leaseMs` from `at`, closing the hour; undefined when another has it or it is done. */
  claimDigest(hour: string, at: number, leaseMs: number): Promise<ClaimedDigest | undefined>;
  /** Records how the digest of `hour` ended, and frees its lease. */
  recordDigest(hour: string, outcome: DigestOutcome, at: number): Promise<void>;
}

const hourMs = 3_600_000;
/** How far back the sweep looks for digests not sent. */
const lookbackHours = 48;
/** An hour's item outlives the sweep's look-back, so what became of its digest can still be read. */
const keptMs = 8 * 24 * hourMs;

/** The UTC hour of `at`: `2026-11-25T17`. */
export const hourOf = (at: number) => new Date(at).toISOString().slice(0, 13);

const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException;

/** Builds the owner's mail hours on `client` and `tableName`, capped at `perHour` mails an hour. */
export function createOwnerMailHours(
  client: DynamoDBDocumentClient,
  tableName: string,
  perHour: number,
): OwnerMailHours {
  const identity = (at: number) => ({
    names: { '#entity': 'entity', '#expiresAt': attributes.expiresAt },
    values: { ':entity': entities.ownerMailHour, ':expiresAt': Math.ceil((at + keptMs) / 1000) },
  });
  const update = (input: ConstructorParameters<typeof UpdateCommand>[0]) =>
    retryOnConflict(() => client.send(new UpdateCommand(input)));

  return {
    perHour,

    async take(at) {
      const key = keys.ownerMailHour(hourOf(at));
      const { names, values } = identity(at);
      try {
        await update({
          TableName: tableName,
          Key: key,
          // ADD counts in place; below the cap only, so two senders at once never both take the last slot.
          UpdateExpression: 'SET #entity = :entity, #expiresAt = :expiresAt ADD #sent :one',
          ConditionExpression: 'attribute_not_exists(#sent) OR #sent < :cap',
          ExpressionAttributeNames: { ...names, '#sent': 'sent' },
          ExpressionAttributeValues: { ...values, ':one': 1, ':cap': perHour },
        });
        return 'send';
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      try {
        await update({
          TableName: tableName,
          Key: key,
          // Into the digest only while no sweep has claimed it: the claim froze the count the digest says.
          UpdateExpression: 'SET #entity = :entity, #expiresAt = :expiresAt ADD #overflow :one',
          ConditionExpression: 'attribute_not_exists(#closed)',
          ExpressionAttributeNames: { ...names, '#overflow': 'overflow', '#closed': 'closed' },
          ExpressionAttributeValues: { ...values, ':one': 1 },
        });
        return 'digest';
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // The hour's digest is already out (a sender that read the clock just before the hour ended): this
        // one mail goes by itself rather than be lost.
        return 'send';
      }
    },

    async pendingDigests(now) {
      const answer = await client.send(
        new QueryCommand({
          TableName: tableName,
          // Strongly consistent: a digest sent a moment ago is not offered again.
          ConsistentRead: true,
          // The hours of the look-back, up to the one before `now`'s: at most 48 small items, one page.
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          FilterExpression:
            '#overflow > :zero AND attribute_not_exists(#sentAt) AND attribute_not_exists(#gaveUp) ' +
            'AND (attribute_not_exists(#leaseUntil) OR #leaseUntil < :now)',
          ExpressionAttributeNames: {
            '#overflow': 'overflow',
            '#sentAt': 'sentAt',
            '#gaveUp': 'gaveUp',
            '#leaseUntil': 'leaseUntil',
          },
          ExpressionAttributeValues: {
            ':pk': keys.ownerMailPartition,
            ':from': keys.ownerMailHour(hourOf(now - lookbackHours * hourMs)).sk,
            ':to': keys.ownerMailHour(hourOf(now - hourMs)).sk,
            ':zero': 0,
            ':now': now,
          },
        }),
      );
      return (answer.Items ?? []).map((item) => ({
        hour: String(item.sk).slice(2),
        overflow: Number(item.overflow),
      }));
    },

    async claimDigest(hour, at, leaseMs) {
      try {
        const answer = await update({
          TableName: tableName,
          Key: keys.ownerMailHour(hour),
          // `closed` stays: no mail is counted into this digest after its count was read here.
          UpdateExpression: 'SET #closed = :true, #leaseUntil = :until ADD #attempts :one',
          // Only an hour with overflow, not sent nor given up, and not held by another sweep's lease.
          ConditionExpression:
            '#overflow > :zero AND attribute_not_exists(#sentAt) AND attribute_not_exists(#gaveUp) ' +
            'AND (attribute_not_exists(#leaseUntil) OR #leaseUntil < :at)',
          ExpressionAttributeNames: {
            '#closed': 'closed',
            '#leaseUntil': 'leaseUntil',
            '#attempts': 'attempts',
            '#overflow': 'overflow',
            '#sentAt': 'sentAt',
            '#gaveUp': 'gaveUp',
          },
          ExpressionAttributeValues: {
            ':true': true,
            ':until': at + leaseMs,
            ':one': 1,
            ':zero': 0,
            ':at': at,
          },
          ReturnValues: 'ALL_NEW',
        });
        return { count: Number(answer.Attributes?.overflow), attempts: Number(answer.Attributes?.attempts) };
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },

    async recordDigest(hour, outcome, at) {
      const sent = outcome.state === 'sent';
      await update({
        TableName: tableName,
        Key: keys.ownerMailHour(hour),
        UpdateExpression: sent
          ? 'SET #sentAt = :at REMOVE #leaseUntil, #lastError'
          : `SET #lastError = :error${outcome.gaveUp ? ', #gaveUp = :true' : ''} REMOVE #leaseUntil`,
        ExpressionAttributeNames: {
          '#leaseUntil': 'leaseUntil',
          ...(sent ? { '#sentAt': 'sentAt', '#lastError': 'lastError' } : { '#lastError': 'lastError' }),
          ...(!sent && outcome.gaveUp ? { '#gaveUp': 'gaveUp' } : {}),
        },
        ExpressionAttributeValues: sent
          ? { ':at': at }
          : { ':error': outcome.error.slice(0, 500), ...(outcome.gaveUp ? { ':true': true } : {}) },
      });
    },
  };
}
