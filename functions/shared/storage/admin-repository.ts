import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { attributes, entities, keys } from './keys.js';

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
  /** Counts one sign-in attempt of an IP in a time window and returns the window's total. */
  countSignInAttempt(ipHash: string, window: number, expiresAtSeconds: number): Promise<number>;
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
  };
}
