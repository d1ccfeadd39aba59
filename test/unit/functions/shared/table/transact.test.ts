import {
  DynamoDBClient,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpgradeRequiredError } from '../../../../../functions/shared/domain/errors.js';
import { contribution, counterUpdates } from '../../../../../functions/shared/table/counter-deltas.js';
import { retryOnConflict, transactWrite } from '../../../../../functions/shared/table/transact.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);

/** A new root's transaction: the comment, then the page and the site counters (the site one guarded). */
const insertRoot = {
  TransactItems: [
    {
      Put: {
        TableName: 't',
        Item: { pk: 'URL#/p', sk: 'C#01A' },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...counterUpdates('t', '/p', contribution('approved', true)),
  ],
};
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const conflict = () => new TransactionConflictException({ message: 'conflict', $metadata: {} });

/**
 * The pause after each failed attempt, 1 to 7, with the jitter at its top (Math.random() returning 1):
 * 25 ms doubled per attempt, at most a second.
 */
const topDelays = [50, 100, 200, 400, 800, 1000, 1000];

/**
 * Steps fake time through `topDelays`, checking that attempt n + 1 starts exactly when the pause after
 * attempt n is over, not a millisecond sooner.
 */
async function expectAttemptsAfterTopDelays(attempts: () => number): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
  expect(attempts()).toBe(1);
  for (const [index, delay] of topDelays.entries()) {
    await vi.advanceTimersByTimeAsync(delay - 1);
    expect(attempts(), `before the pause after attempt ${index + 1} is over`).toBe(index + 1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts(), `once the pause after attempt ${index + 1} is over`).toBe(index + 2);
  }
}

/** A promise's outcome, without an unhandled rejection while fake time runs. */
const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe('transactWrite', () => {
  afterEach(() => {
    ddb.reset();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('throws UpgradeRequiredError, and tries no more, when the layout guard of the site counters fails', async () => {
    expect(insertRoot.TransactItems[2]?.Update?.Key).toEqual({ pk: 'SITE', sk: 'SITE' });
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'None', 'ConditionalCheckFailed'));

    await expect(transactWrite(client, insertRoot)).rejects.toBeInstanceOf(UpgradeRequiredError);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('throws UpgradeRequiredError when the layout guard fails beside another condition', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(cancelled('ConditionalCheckFailed', 'None', 'ConditionalCheckFailed'));

    await expect(transactWrite(client, insertRoot)).rejects.toBeInstanceOf(UpgradeRequiredError);
  });

  it('returns the failed conditions of other items without throwing', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None'));

    await expect(transactWrite(client, insertRoot)).resolves.toEqual({
      ok: false,
      failedConditions: [0],
      oldItems: [undefined, undefined, undefined],
    });
  });

  it.each(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded'])(
    'tries again, and succeeds, when a %s cancelled the transaction',
    async (code) => {
      ddb
        .on(TransactWriteCommand)
        .rejectsOnce(cancelled('None', code, 'None'))
        .resolves({});

      await expect(transactWrite(client, insertRoot)).resolves.toEqual({ ok: true });
      const calls = ddb.commandCalls(TransactWriteCommand);
      expect(calls).toHaveLength(2);
      expect(calls[1]?.args[0].input).toEqual(insertRoot);
    },
  );

  it('throws at once, without trying again, when the cancellation is of another kind', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'ValidationError', 'None'));

    await expect(transactWrite(client, insertRoot)).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('sends the items as given and answers ok when the transaction succeeds', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    await expect(transactWrite(client, insertRoot)).resolves.toEqual({ ok: true });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual(insertRoot);
  });

  it('backs off 25 ms doubled per attempt, at most a second, and gives up after 8 attempts', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const error = cancelled('None', 'TransactionConflict', 'None');
    // An 8th failure is final, even though a 9th try would have gone through.
    const mocked = ddb.on(TransactWriteCommand);
    for (let i = 0; i < 8; i++) mocked.rejectsOnce(error);
    mocked.resolves({});

    const outcome = settle(transactWrite(client, insertRoot));
    await expectAttemptsAfterTopDelays(() => ddb.commandCalls(TransactWriteCommand).length);
    await vi.runAllTimersAsync();

    expect(await outcome).toEqual({ error });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(8);
  });

  it('scales each pause by the random jitter', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('TransactionConflict'))
      .rejectsOnce(cancelled('TransactionConflict'))
      .resolves({});

    const outcome = settle(transactWrite(client, insertRoot));
    await vi.advanceTimersByTimeAsync(24);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(50);

    expect(await outcome).toEqual({ value: { ok: true } });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });

  it('throws another error at once, without trying again', async () => {
    const error = new Error('socket hang up');
    ddb.on(TransactWriteCommand).rejects(error);

    await expect(transactWrite(client, insertRoot)).rejects.toBe(error);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('throws at once a cancellation that gives no reasons, or a reason without a code', async () => {
    const bare = new TransactionCanceledException({ message: 'cancelled', $metadata: {} });
    const noCode = new TransactionCanceledException({
      message: 'cancelled',
      $metadata: {},
      CancellationReasons: [{ Message: 'no code' }, { Code: 'None' }],
    });
    ddb.on(TransactWriteCommand).rejectsOnce(bare).rejectsOnce(noCode).resolves({});

    await expect(transactWrite(client, insertRoot)).rejects.toBe(bare);
    await expect(transactWrite(client, insertRoot)).rejects.toBe(noCode);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('returns the indexes of every failed condition and the old items the cancellation carries', async () => {
    const old = { pk: { S: 'URL#/p' }, sk: { S: 'C#01A' }, status: { S: 'spam' } };
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [
          { Code: 'ConditionalCheckFailed', Item: old },
          { Code: 'None' },
          { Code: 'ConditionalCheckFailed' },
        ],
      }),
    );
    const plain = {
      TransactItems: [
        { ConditionCheck: { TableName: 't', Key: { pk: 'URL#/p', sk: 'C#01A' }, ConditionExpression: 'x' } },
        { Put: { TableName: 't', Item: { pk: 'URL#/p', sk: 'C#01B' } } },
        { ConditionCheck: { TableName: 't', Key: { pk: 'URL#/p', sk: 'PAGE' }, ConditionExpression: 'y' } },
      ],
    };

    await expect(transactWrite(client, plain)).resolves.toEqual({
      ok: false,
      failedConditions: [0, 2],
      oldItems: [old, undefined, undefined],
    });
  });
});

