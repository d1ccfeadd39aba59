import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { attributes } from '../../../functions/shared/storage/keys.js';

/** BatchWriteItem takes at most 25 requests. */
const itemsPerRequest = 25;

/** How a bulk write retries what DynamoDB leaves unprocessed (throttling) or fails with a transient error. */
export interface BulkWriteOptions {
  /** Tries of one batch before giving up; defaults to 10. */
  readonly attempts?: number;
  /** Base delay of the exponential backoff, in ms; defaults to 50. */
  readonly baseDelayMs?: number;
  /** Called after each batch with the number of items written so far. */
  readonly onProgress?: (written: number) => void;
  /** Waits `ms`; injected so tests need not sleep. */
  readonly sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Puts `items` into `tableName`, 25 per BatchWriteItem. Items DynamoDB leaves unprocessed are sent
 * again with exponential backoff and full jitter. A key named twice in one request is put once (the
 * last item). Puts are not conditional: callers write only
 * items whose content is deterministic, so a retry or a rerun rewrites the same values.
 */
export async function putAll(
  client: DynamoDBDocumentClient,
  tableName: string,
  items: readonly Record<string, unknown>[],
  options: BulkWriteOptions = {},
): Promise<void> {
  const attempts = options.attempts ?? 10;
  const baseDelayMs = options.baseDelayMs ?? 50;
  const sleep = options.sleep ?? pause;
  let written = 0;
  for (let start = 0; start < items.length; start += itemsPerRequest) {
    const batch = items.slice(start, start + itemsPerRequest);
    let pending = [...distinctKeys(batch)].map((item) => ({ PutRequest: { Item: item } }));
    for (let attempt = 1; pending.length > 0; attempt++) {
      let unprocessed: typeof pending;
      try {
        const output = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        unprocessed = (output.UnprocessedItems?.[tableName] ?? []) as typeof pending;
      } catch (error) {
        // Throttling and 5xx errors the SDK gave up on: the whole batch is sent again.
        if (!isRetryable(error) || attempt >= attempts) throw error;
        unprocessed = pending;
      }
      if (unprocessed.length > 0) {
        if (attempt >= attempts) {
          throw new Error(
            `BatchWriteItem left ${unprocessed.length} items unprocessed after ${attempts} tries`,
          );
        }
        await sleep(Math.random() * Math.min(20_000, baseDelayMs * 2 ** attempt));
      }
      pending = unprocessed;
    }
    written += batch.length;
    options.onProgress?.(written);
  }
}

/**
 * The items of one request with one item per key, the last one winning as it would in separate
 * puts: DynamoDB refuses a whole BatchWriteItem that names a key twice.
 */
function distinctKeys(batch: readonly Record<string, unknown>[]): Iterable<Record<string, unknown>> {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const item of batch) {
    const key = JSON.stringify([item[attributes.pk], item[attributes.sk]]);
    byKey.delete(key);
    byKey.set(key, item);
  }
  return byKey.values();
}

function isRetryable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
  return (
    status >= 500 ||
    ['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded'].includes(
      error.name,
    )
  );
}
