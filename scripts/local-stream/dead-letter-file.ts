/**
 * Local mode's on-failure destination: where the event source mapping would send an SQS message for a
 * batch it gave up on, the poller appends the same message, one JSON object a line. Like Lambda's, it
 * describes the batch (shard, sequence range, why) and holds none of the records: the outbox event stays
 * `pending` or `failed` in the table, for the sweep or `/ui` to re-drive.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Why the mapping gave up on a batch (Lambda's `requestContext.condition`). */
export type DeadLetterCondition = 'RetryAttemptsExhausted' | 'RecordAgeExceeded';

/** The on-failure message of a DynamoDB stream mapping, as Lambda writes it. */
export interface DeadLetter {
  readonly requestContext: {
    readonly requestId: string;
    readonly functionArn: string;
    readonly condition: DeadLetterCondition;
    readonly approximateInvokeCount: number;
  };
  readonly responseContext: {
    readonly statusCode: number;
    readonly executedVersion: string;
    /** `Unhandled` when the function threw; absent when it reported the records as failed. */
    readonly functionError?: string;
  };
  readonly version: '1.0';
  readonly timestamp: string;
  readonly DDBStreamBatchInfo: {
    readonly shardId: string;
    readonly startSequenceNumber: string;
    readonly endSequenceNumber: string;
    readonly approximateArrivalOfFirstRecord: string;
    readonly approximateArrivalOfLastRecord: string;
    readonly batchSize: number;
    readonly streamArn: string;
  };
}

/** Appends `deadLetter` to the file at `path` (created with its folder when missing). */
export async function appendDeadLetter(path: string, deadLetter: DeadLetter): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, `${JSON.stringify(deadLetter)}\n`);
}
