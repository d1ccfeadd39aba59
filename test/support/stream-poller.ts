import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBRecord } from 'aws-lambda';
import type { StreamHandler } from '../../scripts/local-stream/batch-delivery.js';
import type { DeadLetter } from '../../scripts/local-stream/dead-letter-file.js';
import { createLocalStreamsClient } from '../../scripts/local-stream/streams-client.js';
import {
  type StreamPoller,
  type StreamPollerOptions,
  startStreamPoller,
} from '../../scripts/local-stream/stream-poller.js';
import type { TestTable } from './test-table.js';

/** A folder for one test's checkpoint and dead-letter files. */
export interface PollerFiles {
  readonly checkpointPath: string;
  readonly deadLetterPath: string;
  /** The on-failure messages written so far. */
  deadLetters(): Promise<DeadLetter[]>;
  /** The checkpoint file's content, or undefined before the first write. */
  checkpoint(): Promise<{ streamArn: string; shards: Record<string, string> } | undefined>;
  remove(): Promise<void>;
}

/** Creates an empty folder for a poller's files. */
export async function createPollerFiles(): Promise<PollerFiles> {
  const directory = await mkdtemp(join(tmpdir(), 'marginalia-stream-'));
  const checkpointPath = join(directory, 'stream-checkpoint.json');
  const deadLetterPath = join(directory, 'notify-dead-letters.jsonl');
  const readOptional = async (path: string) => {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
  return {
    checkpointPath,
    deadLetterPath,
    async deadLetters() {
      const text = (await readOptional(deadLetterPath)) ?? '';
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as DeadLetter);
    },
    async checkpoint() {
      const text = await readOptional(checkpointPath);
      return text === undefined ? undefined : JSON.parse(text);
    },
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}

/** A poller over `table`'s stream with test timings (fast polls, no batching window, short retry waits). */
export async function startTestPoller(
  table: TestTable,
  files: Pick<PollerFiles, 'checkpointPath' | 'deadLetterPath'>,
  handler: StreamHandler,
  options: Partial<StreamPollerOptions> = {},
): Promise<StreamPoller> {
  const streams = createLocalStreamsClient(table.endpoint);
  const poller = await startStreamPoller({
    dynamoDb: table.client,
    streams,
    tableName: table.tableName,
    handler,
    checkpointPath: files.checkpointPath,
    deadLetterPath: files.deadLetterPath,
    pollIntervalMs: 20,
    batchingWindowMs: 0,
    retryDelayMs: 5,
    discoveryIntervalMs: 60_000,
    log: () => {},
    ...options,
  });
  return {
    streamArn: poller.streamArn,
    async stop() {
      await poller.stop();
      streams.destroy();
    },
  };
}

/** The outbox event id of a record's new image. */
export function recordEventId(record: DynamoDBRecord): string | undefined {
  return record.dynamodb?.NewImage?.eventId?.S;
}
