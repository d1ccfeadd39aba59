import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AccountFailures } from '../domain/account-failures.js';
import { attributes, entities, type Key, keys } from './keys.js';

/**
 * What limits sign-in attempts (functions/comment/sign-in.ts, auth/sign-in-guard.ts): the attempts of each
 * IP per window, the failures of each address typed into the form (a keyed hash of it, account or not), and
 * the networks its account signed in from lately.
 */
export interface SignInRecords {
  /** Counts one sign-in attempt of an IP in a time window and returns the window's total. */
  countSignInAttempt(ipHash: string, window: number, expiresAtSeconds: number): Promise<number>;
  /**
   * The failed sign-ins remembered for an email (by its keyed hash), and until when its administrator's
   * sign-in from `networkHash` exempts that network from the account's lock; read consistently.
   */
  signInRecord(accountHash: string, networkHash: string): Promise<SignInRecord>;
  /**
   * Counts an attempt: stores `next` if the failures are still as read (`previous`); false when another
   * attempt was counted meanwhile (nothing written: read again).
   */
  countAccountAttempt(
    accountHash: string,
    previous: AccountFailures | undefined,
    next: AccountFailures,
    expiresAtSeconds: number,
  ): Promise<boolean>;
  /** After a success: forgets the failures and remembers the network until `knownUntilSeconds`. */
  signedIn(accountHash: string, networkHash: string, knownUntilSeconds: number): Promise<void>;
}

/** What {@link SignInRecords.signInRecord} reads. */
export interface SignInRecord {
  readonly failures: AccountFailures | undefined;
  /**
   * Until when (ms since the epoch; 0: never) the network counts as the administrator's. TTL removes a
   * mark only within a day or two of its expiry: the caller compares with the time.
   */
  readonly networkKnownUntil: number;
}

/** Builds the sign-in records on `client` and `tableName`. */
export function createSignInRecords(client: DynamoDBDocumentClient, tableName: string): SignInRecords {
  return {
    async countSignInAttempt(ipHash, window, expiresAtSeconds) {
      const output = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.signInAttempts(ipHash, window),
          // One counter per IP and window, added to atomically; TTL removes old windows.
          UpdateExpression: 'ADD attempts :one SET #entity = :entity, #expires = :expires',
          ExpressionAttributeNames: { '#entity': 'entity', '#expires': attributes.expiresAt },
          ExpressionAttributeValues: {
            ':one': 1,
            ':entity': entities.signInAttempts,
            ':expires': expiresAtSeconds,
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(output.Attributes?.attempts) || 0;
    },

    async signInRecord(accountHash, networkHash) {
      const read = (key: Key) =>
        client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
      const [failures, network] = await Promise.all([
        read(keys.signInFailures(accountHash)),
        read(keys.signInNetwork(accountHash, networkHash)),
      ]);
      const item = failures.Item;
      return {
        failures: item
          ? {
              failures: Number(item.failures) || 0,
              lastAt: Number(item.lastAt) || 0,
              lockedUntil: Number(item.lockedUntil) || 0,
            }
          : undefined,
        networkKnownUntil: (Number(network.Item?.[attributes.expiresAt]) || 0) * 1000,
      };
    },

    async countAccountAttempt(accountHash, previous, next, expiresAtSeconds) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...keys.signInFailures(accountHash),
              entity: entities.signInFailures,
              ...next,
              [attributes.expiresAt]: expiresAtSeconds,
            },
            // Only over the record as read: of concurrent attempts one is counted, the others read again,
            // so a burst cannot pass through one gap in the lock.
            ...(previous
              ? {
                  ConditionExpression: '#failures = :failures AND #lastAt = :lastAt',
                  ExpressionAttributeNames: { '#failures': 'failures', '#lastAt': 'lastAt' },
                  ExpressionAttributeValues: { ':failures': previous.failures, ':lastAt': previous.lastAt },
                }
              : { ConditionExpression: 'attribute_not_exists(pk)' }),
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    async signedIn(accountHash, networkHash, knownUntilSeconds) {
      await Promise.all([
        client.send(new DeleteCommand({ TableName: tableName, Key: keys.signInFailures(accountHash) })),
        client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...keys.signInNetwork(accountHash, networkHash),
              entity: entities.signInNetwork,
              [attributes.expiresAt]: knownUntilSeconds,
            },
          }),
        ),
      ]);
    },
  };
}
