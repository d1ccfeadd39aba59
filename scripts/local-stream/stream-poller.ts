/**
 * Local mode's event source mapping: reads a table's stream on DynamoDB Local as Lambda reads it on AWS
 * (reference: notifications.md §5.2) and hands the records that pass the filter to a stream handler, in
 * batches, with the mapping's retries, bisection, partial batch failures and on-failure destination
 * (batch-delivery.ts). Its position per shard is kept in a checkpoint file, so a restart resumes after the
 * last record handled and sends nothing twice; with no checkpoint it starts at the oldest record kept
 * (TRIM_HORIZON), as the stack's mapping does.
 */
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { passesOutboxFilter, streamSettings } from '../../functions/notify/stream-settings.js';
import { deliverBatch, type MappingSettings, type StreamHandler } from './batch-delivery.js';
import { type Checkpoint, createCheckpointFile } from './checkpoint-file.js';
import { appendDeadLetter, type DeadLetterCondition } from './dead-letter-file.js';
import { toLambdaRecord } from './lambda-record.js';

/** What the poller reads, whom it calls, and where it keeps its state. */
export interface StreamPollerOptions {
  /** For DescribeTable: the table names its current stream. */
  readonly dynamoDb: DynamoDBClient;
  readonly streams: DynamoDBStreamsClient;
  readonly tableName: string;
  readonly handler: StreamHandler;
  /** The JSON file of the last record handled per shard. */
  readonly checkpointPath: string;
  /** The JSON-lines file the on-failure messages are appended to. */
  readonly deadLetterPath: string;
  /** The function's name in its invocation context and in log lines. */
  readonly functionName?: string;
  /** Which records invoke the handler; default: the notifier's filter (stream-settings.ts). */
  readonly filter?: (record: DynamoDBRecord) => boolean;
  /** Default: the stack's (stream-settings.ts). */
  readonly settings?: Partial<MappingSettings>;
  /** Between two reads of a shard; Lambda reads 4 times a second. */
  readonly pollIntervalMs?: number;
  /** How long a batch short of `batchSize` waits for more records; default: the stack's batching window. */
  readonly batchingWindowMs?: number;
  /** Before the first retry of a failed batch; each further retry waits twice as long, up to `maxRetryDelayMs`. */
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
  /** How often the stream's shards are listed again (new shards appear as old ones close). */
  readonly discoveryIntervalMs?: number;
  readonly now?: () => number;
  /** Where failures are told; never handed a record. */
  readonly log?: (message: string) => void;
}

/** A running poller. */
export interface StreamPoller {
  /** The stream being read. */
  readonly streamArn: string;
  /** Stops reading once the batch being delivered is done (its checkpoint written). */
  stop(): Promise<void>;
}

/** Shard iterators expire after 15 minutes; one older than this is fetched again from the checkpoint. */
const iteratorLifetimeMs = 10 * 60 * 1000;
/** Most records one GetRecords returns. */
const recordsPerRead = 1000;
/** Wait after a failed read (DynamoDB Local restarting, say) before the next. */
const errorPauseMs = 1000;

/** One shard as the poller follows it. */
interface ShardState {
  readonly shardId: string;
  readonly parentShardId: string | undefined;
  iterator: string | undefined;
  iteratorAt: number;
  /** Records read and not yet handled, oldest first. */
  buffer: DynamoDBRecord[];
  /** When the oldest record of the buffer that passes the filter was read: the batching window's start. */
  windowStart: number | undefined;
  /** The shard is closed and every record of it has been read. */
  exhausted: boolean;
}

/**
 * Starts reading the stream of `tableName` (resolving once its shards are listed: a table with no stream
 * is an error here) and returns the running poller.
 */
