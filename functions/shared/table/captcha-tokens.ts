import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { attributes, entities, keys } from './keys.js';

/**
 * Records a captcha token (its keyed hash: spam/captcha-token-hash.ts) as used at `at` (ms); false when it was
 * recorded before, so the token is being used again.
 */
export type ClaimCaptchaToken = (tokenHash: string, at: number) => Promise<boolean>;

/**
 * How long a used token is remembered. Providers refuse a token after its life (Turnstile's 5 minutes,
 * reCAPTCHA's 2) on their own; an hour covers both with room, and TTL deletes the mark afterwards.
 */
export const usedTokenMemoryMs = 60 * 60 * 1000;

/** Builds the single-use check of captcha tokens on `client` and `tableName`. */
export function createCaptchaTokenClaimer(
  client: DynamoDBDocumentClient,
  tableName: string,
): ClaimCaptchaToken {
  return async (tokenHash, at) => {
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.captchaToken(tokenHash),
            entity: entities.captchaToken,
            usedAt: at,
            [attributes.expiresAt]: Math.ceil((at + usedTokenMemoryMs) / 1000),
          },
          // Only where no mark is: of two requests with one token, exactly one writes it, the other is refused.
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  };
}
