import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { retry } from '../retry.js';
import type { Key } from './keys.js';
import { projection } from './projection.js';

/** BatchGetItem takes at most 100 keys a request. */
const keysPerRequest = 100;

/** Unprocessed keys (throttling) are asked for again: 6 tries, waits below 100 ms doubling each time. */
const unprocessedPolicy = { attempts: 6, firstDelayMs: 100 } as const;

/**
 * Reads the items at `keys` (duplicates allowed) and returns them by `pk`/`sk`, one BatchGetItem per
 * 100 distinct keys. Keys DynamoDB leaves unprocessed (throttling) are asked for again with backoff.
 * `consistent` reads what was just written (at twice the read cost).
 */
export async function batchGet(
  client: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Key[],
  attributeNames: readonly string[],
  options: { readonly consistent?: boolean } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  const distinct = [...new Map(keys.map((key) => [keyId(key), key])).values()];
  // Only the keys and the asked-for attributes travel back.
  const projected = projection(['pk', 'sk', ...attributeNames]);
  for (let start = 0; start < distinct.length; start += keysPerRequest) {
    let pending: Record<string, unknown>[] = distinct
      .slice(start, start + keysPerRequest)
      .map((k) => ({ ...k }));
    const left = await retry(
      async () => {
        const output = await client.send(
          new BatchGetCommand({
            RequestItems: {
              [tableName]: {
                Keys: pending,
                ...projected,
                ...(options.consistent ? { ConsistentRead: true } : {}),
              },
            },
          }),
        );
        for (const item of output.Responses?.[tableName] ?? []) {
          found.set(keyId(item as unknown as Key), item);
        }
        pending = output.UnprocessedKeys?.[tableName]?.Keys ?? [];
        return pending;
      },
      { ...unprocessedPolicy, retryResult: (unprocessed) => unprocessed.length > 0 },
    );
    if (left.length > 0) throw new Error('BatchGetItem left keys unprocessed after retries');
  }
  return found;
}

/** A string identity for a key, to match responses with requests. */
export function keyId(key: Key): string {
  return `${key.pk}\u0000${key.sk}`;
}