describe('retryOnConflict', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('writes again after a conflict with a transaction, and answers what the write answered', async () => {
    vi.useFakeTimers();
    const write = vi.fn<() => Promise<string>>().mockRejectedValueOnce(conflict()).mockResolvedValue('done');

    const outcome = settle(retryOnConflict(write));
    await vi.runAllTimersAsync();

    expect(await outcome).toEqual({ value: 'done' });
    expect(write).toHaveBeenCalledTimes(2);
  });

  it('backs off 25 ms doubled per attempt, at most a second, and gives up after 8 attempts', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const error = conflict();
    const write = vi.fn<() => Promise<string>>();
    // An 8th conflict is final, even though a 9th try would have gone through.
    for (let i = 0; i < 8; i++) write.mockRejectedValueOnce(error);
    write.mockResolvedValue('done');

    const outcome = settle(retryOnConflict(write));
    await expectAttemptsAfterTopDelays(() => write.mock.calls.length);
    await vi.runAllTimersAsync();

    expect(await outcome).toEqual({ error });
    expect(write).toHaveBeenCalledTimes(8);
  });

  it('throws another error at once, without writing again', async () => {
    const error = new Error('ConditionalCheckFailed');
    const write = vi.fn<() => Promise<string>>().mockRejectedValueOnce(error).mockResolvedValue('done');

    await expect(retryOnConflict(write)).rejects.toBe(error);
    expect(write).toHaveBeenCalledTimes(1);
  });
});
