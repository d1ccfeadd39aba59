import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { UpgradeRequiredError } from '../../../../../functions/shared/domain/errors.js';
import { contribution, counterUpdates } from '../../../../../functions/shared/storage/counter-deltas.js';
import { transactWrite } from '../../../../../functions/shared/storage/transact.js';

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

describe('transactWrite', () => {
  afterEach(() => ddb.reset());

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
});