export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const settings: MappingSettings = { ...streamSettings, ...options.settings };
  const functionName = options.functionName ?? 'notify';
  const filter = options.filter ?? passesOutboxFilter;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const batchingWindowMs = options.batchingWindowMs ?? streamSettings.maxBatchingWindowSeconds * 1000;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const discoveryIntervalMs = options.discoveryIntervalMs ?? 10_000;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((message: string) => console.error(message));
  const checkpointFile = createCheckpointFile(options.checkpointPath);

  const streamArn = await latestStreamArn(options.dynamoDb, options.tableName);
  let checkpoint: Checkpoint = await checkpointFile.load(streamArn);
  const shards = new Map<string, ShardState>();
  let discoveredAt = 0;
  let stopping = false;
  let wake: () => void = () => {};

  /** Sleeps `ms`, or less when the poller stops; false when it is stopping. */
  function wait(ms: number): Promise<boolean> {
    if (stopping) return Promise.resolve(false);
    return new Promise((resolveWait) => {
      const timer = setTimeout(() => resolveWait(!stopping), ms);
      wake = () => {
        clearTimeout(timer);
        resolveWait(false);
      };
    });
  }

  async function saveCheckpoint(next: Checkpoint): Promise<void> {
    checkpoint = next;
    await checkpointFile.save(next);
  }

  async function advance(shard: ShardState, record: DynamoDBRecord): Promise<void> {
    const sequence = record.dynamodb?.SequenceNumber;
    if (!sequence || checkpoint.shards[shard.shardId] === sequence) return;
    await saveCheckpoint({ ...checkpoint, shards: { ...checkpoint.shards, [shard.shardId]: sequence } });
  }

  async function discover(): Promise<void> {
    const listed: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription: description } = await options.streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      listed.push(...(description?.Shards ?? []));
      exclusiveStartShardId = description?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    for (const shard of listed) {
      if (!shard.ShardId || shards.has(shard.ShardId) || checkpoint.finishedShards.includes(shard.ShardId)) {
        continue;
      }
      shards.set(shard.ShardId, {
        shardId: shard.ShardId,
        parentShardId: shard.ParentShardId,
        iterator: undefined,
        iteratorAt: 0,
        buffer: [],
        windowStart: undefined,
        exhausted: false,
      });
    }
    discoveredAt = now();
  }

  /** A child shard waits until its parent (if the stream still lists it) is read to its end. */
  function readyShards(): ShardState[] {
    return [...shards.values()].filter((shard) => !shard.parentShardId || !shards.has(shard.parentShardId));
  }

  async function openIterator(shard: ShardState): Promise<void> {
    const after = checkpoint.shards[shard.shardId];
    // Whatever was buffered lies after the checkpoint: it is read again from there.
    shard.buffer = [];
    shard.windowStart = undefined;
    shard.iteratorAt = now();
    if (after) {
      try {
        const { ShardIterator } = await options.streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shard.shardId,
            ShardIteratorType: 'AFTER_SEQUENCE_NUMBER',
            SequenceNumber: after,
          }),
        );
        shard.iterator = ShardIterator;
        return;
      } catch (error) {
        if (!(error instanceof TrimmedDataAccessException)) throw error;
        log(
          `Stream records of shard ${shard.shardId} after the checkpoint were trimmed: reading from the oldest kept`,
        );
      }
    }
    const { ShardIterator } = await options.streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shard.shardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }),
    );
    shard.iterator = ShardIterator;
  }

  async function read(shard: ShardState): Promise<void> {
    if (shard.exhausted) return;
    if (!shard.iterator || now() - shard.iteratorAt > iteratorLifetimeMs) await openIterator(shard);
    if (!shard.iterator) {
      shard.exhausted = true;
      return;
    }
    try {
      const answer = await options.streams.send(
        new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: recordsPerRead }),
      );
      shard.iterator = answer.NextShardIterator;
      shard.iteratorAt = now();
      // A null next iterator: the shard is closed and this was its last page.
      if (!answer.NextShardIterator) shard.exhausted = true;
      const records = (answer.Records ?? []).map((record) => toLambdaRecord(record, streamArn));
      if (shard.windowStart === undefined && records.some(filter)) shard.windowStart = now();
      shard.buffer.push(...records);
    } catch (error) {
      if (error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException) {
        shard.iterator = undefined;
        return;
      }
      throw error;
    }
  }

  async function deadLetter(
    shard: ShardState,
    records: readonly DynamoDBRecord[],
    condition: DeadLetterCondition,
    invocations: number,
    functionError: boolean,
  ): Promise<void> {
    const first = records[0]?.dynamodb;
    const last = records.at(-1)?.dynamodb;
    const arrival = (seconds: number | undefined) => new Date((seconds ?? 0) * 1000).toISOString();
    log(
      `${functionName} gave up on ${records.length} stream record(s) of shard ${shard.shardId} (${condition}); ` +
        `the on-failure message is in ${options.deadLetterPath}`,
    );
    await appendDeadLetter(options.deadLetterPath, {
      requestContext: {
        requestId: randomUUID(),
        functionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
        condition,
        approximateInvokeCount: invocations,
      },
      responseContext: {
        statusCode: 200,
        executedVersion: '$LATEST',
        ...(functionError ? { functionError: 'Unhandled' } : {}),
      },
      version: '1.0',
      timestamp: new Date(now()).toISOString(),
      DDBStreamBatchInfo: {
        shardId: shard.shardId,
        startSequenceNumber: first?.SequenceNumber ?? '',
        endSequenceNumber: last?.SequenceNumber ?? '',
        approximateArrivalOfFirstRecord: arrival(first?.ApproximateCreationDateTime),
        approximateArrivalOfLastRecord: arrival(last?.ApproximateCreationDateTime),
        batchSize: records.length,
        streamArn,
      },
    });
  }

  /** Hands the buffered records of `shard` to the handler; false when the poller began stopping. */
  async function deliver(shard: ShardState): Promise<boolean> {
    for (;;) {
      // Records the filter drops invoke nothing; the checkpoint moves past them.
      const skipped = shard.buffer.findIndex(filter);
      const dropCount = skipped === -1 ? shard.buffer.length : skipped;
      if (dropCount > 0) {
        await advance(shard, shard.buffer[dropCount - 1] as DynamoDBRecord);
        shard.buffer.splice(0, dropCount);
      }
      if (shard.buffer.length === 0) {
        shard.windowStart = undefined;
        return true;
      }
      const batch: DynamoDBRecord[] = [];
      let taken = 0;
      while (taken < shard.buffer.length && batch.length < settings.batchSize) {
        const record = shard.buffer[taken] as DynamoDBRecord;
        if (filter(record)) batch.push(record);
        taken += 1;
      }
      const windowOpen = now() - (shard.windowStart ?? 0) < batchingWindowMs;
      if (batch.length < settings.batchSize && windowOpen && !shard.exhausted) return true;
      const finished = await deliverBatch(batch, {
        handler: options.handler,
        settings,
        functionName,
        advance: (record) => advance(shard, record),
        deadLetter: (records, condition, invocations, functionError) =>
          deadLetter(shard, records, condition, invocations, functionError),
        wait,
        retryDelayMs: (retry) => Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (retry - 1)),
        stopping: () => stopping,
        now,
        log,
      });
      if (!finished) return false;
      // The batch may end with records the filter dropped: the checkpoint moves past them too.
      await advance(shard, shard.buffer[taken - 1] as DynamoDBRecord);
      shard.buffer.splice(0, taken);
      shard.windowStart = shard.buffer.some(filter) ? now() : undefined;
    }
  }

  async function finish(shard: ShardState): Promise<void> {
    shards.delete(shard.shardId);
    await saveCheckpoint({ ...checkpoint, finishedShards: [...checkpoint.finishedShards, shard.shardId] });
    // Its children may start now.
    discoveredAt = 0;
  }

  async function pollOnce(): Promise<boolean> {
    if (now() - discoveredAt >= discoveryIntervalMs) await discover();
    for (const shard of readyShards()) {
      if (stopping) return false;
      await read(shard);
      if (!(await deliver(shard))) return false;
      if (shard.exhausted && shard.buffer.length === 0) await finish(shard);
    }
    return true;
  }

  async function run(): Promise<void> {
    while (!stopping) {
      let pause = pollIntervalMs;
      try {
        if (!(await pollOnce())) return;
      } catch (error) {
        log(
          `Reading the stream of ${options.tableName} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        pause = Math.max(pollIntervalMs, errorPauseMs);
      }
      await wait(pause);
    }
  }

  await discover();
  const running = run();
  return {
    streamArn,
    async stop() {
      stopping = true;
      wake();
      await running;
    },
  };
}

/** The table's current stream (DescribeTable's LatestStreamArn); an error when it has none. */
async function latestStreamArn(dynamoDb: DynamoDBClient, tableName: string): Promise<string> {
  const { Table: table } = await dynamoDb.send(new DescribeTableCommand({ TableName: tableName }));
  const streamArn = table?.LatestStreamArn;
  if (!streamArn || !table.StreamSpecification?.StreamEnabled) {
    throw new Error(`Table ${tableName} has no stream to read notifications from`);
  }
  return streamArn;
}
