import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  type BatchDeliveryOptions,
  deliverBatch,
  type MappingSettings,
} from '../../../../scripts/local-stream/batch-delivery.js';

/** The event source mapping's handling of one batch, with a fake handler and no stream. */
describe('deliverBatch', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const settings: MappingSettings = {
    batchSize: 10,
    retryAttempts: 2,
    maxRecordAgeSeconds: 3600,
    bisectBatchOnError: true,
    reportBatchItemFailures: true,
  };

  const records = (count: number, ageSeconds = 0): DynamoDBRecord[] =>
    Array.from({ length: count }, (_, index) => ({
      eventName: 'INSERT',
      dynamodb: { SequenceNumber: String(index + 1), ApproximateCreationDateTime: now / 1000 - ageSeconds },
    }));
  const sequences = (batch: readonly DynamoDBRecord[]) =>
    batch.map((record) => record.dynamodb?.SequenceNumber);

  /** Runs deliverBatch over `batch` with `answer` as the handler; returns what happened. */
  async function run(
    batch: DynamoDBRecord[],
    answer: (event: DynamoDBStreamEvent) => DynamoDBBatchResponse | undefined,
    overrides: Partial<MappingSettings> = {},
    options: Partial<BatchDeliveryOptions> = {},
  ) {
    const invocations: (string | undefined)[][] = [];
    const checkpoints: (string | undefined)[] = [];
    const deadLetters: { sequences: (string | undefined)[]; condition: string; invocations: number }[] = [];
    const waits: number[] = [];
    const finished = await deliverBatch(batch, {
      handler: async (event) => {
        invocations.push(sequences(event.Records));
        return answer(event);
      },
      settings: { ...settings, ...overrides },
      functionName: 'notify',
      advance: async (record) => {
        checkpoints.push(record.dynamodb?.SequenceNumber);
      },
      deadLetter: async (failed, condition, count) => {
        deadLetters.push({ sequences: sequences(failed), condition, invocations: count });
      },
      wait: async (ms) => {
        waits.push(ms);
        return true;
      },
      retryDelayMs: (retry) => retry * 10,
      stopping: () => false,
      now: () => now,
      log: () => {},
      ...options,
    });
    return { finished, invocations, checkpoints, deadLetters, waits };
  }

  it('moves past the whole batch when the handler reports no failure', async () => {
    const result = await run(records(3), () => ({ batchItemFailures: [] }));

    expect(result).toMatchObject({ finished: true, invocations: [['1', '2', '3']], checkpoints: ['3'] });
  });

  it('retries a partial failure from the lowest failed record, waiting longer each time, then dead-letters the rest', async () => {
    const result = await run(records(4), (event) => ({
      batchItemFailures: event.Records.filter((record) =>
        ['2', '4'].includes(record.dynamodb?.SequenceNumber ?? ''),
      ).map((record) => ({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' })),
    }));

    expect(result.invocations).toEqual([
      ['1', '2', '3', '4'],
      ['2', '3', '4'],
      ['2', '3', '4'],
    ]);
    expect(result.waits).toEqual([10, 20]);
    expect(result.deadLetters).toEqual([
      { sequences: ['2', '3', '4'], condition: 'RetryAttemptsExhausted', invocations: 3 },
    ]);
    expect(result.checkpoints.at(-1)).toBe('4');
    expect(result.checkpoints[0]).toBe('1');
  });

  it('fails the whole batch when a reported failure names no record of it', async () => {
    const result = await run(records(2), (event) =>
      event.Records.length > 1 ? { batchItemFailures: [{ itemIdentifier: 'not-a-record' }] } : undefined,
    );

    expect(result.invocations).toEqual([['1', '2'], ['1'], ['2']]);
    expect(result.deadLetters).toEqual([]);
  });

  it('retries and dead-letters the whole batch when bisection is off', async () => {
    const result = await run(
      records(2),
      () => {
        throw new Error('down');
      },
      { bisectBatchOnError: false, retryAttempts: 1 },
    );

    expect(result.invocations).toEqual([
      ['1', '2'],
      ['1', '2'],
    ]);
    expect(result.deadLetters).toEqual([
      { sequences: ['1', '2'], condition: 'RetryAttemptsExhausted', invocations: 2 },
    ]);
    expect(result.checkpoints).toEqual(['2']);
  });

  it('ignores the reported failures when the mapping does not ask for them', async () => {
    const result = await run(records(2), () => ({ batchItemFailures: [{ itemIdentifier: '1' }] }), {
      reportBatchItemFailures: false,
    });

    expect(result).toMatchObject({ invocations: [['1', '2']], checkpoints: ['2'], deadLetters: [] });
  });

  it('dead-letters records past the maximum age unread, and hands over the younger ones', async () => {
    const batch = [...records(2, 7200), ...records(1)].map((record, index) => ({
      ...record,
      dynamodb: { ...record.dynamodb, SequenceNumber: String(index + 1) },
    }));

    const result = await run(batch, () => undefined);

    expect(result.deadLetters).toEqual([
      { sequences: ['1', '2'], condition: 'RecordAgeExceeded', invocations: 0 },
    ]);
    expect(result.invocations).toEqual([['3']]);
    expect(result.checkpoints).toEqual(['2', '3']);
  });

  it('stops waiting to retry when the poller stops, leaving the checkpoint before the failed record', async () => {
    const result = await run(
      records(2),
      (event) => ({
        batchItemFailures: [{ itemIdentifier: event.Records.at(-1)?.dynamodb?.SequenceNumber ?? '' }],
      }),
      {},
      { wait: async () => false },
    );

    expect(result).toMatchObject({
      finished: false,
      invocations: [['1', '2']],
      checkpoints: ['1'],
      deadLetters: [],
    });
  });
});
