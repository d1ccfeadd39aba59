import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  paginateScan,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AccountFailures } from '../domain/account-failures.js';
import { attributes, entities, type Key, keys } from './keys.js';
import { projection } from './projection.js';

/** An administrator account. */
export interface AdminAccount {
  readonly id: string;
  readonly email: string;
  readonly displayName: string;
  /**
   * The administrator's web address (Waline's `url`), set on the profile page. Accounts saved before it
   * existed have no attribute: none, as when it is cleared.
   */
  readonly link?: string;
  /** scrypt hash (auth/password.ts); never leaves the server. */
  readonly passwordHash: string;
  readonly createdAt: number;
}

/** What {@link AdminRepository.update} changes; a field left out stays as it is. */
export interface AccountChanges {
  readonly displayName?: string;
  /** The new link; `''` removes it. */
  readonly link?: string;
  /**
   * A new password's hash, with the account's new id: tokens name the id, so every token issued before
   * stops working (auth/viewer.ts).
   */
  readonly password?: { readonly passwordHash: string; readonly id: string };
}

/** Administrator accounts and sign-in attempt counting. */
export interface AdminRepository {
  /** The account of `email` (case-insensitive). */
  find(email: string): Promise<AdminAccount | undefined>;
  /**
   * Changes the account of `email` if it still has the id `id` (the one the caller's token names), and
   * returns it as changed; undefined, with nothing written, if it was removed or replaced meanwhile.
   */
  update(email: string, id: string, changes: AccountChanges): Promise<AdminAccount | undefined>;
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

/** An account item as the repository answers it; a missing `link` (items older than it) means none. */
function toAccount(item: Record<string, unknown> | undefined): AdminAccount | undefined {
  if (!item || typeof item.passwordHash !== 'string') return undefined;
  return {
    id: String(item.id),
    email: String(item.email),
    displayName: String(item.displayName ?? ''),
    ...(typeof item.link === 'string' && item.link !== '' ? { link: item.link } : {}),
    passwordHash: item.passwordHash,
    createdAt: Number(item.createdAt) || 0,
  };
}

/** Builds the administrator repository on `client` and `tableName`. */
export function createAdminRepository(client: DynamoDBDocumentClient, tableName: string): AdminRepository {
  const find = async (email: string) => {
    const output = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.admin(email), ConsistentRead: true }),
    );
    return toAccount(output.Item);
  };

  return {
    find,

    async update(email, id, changes) {
      const set: string[] = [];
      const remove: string[] = [];
      const names: Record<string, string> = { '#id': 'id' };
      const values: Record<string, unknown> = { ':id': id };
      const assign = (name: string, value: unknown) => {
        names[`#${name}`] = name;
        values[`:${name}`] = value;
        set.push(`#${name} = :${name}`);
      };
      if (changes.displayName !== undefined) assign('displayName', changes.displayName);
      if (changes.link === '') {
        names['#link'] = 'link';
        remove.push('#link');
      } else if (changes.link !== undefined) {
        assign('link', changes.link);
      }
      if (changes.password) {
        assign('passwordHash', changes.password.passwordHash);
        values[':newId'] = changes.password.id;
        set.push('#id = :newId');
      }
      if (set.length === 0 && remove.length === 0) {
        // Nothing to write (an UpdateItem needs an expression): the account as it is, if still the same.
        const account = await find(email);
        return account?.id === id ? account : undefined;
      }
      try {
        const output = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.admin(email),
            UpdateExpression: [
              set.length > 0 ? `SET ${set.join(', ')}` : '',
              remove.length > 0 ? `REMOVE ${remove.join(', ')}` : '',
            ]
              .filter(Boolean)
              .join(' '),
            // Only the account the token was checked against: an update never recreates an account removed
            // meanwhile (an UpdateItem on a missing key would), nor changes one added again since.
            ConditionExpression: 'attribute_exists(pk) AND #id = :id',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_NEW',
          }),
        );
        return toAccount(output.Attributes);
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return undefined;
        throw error;
      }
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
      const pages = paginateScan(
        { client },
        {
          TableName: tableName,
          // A filter still reads every item; only accounts, and no password hash, travel back.
          FilterExpression: '#entity = :admin',
          ...projection(['id', 'email', 'displayName', 'createdAt'], { '#entity': 'entity' }),
          ExpressionAttributeValues: { ':admin': entities.admin },
        },
      );
      for await (const page of pages) {
        for (const item of page.Items ?? []) {
          accounts.push({
            id: String(item.id),
            email: String(item.email),
            displayName: String(item.displayName ?? ''),
            createdAt: Number(item.createdAt) || 0,
          });
        }
      }
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
