import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  ScanCommand,
  type ScanCommandOutput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AccountFailures } from '../auth/sign-in-guard.js';
import { attributes, entities, type Key, keys } from './keys.js';
import { projection } from './projection.js';

/** An administrator account. */
export interface AdminAccount {
  readonly id: string;
  readonly email: string;
  readonly displayName: string;
  /** scrypt hash (auth/password.ts); never leaves the server. */
  readonly passwordHash: string;
  readonly createdAt: number;
}

/** Administrator accounts and sign-in attempt counting. */
export interface AdminRepository {
  /** The account of `email` (case-insensitive). */
  find(email: string): Promise<AdminAccount | undefined>;
  /** Stores an account; refuses to replace an existing one unless `replace`. Returns false if it existed. */
  save(account: AdminAccount, options?: { replace?: boolean }): Promise<boolean>;
  /**
   * Every account, ordered by email, without password hashes. One Scan of the whole table (accounts have
   * no index): for the admin CLI, never for a request.
   */
  list(): Promise<Omit<AdminAccount, 'passwordHash'>[]>;
  /**
   * Deletes the account of `email`; false when there was none. Its tokens stop working at once: each
   * request re-reads the account a token names.
   */
  remove(email: string): Promise<boolean>;
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

/** What {@link AdminRepository.signInRecord} reads. */
export interface SignInRecord {
  readonly failures: AccountFailures | undefined;
  /**
   * Until when (ms since the epoch; 0: never) the network counts as the administrator's. TTL removes a
   * mark only within a day or two of its expiry: the caller compares with the time.
   */
  readonly networkKnownUntil: number;
}

/** Builds the administrator repository on `client` and `tableName`. */
export function createAdminRepository(client: DynamoDBDocumentClient, tableName: string): AdminRepository {
  return {
    async find(email) {
      const output = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.admin(email), ConsistentRead: true }),
      );
      const item = output.Item;
      if (!item || typeof item.passwordHash !== 'string') return undefined;
      return {
        id: String(item.id),
        email: String(item.email),
        displayName: String(item.displayName ?? ''),
        passwordHash: item.passwordHash,
        createdAt: Number(item.createdAt) || 0,
      };
    },

    async save(account, options = {}) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.admin(account.email), entity: entities.admin, ...account },
            // Adding an administrator never silently resets another one's password.
            ...(options.replace ? {} : { ConditionExpression: 'attribute_not_exists(pk)' }),
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    async list() {
      const accounts: Omit<AdminAccount, 'passwordHash'>[] = [];
      let startKey: ScanCommandOutput['LastEvaluatedKey'];
      do {
        const output = await client.send(
          new ScanCommand({
            TableName: tableName,
            // A filter still reads every item; only accounts, and no password hash, travel back.
            FilterExpression: '#entity = :admin',
            ...projection(['id', 'email', 'displayName', 'createdAt'], { '#entity': 'entity' }),
            ExpressionAttributeValues: { ':admin': entities.admin },
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of output.Items ?? []) {
          accounts.push({
            id: String(item.id),
            email: String(item.email),
            displayName: String(item.displayName ?? ''),
            createdAt: Number(item.createdAt) || 0,
          });
        }
        startKey = output.LastEvaluatedKey;
      } while (startKey);
      return accounts.sort((a, b) => a.email.localeCompare(b.email));
    },

    async remove(email) {
      try {
        await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.admin(email),
            // Only an account: says so when there was none, rather than succeeding silently.
            ConditionExpression: 'attribute_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

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
