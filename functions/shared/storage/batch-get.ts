import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Key } from './keys.js';

/** BatchGetItem takes at most 100 keys a request. */
const keysPerRequest = 100;
const unprocessedAttempts = 6;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  // Only the keys and the asked-for counters travel back.
  const names = Object.fromEntries(
    [...new Set(['pk', 'sk', ...attributeNames])].map((name, i) => [`#a${i}`, name]),
  );
  const projection = Object.keys(names).join(', ');
  for (let start = 0; start < distinct.length; start += keysPerRequest) {
    let pending: Record<string, unknown>[] = distinct
      .slice(start, start + keysPerRequest)
      .map((k) => ({ ...k }));
    for (let attempt = 1; pending.length > 0; attempt++) {
      const output = await client.send(
        new BatchGetCommand({
          RequestItems: {
            [tableName]: {
              Keys: pending,
              ProjectionExpression: projection,
              ExpressionAttributeNames: names,
              ...(options.consistent ? { ConsistentRead: true } : {}),
            },
          },
        }),
      );
      for (const item of output.Responses?.[tableName] ?? []) {
        found.set(keyId(item as unknown as Key), item);
      }
      pending = output.UnprocessedKeys?.[tableName]?.Keys ?? [];
      if (pending.length > 0) {
        if (attempt >= unprocessedAttempts)
          throw new Error('BatchGetItem left keys unprocessed after retries');
        await pause(Math.random() * 50 * 2 ** attempt);
      }
    }
  }
  return found;
}

/** A string identity for a key, to match responses with requests. */
export function keyId(key: Key): string {
  return `${key.pk}\u0000${key.sk}`;
}
