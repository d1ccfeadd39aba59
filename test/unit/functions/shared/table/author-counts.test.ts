import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuthorCounts } from '../../../../../functions/shared/table/author-counts.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(client);

describe('createAuthorCounts', () => {
  afterEach(() => mock.reset());

  it('reads the wall as one Query of the WALL partition, most first, bounded, then one BatchGetItem', async () => {
    mock.on(QueryCommand).resolves({
      Items: [
        { pk: 'AUTHOR#user:01A', sk: 'COUNT', rootsPk: 'WALL', likeSort: 7 },
        { pk: 'AUTHOR#mail:h', sk: 'COUNT', rootsPk: 'WALL', likeSort: 3 },
      ],
    });
    mock.on(BatchGetCommand).resolves({
      Responses: {
        t: [
          { pk: 'AUTHOR#mail:h', sk: 'COUNT', approved: 3, nick: 'Ann', link: '', avatar: 'https://a/x' },
          { pk: 'AUTHOR#user:01A', sk: 'COUNT', approved: 7 },
          {
            pk: 'USER#01A',
            sk: 'USER',
            id: '01A',
            displayName: 'Carol',
            email: 'c@example.com',
            type: 'guest',
          },
        ],
      },
    });

    const wall = await createAuthorCounts(client, 't').wall(2);

    expect(mock.commandCalls(QueryCommand)[0]?.args[0].input).toEqual({
      TableName: 't',
      IndexName: 'roots-by-like',
      KeyConditionExpression: '#rootsPk = :wall AND #likeSort > :zero',
      ExpressionAttributeNames: { '#rootsPk': 'rootsPk', '#likeSort': 'likeSort' },
      ExpressionAttributeValues: { ':wall': 'WALL', ':zero': 0 },
      ScanIndexForward: false,
      Limit: 2,
    });
    const batches = mock.commandCalls(BatchGetCommand);
    expect(batches).toHaveLength(1);
    expect(batches[0]?.args[0].input.RequestItems?.t?.Keys).toEqual([
      { pk: 'AUTHOR#user:01A', sk: 'COUNT' },
      { pk: 'AUTHOR#mail:h', sk: 'COUNT' },
      { pk: 'USER#01A', sk: 'USER' },
    ]);
    expect(wall).toEqual([
      {
        authorKey: 'user:01A',
        count: 7,
        profile: { id: '01A', displayName: 'Carol', email: 'c@example.com', type: 'guest' },
      },
      { authorKey: 'mail:h', count: 3, display: { nick: 'Ann', link: '', avatar: 'https://a/x' } },
    ]);
  });

  it('reads nothing more for an empty wall', async () => {
    mock.on(QueryCommand).resolves({ Items: [] });
    expect(await createAuthorCounts(client, 't').wall(20)).toEqual([]);
    expect(mock.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('reads the counts of many authors 100 keys a request, 0 for one never counted', async () => {
    const authorKeys = Array.from({ length: 150 }, (_, i) => `mail:h${i}`);
    mock
      .on(BatchGetCommand)
      .callsFake((input: { RequestItems: Record<string, { Keys: { pk: string }[] }> }) => ({
        Responses: {
          t: (input.RequestItems.t?.Keys ?? [])
            .filter(({ pk }) => pk !== 'AUTHOR#mail:h1')
            .map((key) => ({ ...key, approved: 2 })),
        },
      }));

    const counts = await createAuthorCounts(client, 't').counts(authorKeys);

    expect(
      mock.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems?.t?.Keys?.length),
    ).toEqual([100, 50]);
    expect(counts.get('mail:h0')).toBe(2);
    expect(counts.get('mail:h1')).toBe(0);
    expect(counts.get('mail:h149')).toBe(2);
  });
});
