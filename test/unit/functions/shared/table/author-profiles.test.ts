import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuthorProfileReader } from '../../../../../functions/shared/table/author-profiles.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(client);
const accountItem = (id: string, extra: Record<string, unknown> = {}) => ({
  pk: `USER#${id}`,
  sk: 'USER',
  id,
  email: `${id}@mail.example`,
  displayName: `Name ${id}`,
  type: 'guest',
  ...extra,
});

describe('createAuthorProfileReader', () => {
  afterEach(() => mock.reset());

  it('reads the distinct accounts in one BatchGetItem, projected to the profile attributes', async () => {
    mock.on(BatchGetCommand).resolves({
      Responses: { t: [accountItem('a', { link: 'https://a.example', label: 'Patron' }), accountItem('b')] },
    });

    const profiles = await createAuthorProfileReader(client, 't')(['a', 'b', 'a', 'gone']);

    const calls = mock.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      RequestItems: {
        t: {
          Keys: [
            { pk: 'USER#a', sk: 'USER' },
            { pk: 'USER#b', sk: 'USER' },
            { pk: 'USER#gone', sk: 'USER' },
          ],
          ProjectionExpression: '#p0, #p1, #p2, #p3, #p4, #p5, #p6, #p7, #p8',
          ExpressionAttributeNames: {
            '#p0': 'pk',
            '#p1': 'sk',
            '#p2': 'id',
            '#p3': 'email',
            '#p4': 'displayName',
            '#p5': 'link',
            '#p6': 'avatar',
            '#p7': 'label',
            '#p8': 'type',
          },
        },
      },
    });
    expect([...profiles.entries()]).toEqual([
      [
        'a',
        {
          id: 'a',
          email: 'a@mail.example',
          displayName: 'Name a',
          type: 'guest',
          link: 'https://a.example',
          label: 'Patron',
        },
      ],
      ['b', { id: 'b', email: 'b@mail.example', displayName: 'Name b', type: 'guest' }],
    ]);
  });

  it('asks 100 accounts a request, and nothing for no ids', async () => {
    mock.on(BatchGetCommand).resolves({ Responses: { t: [] } });
    const read = createAuthorProfileReader(client, 't');

    await read([]);
    expect(mock.commandCalls(BatchGetCommand)).toHaveLength(0);

    await read(Array.from({ length: 150 }, (_, i) => `id${i}`));
    const sizes = mock
      .commandCalls(BatchGetCommand)
      .map((call) => call.args[0].input.RequestItems?.t?.Keys?.length);
    expect(sizes).toEqual([100, 50]);
  });

  it('leaves out an item that is no account: no id, an unknown type, or another id', async () => {
    mock.on(BatchGetCommand).resolves({
      Responses: {
        t: [accountItem('a', { type: 'verify:1234' }), { pk: 'USER#b', sk: 'USER', type: 'guest' }],
      },
    });

    expect((await createAuthorProfileReader(client, 't')(['a', 'b'])).size).toBe(0);
  });
});
