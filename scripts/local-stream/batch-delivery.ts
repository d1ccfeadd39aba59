/**
 * What Lambda's event source mapping does with one batch of stream records (reference: notifications.md
 * §4.2): invoke the function; on success move past the batch; on a partial batch response move to just
 * before the lowest failed record and retry from there; on an error split the batch in halves (which costs
 * no retry) down to the failing record, then retry it; when the retries run out or a record grows too old,
 * write the on-failure message and move on.
 */
import { notifierSchedule } from '../../functions/notify/stream-settings.js';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { DeadLetterCondition } from './dead-letter-file.js';
import { localLambdaContext } from './lambda-context.js';

/** The notifier's timeout on AWS (getRemainingTimeInMillis counts down from it). */
const notifierTimeoutMs = notifierSchedule.timeoutSeconds * 1000;

/** A function a stream mapping invokes: Lambda's DynamoDB stream handler. */
export type StreamHandler = (
  event: DynamoDBStreamEvent,
  context: Context,
) => Promise<DynamoDBBatchResponse | undefined | void>;

/** The mapping's settings that shape delivery (functions/notify/stream-settings.ts gives the values). */
export interface MappingSettings {
  readonly batchSize: number;
  readonly retryAttempts: number;
  readonly maxRecordAgeSeconds: number;
  readonly bisectBatchOnError: boolean;
  readonly reportBatchItemFailures: boolean;
}

/** What one batch is delivered with. */
export interface BatchDeliveryOptions {
  readonly handler: StreamHandler;
  readonly settings: MappingSettings;
  /** The function's name, as its invocation context carries it. */
  readonly functionName: string;
  /** Records the checkpoint: every record up to and including `record` is done. */
  advance(record: DynamoDBRecord): Promise<void>;
  /** Writes the on-failure message for `records`, given up on. */
  deadLetter(
    records: readonly DynamoDBRecord[],
    condition: DeadLetterCondition,
    invocations: number,
    functionError: boolean,
  ): Promise<void>;
  /** Waits `ms` before a retry; false when the poller is stopping instead. */
  wait(ms: number): Promise<boolean>;
  /** How long to wait before retry number `retry` (1, 2, ...). */
  retryDelayMs(retry: number): number;
  /** True once the poller is stopping: no new invocation starts. */
  stopping(): boolean;
  now(): number;
  /** Reports a failed invocation (its message only). */
  log(message: string): void;
}

/** A run of records still to deliver, with the retries it has had. */
interface PendingRun {
  readonly records: readonly DynamoDBRecord[];
  readonly retries: number;
  readonly invocations: number;
}

/** How one invocation ended. */
type Outcome =
  | { readonly kind: 'success' }
  | { readonly kind: 'error' }
  /** The index in the batch of the lowest record the function reported as failed. */
  | { readonly kind: 'partial'; readonly firstFailed: number };

/**
 * Delivers `batch` until every record is done (handled or dead-lettered): true, or false when the poller
 * began stopping first (the checkpoint then marks how far it got).
 */
export async function deliverBatch(
  batch: readonly DynamoDBRecord[],
  options: BatchDeliveryOptions,
): Promise<boolean> {
  const { settings } = options;
  const runs: PendingRun[] = [{ records: batch, retries: 0, invocations: 0 }];
  while (runs.length > 0) {
    if (options.stopping()) return false;
    const run = await dropExpired(runs[0] as PendingRun, options);
    if (run.records.length === 0) {
      runs.shift();
      continue;
    }
    const outcome = await invoke(run.records, options);
    const invocations = run.invocations + 1;
    const last = run.records.at(-1) as DynamoDBRecord;
    if (outcome.kind === 'success') {
      await options.advance(last);
      runs.shift();
      continue;
    }
    if (outcome.kind === 'error' && settings.bisectBatchOnError && run.records.length > 1) {
      // Splitting a failing batch costs no retry: each half keeps the count the whole had.
      const half = Math.ceil(run.records.length / 2);
      runs.splice(
        0,
        1,
        { records: run.records.slice(0, half), retries: run.retries, invocations: 0 },
        { records: run.records.slice(half), retries: run.retries, invocations: 0 },
      );
      continue;
    }
    let failed = run.records;
    if (outcome.kind === 'partial') {
      const before = run.records[outcome.firstFailed - 1];
      if (before) await options.advance(before);
      failed = run.records.slice(outcome.firstFailed);
    }
    if (run.retries >= settings.retryAttempts) {
      await options.deadLetter(failed, 'RetryAttemptsExhausted', invocations, outcome.kind === 'error');
      await options.advance(last);
      runs.shift();
      continue;
    }
    const retries = run.retries + 1;
    runs[0] = { records: failed, retries, invocations };
    if (!(await options.wait(options.retryDelayMs(retries)))) return false;
  }
  return true;
}

/** Dead-letters the records of `run` older than the mapping's maximum age (a prefix: records come in order). */
async function dropExpired(run: PendingRun, options: BatchDeliveryOptions): Promise<PendingRun> {
  const oldest = options.now() / 1000 - options.settings.maxRecordAgeSeconds;
  const expired = run.records.findIndex(
    (record) => (record.dynamodb?.ApproximateCreationDateTime ?? 0) >= oldest,
  );
  const count = expired === -1 ? run.records.length : expired;
  if (count === 0) return run;
  const stale = run.records.slice(0, count);
  await options.deadLetter(stale, 'RecordAgeExceeded', run.invocations, false);
  await options.advance(stale.at(-1) as DynamoDBRecord);
  return { ...run, records: run.records.slice(count) };
}

async function invoke(records: readonly DynamoDBRecord[], options: BatchDeliveryOptions): Promise<Outcome> {
  let response: DynamoDBBatchResponse | undefined | void;
  try {
    response = await options.handler(
      { Records: [...records] },
      localLambdaContext({
        functionName: options.functionName,
        timeoutMs: notifierTimeoutMs,
        memoryLimitInMB: 256,
      }),
    );
  } catch (error) {
    options.log(
      `${options.functionName} failed on ${records.length} stream record(s): ${error instanceof Error ? error.message : String(error)}`,
    );
    return { kind: 'error' };
  }
  if (!options.settings.reportBatchItemFailures) return { kind: 'success' };
  const failures = response?.batchItemFailures ?? [];
  if (failures.length === 0) return { kind: 'success' };
  const sequences = records.map((record) => record.dynamodb?.SequenceNumber);
  const positions = failures.map((failure) =>
    typeof failure?.itemIdentifier === 'string' && failure.itemIdentifier !== ''
      ? sequences.indexOf(failure.itemIdentifier)
      : -1,
  );
  // As Lambda does, an identifier that names no record of the batch fails the batch as a whole.
  if (positions.includes(-1)) {
    options.log(`${options.functionName} reported a failure that names no record of its batch`);
    return { kind: 'error' };
  }
  return { kind: 'partial', firstFailed: Math.min(...positions) };
}
