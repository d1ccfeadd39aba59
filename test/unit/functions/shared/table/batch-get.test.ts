import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchGet, keyId } from '../../../../../functions/shared/table/batch-get.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(client);
const key = (n: number) => ({ pk: `URL#/p${n}`, sk: 'PAGE' });
const item = (n: number) => ({ ...key(n), comments: n });
const requested = (call: number) =>
  mock.commandCalls(BatchGetCommand)[call]?.args[0].input.RequestItems?.t?.Keys ?? [];

describe('batchGet', () => {
  afterEach(() => {
    mock.reset();
    vi.useRealTimers();
  });

  it('asks again for the keys DynamoDB leaves unprocessed, and returns every item', async () => {
    vi.useFakeTimers();
    mock
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { t: [item(1)] }, UnprocessedKeys: { t: { Keys: [key(2), key(3)] } } })
      .resolvesOnce({ Responses: { t: [item(3)] }, UnprocessedKeys: { t: { Keys: [key(2)] } } })
      .resolves({ Responses: { t: [item(2)] } });

    const reading = batchGet(client, 't', [key(1), key(2), key(3)], ['comments']);
    await vi.runAllTimersAsync();
    const found = await reading;

    expect([...found.values()]).toEqual([item(1), item(3), item(2)]);
    expect(found.get(keyId(key(2)))).toEqual(item(2));
    expect(requested(1)).toEqual([key(2), key(3)]);
    expect(requested(2)).toEqual([key(2)]);
  });

  it('fails loudly rather than answer with items missing when keys stay unprocessed', async () => {
    vi.useFakeTimers();
    mock.on(BatchGetCommand).resolves({ Responses: { t: [] }, UnprocessedKeys: { t: { Keys: [key(1)] } } });

    const reading = batchGet(client, 't', [key(1)], ['comments']);
    const outcome = expect(reading).rejects.toThrow('BatchGetItem left keys unprocessed after retries');
    await vi.runAllTimersAsync();
    await outcome;
    expect(mock.commandCalls(BatchGetCommand)).toHaveLength(6);
  });

  it('asks for each distinct key once, 100 a request, projecting the keys and the named attributes', async () => {
    mock.on(BatchGetCommand).resolves({ Responses: { t: [] } });
    const keys = Array.from({ length: 150 }, (_, n) => key(n));

    await batchGet(client, 't', [...keys, key(0), key(149)], ['comments', 'pk'], { consistent: true });

    expect([requested(0).length, requested(1).length]).toEqual([100, 50]);
    const input = mock.commandCalls(BatchGetCommand)[0]?.args[0].input.RequestItems?.t;
    expect(input).toMatchObject({
      ProjectionExpression: '#p0, #p1, #p2',
      ExpressionAttributeNames: { '#p0': 'pk', '#p1': 'sk', '#p2': 'comments' },
      ConsistentRead: true,
    });
  });
});
