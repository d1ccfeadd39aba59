import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGet, keyId } from './batch-get.js';
import { cappedCountUpdate } from './capped-count.js';
import { entities, keys, type SuppressionScope } from './keys.js';
import { transactWrite } from './transact.js';

/** The most notices one address receives per hour and per day (NOTIFY_CAP_PER_HOUR, NOTIFY_CAP_PER_DAY). */
export interface NotifyCaps {
  readonly perHour: number;
  readonly perDay: number;
}

/** What is checked before a mail goes to an address (kept as its hash: notify/address-hash.ts). */
export interface MailGuards {
  /**
   * The suppression that stops mail to `addressHash`: the whole site's, else the thread `rootId`'s (when
   * given), else undefined.
   */
  suppression(addressHash: string, rootId?: string): Promise<SuppressionScope['kind'] | undefined>;
  /**
   * Counts one notice to `addressHash` in the hour and the day of `at`, both or neither; false (nothing
   * counted) when either is already at its cap.
   */
  takeCapSlot(addressHash: string, at: number, caps: NotifyCaps): Promise<boolean>;
}

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** Builds the mail guards on `client` and `tableName`. */
export function createMailGuards(client: DynamoDBDocumentClient, tableName: string): MailGuards {
  return {
    async suppression(addressHash, rootId) {
      const site = keys.suppression(addressHash, { kind: 'site' });
      const thread =
        rootId === undefined ? undefined : keys.suppression(addressHash, { kind: 'thread', rootId });
      const found = await batchGet(client, tableName, thread ? [site, thread] : [site], ['entity']);
      if (found.has(keyId(site))) return 'site';
      if (thread && found.has(keyId(thread))) return 'thread';
      return undefined;
    },

    async takeCapSlot(addressHash, at, caps) {
      const time = new Date(at).toISOString();
      const windows = [
        // Each window is its own item, named by its hour or day, so an old count is never reset, only left to expire.
        {
          window: `H#${time.slice(0, 13)}`,
          cap: caps.perHour,
          expiresAt: Math.ceil((at + 2 * hourMs) / 1000),
        },
        { window: `D#${time.slice(0, 10)}`, cap: caps.perDay, expiresAt: Math.ceil((at + 2 * dayMs) / 1000) },
      ];
      const outcome = await transactWrite(client, {
        // The hour's and the day's slot together or neither.
        TransactItems: windows.map(({ window, cap, expiresAt }) =>
          cappedCountUpdate(tableName, {
            key: keys.notifyCap(addressHash, window),
            cap,
            expiresAt,
            entity: entities.notifyCap,
          }),
        ),
      });
      return outcome.ok;
    },
  };
}
