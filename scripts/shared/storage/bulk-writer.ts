import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { retry } from '../../../functions/shared/retry.js';
import { attributes } from '../../../functions/shared/table/keys.js';

/** BatchWriteItem takes at most 25 requests. */
const itemsPerRequest = 25;

/** How a bulk write retries what DynamoDB leaves unprocessed (throttling) or fails with a transient error. */
export interface BulkWriteOptions {
  /** Tries of one batch before giving up; defaults to 10. */
  readonly attempts?: number;
  /** The ceiling of the first wait, in ms; it doubles after each try, up to 20 s; defaults to 100. */
  readonly firstDelayMs?: number;
  /** Called after each batch with the number of items written so far. */
  readonly onProgress?: (written: number) => void;
  /** Waits `ms`; injected so tests need not sleep. */
  readonly sleep?: (ms: number) => Promise<void>;
}

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
  let written = 0;
  for (let start = 0; start < items.length; start += itemsPerRequest) {
    const batch = items.slice(start, start + itemsPerRequest);
    let pending = [...distinctKeys(batch)].map((item) => ({ PutRequest: { Item: item } }));
    const left = await retry(
      async () => {
        const output = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = (output.UnprocessedItems?.[tableName] ?? []) as typeof pending;
        return pending;
      },
      {
        attempts,
        firstDelayMs: options.firstDelayMs ?? 100,
        maxDelayMs: 20_000,
        // Throttling and 5xx errors the SDK gave up on: what is still pending is sent again, whole.
        retryError: isRetryable,
        retryResult: (unprocessed) => unprocessed.length > 0,
        sleep: options.sleep,
      },
    );
    if (left.length > 0) {
      throw new Error(`BatchWriteItem left ${left.length} items unprocessed after ${attempts} tries`);
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
