import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { ulid } from 'ulid';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../../../functions/shared/table/keys.js';
import { outboxEventItem } from '../../../functions/shared/table/outbox-event.js';
import type { StreamHandler } from '../../../scripts/local-stream/batch-delivery.js';
import type { StreamPoller, StreamPollerOptions } from '../../../scripts/local-stream/stream-poller.js';
import {
  createPollerFiles,
  type PollerFiles,
  recordEventId,
  startTestPoller,
} from '../../support/stream-poller.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

describe('the local stream poller', () => {
  let table: TestTable;
  let documents: DynamoDBDocumentClient;
  let files: PollerFiles;
  const pollers: StreamPoller[] = [];

  beforeEach(async () => {
    // A table per test: a new poller reads its stream from the start, so no test sees another's records.
    table = await createTestTable();
    documents = DynamoDBDocumentClient.from(table.client);
    files = await createPollerFiles();
  });

  afterEach(async () => {
    await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
    await table?.drop();
    await files?.remove();
  });

  /** A handler that keeps every batch it is given and answers with `answer` (default: all handled). */
  function recordingHandler(
    answer: (records: DynamoDBRecord[]) => DynamoDBBatchResponse | undefined = () => undefined,
  ) {
    const batches: DynamoDBRecord[][] = [];
    const handler = async (event: DynamoDBStreamEvent) => {
      batches.push(event.Records);
      return answer(event.Records);
    };
    const delivered = () => batches.flat().map(recordEventId);
    return { batches, handler, delivered };
  }

  async function start(handler: StreamHandler, options: Partial<StreamPollerOptions> = {}) {
    const poller = await startTestPoller(table, files, handler, options);
    pollers.push(poller);
    return poller;
  }

  function newEvent() {
    const id = ulid();
    return { id, item: outboxEventItem({ id, cause: 'test', at: Date.now() }) };
  }

  async function putEvents(count: number, events = Array.from({ length: count }, newEvent)) {
    // One transaction: the records reach the stream together, so they make one batch.
    await documents.send(
      new TransactWriteCommand({
        TransactItems: events.map(({ item }) => ({ Put: { TableName: table.tableName, Item: item } })),
      }),
    );
    return events.map(({ id }) => id);
  }

  async function putEvent(extra: Record<string, unknown> = {}): Promise<string> {
    const { id, item } = newEvent();
    await documents.send(new PutCommand({ TableName: table.tableName, Item: { ...item, ...extra } }));
    return id;
  }

  it('hands a new outbox event to the handler as the record Lambda would pass', async () => {
    const { batches, handler } = recordingHandler();
    const poller = await start(handler);
    const { Table } = await table.client.send(new DescribeTableCommand({ TableName: table.tableName }));

    const id = await putEvent({ blob: new Uint8Array([1, 2, 255]) });

    await vi.waitFor(() => expect(batches).toHaveLength(1), { timeout: 10_000, interval: 20 });
    const [record] = batches[0] ?? [];
    expect(poller.streamArn).toBe(Table?.LatestStreamArn);
    expect(record).toMatchObject({
      eventSource: 'aws:dynamodb',
      eventSourceARN: Table?.LatestStreamArn,
      eventName: 'INSERT',
      eventVersion: '1.1',
      dynamodb: {
        Keys: { pk: { S: keys.outboxEvent(id).pk }, sk: { S: keys.outboxEvent(id).sk } },
        NewImage: {
          entity: { S: 'outbox' },
          state: { S: 'pending' },
          eventId: { S: id },
          attempts: { N: '0' },
          blob: { B: Buffer.from([1, 2, 255]).toString('base64') },
        },
        StreamViewType: 'NEW_IMAGE',
      },
    });
    expect(record?.dynamodb?.SequenceNumber).toMatch(/^\d+$/);
    expect(typeof record?.dynamodb?.ApproximateCreationDateTime).toBe('number');
    expect(Math.abs((record?.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000 - Date.now())).toBeLessThan(
      10 * 60_000,
    );
  });

  it('never hands over a write that is not a pending outbox event', async () => {
    const { handler, delivered } = recordingHandler();
    await start(handler);
    const sent = await putEvent({ state: 'sent' });
    await documents.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...keys.delivery(sent, 'owner'), entity: 'delivery', state: 'sending', attempts: 1 },
      }),
    );
    await documents.send(
      new PutCommand({ TableName: table.tableName, Item: { pk: 'PAGE#/a', sk: 'C#1', entity: 'comment' } }),
    );
    const pending = await putEvent();
    // The sender marks it sent: a MODIFY out of `pending` wakes nobody.
    await documents.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.outboxEvent(pending),
        UpdateExpression: 'SET #state = :sent',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sent': 'sent' },
      }),
    );
    const marker = await putEvent();

    await vi.waitFor(() => expect(delivered()).toContain(marker), { timeout: 10_000, interval: 20 });
    expect(delivered()).toEqual([pending, marker]);
  });

  it('hands a MODIFY back to pending over again (a re-drive)', async () => {
    const { handler, delivered } = recordingHandler();
    await start(handler);
    const id = await putEvent({ state: 'failed' });
    await documents.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.outboxEvent(id),
        UpdateExpression: 'SET #state = :pending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pending': 'pending' },
      }),
    );

    await vi.waitFor(() => expect(delivered()).toEqual([id]), { timeout: 10_000, interval: 20 });
  });

  it('retries from the lowest record a handler reports as failed, with the records after it', async () => {
    let failedOnce = false;
    const { batches, handler } = recordingHandler((records) => {
      const second = records.find((record) => recordEventId(record) === ids[1]);
      if (failedOnce || !second?.dynamodb?.SequenceNumber) return undefined;
      failedOnce = true;
      return { batchItemFailures: [{ itemIdentifier: second.dynamodb.SequenceNumber }] };
    });
    await start(handler, { batchingWindowMs: 300 });

    const ids = await putEvents(3);

    await vi.waitFor(() => expect(batches).toHaveLength(2), { timeout: 10_000, interval: 20 });
    const marker = await putEvent();
    await vi.waitFor(() => expect(batches).toHaveLength(3), { timeout: 10_000, interval: 20 });
    expect(batches.map((batch) => batch.map(recordEventId))).toEqual([ids, ids.slice(1), [marker]]);
    expect(await files.deadLetters()).toEqual([]);
  });

  it('splits a batch that throws down to the failing record, retries it, dead-letters it and moves on', async () => {
    const events = Array.from({ length: 3 }, newEvent);
    const [first, poison, last] = events.map(({ id }) => id);
    const { batches, handler } = recordingHandler((records) => {
      if (records.some((record) => recordEventId(record) === poison)) throw new Error('poison');
      return undefined;
    });
    await start(handler, { batchingWindowMs: 300, settings: { retryAttempts: 2 } });

    await putEvents(3, events);

    await vi.waitFor(async () => expect(await files.deadLetters()).toHaveLength(1), {
      timeout: 10_000,
      interval: 20,
    });
    const marker = await putEvent();
    await vi.waitFor(() => expect(batches.flat().map(recordEventId)).toContain(marker), {
      timeout: 10_000,
      interval: 20,
    });
    // Halves first (no retry spent), then the poison record alone: once and two retries.
    expect(batches.map((batch) => batch.map(recordEventId))).toEqual([
      [first, poison, last],
      [first, poison],
      [first],
      [poison],
      [poison],
      [poison],
      [last],
      [marker],
    ]);
    const poisonSequence = batches[3]?.[0]?.dynamodb?.SequenceNumber;
    const [deadLetter] = await files.deadLetters();
    expect(deadLetter).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 },
      responseContext: { functionError: 'Unhandled' },
      version: '1.0',
      DDBStreamBatchInfo: {
        startSequenceNumber: poisonSequence,
        endSequenceNumber: poisonSequence,
        batchSize: 1,
        streamArn: batches[0]?.[0]?.eventSourceARN,
      },
    });
    // Metadata only, as Lambda's SQS message: no record, no image.
    expect(JSON.stringify(deadLetter)).not.toContain(poison);
  });

  it('dead-letters records older than the maximum record age without invoking the handler', async () => {
    const { batches, handler } = recordingHandler();
    const sevenHoursOn = () => Date.now() + 7 * 3600_000;
    await start(handler, { now: sevenHoursOn });

    await putEvent();

    await vi.waitFor(async () => expect(await files.deadLetters()).toHaveLength(1), {
      timeout: 10_000,
      interval: 20,
    });
    expect((await files.deadLetters())[0]?.requestContext.condition).toBe('RecordAgeExceeded');
    expect(batches).toEqual([]);
  });

  it('resumes after the checkpoint when started again: nothing already handled is handed over twice', async () => {
    const before = recordingHandler();
    const firstPoller = await start(before.handler);
    const early = [await putEvent(), await putEvent()];
    await vi.waitFor(() => expect(before.delivered()).toEqual(early), { timeout: 10_000, interval: 20 });
    await firstPoller.stop();

    const after = recordingHandler();
    await start(after.handler);
    const late = await putEvent();

    await vi.waitFor(() => expect(after.delivered()).toContain(late), { timeout: 10_000, interval: 20 });
    expect(after.delivered()).toEqual([late]);
    // The poller writes its checkpoint once the handler has returned: on a loaded machine, a moment later.
    await vi.waitFor(
      async () =>
        expect(Object.values((await files.checkpoint())?.shards ?? {})).toEqual([
          after.batches[0]?.[0]?.dynamodb?.SequenceNumber,
        ]),
      { timeout: 10_000, interval: 20 },
    );
  });

  it('keeps its checkpoint before a batch the handler failed: stopped in the retry wait, it hands the batch over on restart', async () => {
    const sequences = new Map<string | undefined, string | undefined>();
    const next = newEvent();
    const failing = next.id;
    const first = recordingHandler((records) => {
      for (const record of records) sequences.set(recordEventId(record), record.dynamodb?.SequenceNumber);
      if (records.some((record) => recordEventId(record) === failing)) throw new Error('mail server down');
      return undefined;
    });
    // A retry wait far longer than the test: the poller is stopped while it waits.
    const firstPoller = await start(first.handler, { retryDelayMs: 600_000 });
    const handled = await putEvent();
    await vi.waitFor(() => expect(first.delivered()).toEqual([handled]), { timeout: 10_000, interval: 20 });
    await documents.send(new PutCommand({ TableName: table.tableName, Item: next.item }));
    await vi.waitFor(() => expect(first.delivered()).toEqual([handled, failing]), {
      timeout: 10_000,
      interval: 20,
    });

    const stoppedAt = Date.now();
    await firstPoller.stop();

    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    // The checkpoint stays at the last record handled, not at the one that failed.
    expect(Object.values((await files.checkpoint())?.shards ?? {})).toEqual([sequences.get(handled)]);
    const after = recordingHandler();
    await start(after.handler);
    await vi.waitFor(() => expect(after.delivered()).toEqual([failing]), { timeout: 10_000, interval: 20 });
    expect(after.batches[0]?.[0]?.dynamodb?.SequenceNumber).toBe(sequences.get(failing));
  });

  it('starts at the oldest record kept (TRIM_HORIZON) when it has no checkpoint', async () => {
    const written = [await putEvent(), await putEvent()];
    const { handler, delivered } = recordingHandler();

    await start(handler);

    await vi.waitFor(() => expect(delivered()).toEqual(written), { timeout: 10_000, interval: 20 });
  });

  it('stops only once the batch it is delivering is done, with its checkpoint written', async () => {
    let release: () => void = () => {};
    let enter: () => void = () => {};
    const entered = new Promise<void>((resolveEntered) => {
      enter = resolveEntered;
    });
    const { handler } = recordingHandler();
    const slowHandler = async (event: DynamoDBStreamEvent) => {
      enter();
      await new Promise<void>((resolveRelease) => {
        release = resolveRelease;
      });
      return handler(event);
    };
    const poller = await start(slowHandler);
    await putEvent();
    await entered;

    let stopped = false;
    const stopping = poller.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolveTick) => setTimeout(resolveTick, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;

    expect(Object.values((await files.checkpoint())?.shards ?? {})).toHaveLength(1);
  });
});
