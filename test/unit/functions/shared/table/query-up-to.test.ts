import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { queryUpTo } from '../../../../../functions/shared/table/query-up-to.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);
const input = {
  TableName: 't',
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': 'P' },
};

describe('queryUpTo', () => {
  afterEach(() => ddb.reset());

  it('asks each page for what is still wanted, and stops once it has `count`', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ n: 1 }, { n: 2 }], LastEvaluatedKey: { pk: 'P', sk: '2' } })
      .resolvesOnce({ Items: [{ n: 3 }], LastEvaluatedKey: { pk: 'P', sk: '3' } });

    const items = await queryUpTo(client, input, 3);

    expect(items).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const sent = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(sent.map(({ Limit, ExclusiveStartKey }) => ({ Limit, ExclusiveStartKey }))).toEqual([
      { Limit: 3, ExclusiveStartKey: undefined },
      { Limit: 1, ExclusiveStartKey: { pk: 'P', sk: '2' } },
    ]);
  });

  it('reads every page without `count`, with no Limit', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ n: 1 }], LastEvaluatedKey: { pk: 'P', sk: '1' } })
      .resolvesOnce({ Items: [{ n: 2 }] });

    expect(await queryUpTo(client, input)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(ddb.commandCalls(QueryCommand).map((call) => call.args[0].input.Limit)).toEqual([
      undefined,
      undefined,
    ]);
  });
});
