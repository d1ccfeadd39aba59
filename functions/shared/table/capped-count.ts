import type { Key } from './keys.js';
import { attributes } from './keys.js';

/** One counting window of a cap: its item, the cap, when the item expires, and its entity. */
export interface CappedWindow {
  readonly key: Key;
  readonly cap: number;
  /** Epoch seconds: a little past the window, then the count is left to expire (never reset). */
  readonly expiresAt: number;
  readonly entity: string;
}

/**
 * The Update (for a transaction) that counts one more in `window`, only while its count is below the cap:
 * the per-address caps (mail-guards.ts) and the site-wide ones (site-mail-caps.ts) are such windows.
 */
export function cappedCountUpdate(tableName: string, window: CappedWindow) {
  return {
    Update: {
      TableName: tableName,
      Key: window.key,
      // ADD counts in place: two senders at once each take their own slot, never the same one.
      UpdateExpression: 'SET #entity = :entity, #expiresAt = :expiresAt ADD #count :one',
      // Below the cap only; in a transaction, every window of the mail is counted together or none is.
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :cap',
      ExpressionAttributeNames: {
        '#entity': 'entity',
        '#expiresAt': attributes.expiresAt,
        '#count': 'count',
      },
      ExpressionAttributeValues: {
        ':entity': window.entity,
        ':expiresAt': window.expiresAt,
        ':one': 1,
        ':cap': window.cap,
      },
    },
  };
}
