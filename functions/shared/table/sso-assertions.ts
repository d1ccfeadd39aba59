import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { attributes, entities, keys } from './keys.js';

/**
 * Records the single sign-on assertion `jti` of `issuer` (who vouched: `sso:site` or `oidc:<issuer>`)
 * as exchanged at `at` (ms); false when it was exchanged before, so the assertion is being replayed. The mark
 * is kept until `expiresAtSeconds` (the assertion's `exp` plus the clock skew allowed), when the assertion would
 * be refused as expired anyway, and TTL deletes it.
 */
export type ClaimSsoAssertion = (
  issuer: string,
  jti: string,
  at: number,
  expiresAtSeconds: number,
) => Promise<boolean>;

/**
 * The hash a used assertion is kept under: SHA-256 of its issuer and `jti`, so that two issuers' `jti` never
 * collide and the item's key stays short whatever the `jti` is. Not keyed: a `jti` is no secret.
 */
export function usedSsoAssertionHash(issuer: string, jti: string): string {
  return createHash('sha256')
    .update(JSON.stringify([issuer, jti]))
    .digest('base64url');
}

/** Builds the single-use check of SSO assertions on `client` and `tableName`. */
export function createSsoAssertionClaimer(
  client: DynamoDBDocumentClient,
  tableName: string,
): ClaimSsoAssertion {
  return async (issuer, jti, at, expiresAtSeconds) => {
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.usedSsoAssertion(usedSsoAssertionHash(issuer, jti)),
            entity: entities.usedSsoAssertion,
            usedAt: at,
            [attributes.expiresAt]: expiresAtSeconds,
          },
          // Only where no mark is: of two exchanges of one assertion, exactly one writes it, the other is refused.
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
