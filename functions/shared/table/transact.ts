import {
  type AttributeValue,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { UpgradeRequiredError } from '../domain/errors.js';
import { type RetryPolicy, retry } from '../retry.js';
import { carriesLayoutGuard } from './layout.js';

/**
 * The outcome of a transaction: done, or refused with the index of each failed condition and, for an
 * item sent with `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`, the item as it was (raw attribute
 * values, at the same index).
 */
export type TransactOutcome =
  | { ok: true }
  | {
      ok: false;
      failedConditions: number[];
      oldItems: (Record<string, AttributeValue> | undefined)[];
    };

/**
 * How a write that lost a race against a transaction, or was throttled, is tried again: 8 tries, waits
 * below 50 ms doubling to at most a second (a hot counter item clears in milliseconds).
 */
const conflictPolicy = { attempts: 8, firstDelayMs: 50, maxDelayMs: 1000 } satisfies RetryPolicy<unknown>;

/**
 * Cancellation reasons that say nothing about the items, only about the moment: another transaction
 * held one of them, or a hot item (the site counters, a viral page) was throttled. The SDK retries
 * neither inside a TransactionCanceledException.
 */
const transientReasons: ReadonlySet<string> = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

/** True for a cancellation that only a concurrent transaction or throttling caused. */
const isTransientCancellation = (error: unknown) =>
  error instanceof TransactionCanceledException &&
  (error.CancellationReasons ?? []).some(
    (reason) => reason.Code !== undefined && transientReasons.has(reason.Code),
  );

/**
 * Runs a single-item write (UpdateItem) again when it collided with a transaction in flight on the
 * same item (TransactionConflictException, which the SDK does not retry). The write had no effect,
 * so trying again never counts twice.
 */
export async function retryOnConflict<T>(write: () => Promise<T>): Promise<T> {
  return retry(() => write(), {
    ...conflictPolicy,
    retryError: (error) => error instanceof TransactionConflictException,
  });
}

/**
 * Sends a TransactWriteItems. A cancellation caused by a concurrent transaction on the same item or
 * by throttling (hot counters) is retried with jittered backoff; the items are identical on each try
 * and the transaction is all-or-nothing, so a retry never writes twice. A cancellation by a failed
 * condition is returned, not thrown, with the indexes of the failed items; a refusal by the layout guard
 * (layout.ts) throws UpgradeRequiredError.
 */
export async function transactWrite(
  client: DynamoDBDocumentClient,
  input: TransactWriteCommandInput,
): Promise<TransactOutcome> {
  return retry(
    async (): Promise<TransactOutcome> => {
      try {
        await client.send(new TransactWriteCommand(input));
        return { ok: true };
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        const failedConditions = reasons.flatMap((reason, index) =>
          reason.Code === 'ConditionalCheckFailed' ? [index] : [],
        );
        // The site counters refused: the table is of the previous layout, and nothing was written.
        if (failedConditions.some((index) => carriesLayoutGuard(input.TransactItems?.[index]))) {
          throw new UpgradeRequiredError(undefined);
        }
        if (failedConditions.length > 0) {
          return { ok: false, failedConditions, oldItems: reasons.map((reason) => reason.Item) };
        }
        throw error;
      }
    },
    { ...conflictPolicy, retryError: isTransientCancellation },
  );
}
