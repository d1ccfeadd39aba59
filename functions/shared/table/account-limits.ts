import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type AccountAttempt, attributes, entities, keys } from './keys.js';

/**
 * The counters and marks that keep the account life cycle (registration, confirmation, reset) cheap to refuse:
 * registrations per IP, account mails per address, and account links used once. Every item expires (TTL);
 * none holds an address or an IP, only their keyed hashes.
 */
export interface AccountLimits {
  /**
   * Counts one `action` (a registration or a reset request from the network `subjectHash`; a check of the
   * current password of the account `subjectHash`) in `window` and answers how many there were in it, this one
   * included; the counter expires at `expiresAtSeconds`.
   */
  countAttempt(
    action: AccountAttempt,
    subjectHash: string,
    window: number,
    expiresAtSeconds: number,
  ): Promise<number>;
  /**
   * Takes one of `max` slots of account mail `window` (`<kind>#<window>`) for `addressHash`; false (nothing
   * written) when all are taken. The slot expires at `expiresAtSeconds`.
   */
  takeMailSlot(addressHash: string, window: string, max: number, expiresAtSeconds: number): Promise<boolean>;
  /**
   * Records the account link `tokenHash` as used; false when it was used before. The mark outlives the link
   * (`expiresAtSeconds`, the link's own expiry or later).
   */
  claimLink(tokenHash: string, at: number, expiresAtSeconds: number): Promise<boolean>;
}

/** Builds the account limits on `client` and `tableName`. */
export function createAccountLimits(client: DynamoDBDocumentClient, tableName: string): AccountLimits {
  const conditionFailed = (error: unknown) => {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  };
  return {
    async countAttempt(action, subjectHash, window, expiresAtSeconds) {
      const output = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.accountAttempts(subjectHash, action, window),
          // One counter per IP and window, added to atomically; TTL removes old windows.
          UpdateExpression: 'ADD attempts :one SET #entity = :entity, #expires = :expires',
          ExpressionAttributeNames: { '#entity': 'entity', '#expires': attributes.expiresAt },
          ExpressionAttributeValues: {
            ':one': 1,
            ':entity': entities.accountAttempts,
            ':expires': expiresAtSeconds,
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const attempts: unknown = output.Attributes?.attempts;
      return typeof attempts === 'number' ? attempts : 1;
    },
    async takeMailSlot(addressHash, window, max, expiresAtSeconds) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.accountMailCount(addressHash, window),
            // Counted only below the cap: of two requests racing for the last slot, one gets it.
            UpdateExpression: 'ADD mails :one SET #entity = :entity, #expires = :expires',
            ConditionExpression: 'attribute_not_exists(mails) OR mails < :max',
            ExpressionAttributeNames: { '#entity': 'entity', '#expires': attributes.expiresAt },
            ExpressionAttributeValues: {
              ':one': 1,
              ':max': max,
              ':entity': entities.accountMailCount,
              ':expires': expiresAtSeconds,
            },
          }),
        );
        return true;
      } catch (error) {
        return conditionFailed(error);
      }
    },
    async claimLink(tokenHash, at, expiresAtSeconds) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...keys.usedLink(tokenHash),
              entity: entities.usedLink,
              usedAt: at,
              [attributes.expiresAt]: expiresAtSeconds,
            },
            // Only where no mark is: of two requests with one link, exactly one writes it, the other is refused.
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        return conditionFailed(error);
      }
    },
  };
}
