import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { putAll } from '../../../../../scripts/shared/storage/bulk-writer.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const items = Array.from({ length: 30 }, (_, i) => ({ pk: `P#${i}`, sk: 'S' }));

describe('putAll', () => {
  it('sends 25 items a request and resends what is left unprocessed, with backoff', async () => {
    const mock = mockClient(client);
    const leftOver = [{ PutRequest: { Item: items[3] } }];
    mock
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { t: leftOver } })
      .resolves({ UnprocessedItems: {} });
    const delays: number[] = [];
    const progress: number[] = [];

    await putAll(client, 't', items, {
      sleep: async (ms) => void delays.push(ms),
      onProgress: (done) => progress.push(done),
    });

    const sent = mock
      .commandCalls(BatchWriteCommand)
      .map((call) => call.args[0].input.RequestItems?.t?.length);
    expect(sent).toEqual([25, 1, 5]);
    expect(delays).toHaveLength(1);
    expect(progress).toEqual([25, 30]);
    mock.restore();
  });

  it('sends a throttled or failed batch again, and gives up at once on an error no retry can fix', async () => {
    const mock = mockClient(client);
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    const unavailable = Object.assign(new Error('Service unavailable'), {
      name: 'ServiceUnavailable',
      $metadata: { httpStatusCode: 503 },
    });
    mock
      .on(BatchWriteCommand)
      .rejectsOnce(throttled)
      .rejectsOnce(unavailable)
      .resolves({ UnprocessedItems: {} });
    const delays: number[] = [];

    await putAll(client, 't', items.slice(0, 2), { sleep: async (ms) => void delays.push(ms) });

    expect(mock.commandCalls(BatchWriteCommand)).toHaveLength(3);
    expect(delays).toHaveLength(2);
    mock.reset();
    const invalid = Object.assign(new Error('One or more parameter values were invalid'), {
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    });
    mock.on(BatchWriteCommand).rejects(invalid);

    await expect(putAll(client, 't', items.slice(0, 2), { sleep: async () => {} })).rejects.toBe(invalid);
    expect(mock.commandCalls(BatchWriteCommand)).toHaveLength(1);
    mock.reset();
    mock.on(BatchWriteCommand).rejects(throttled);

    await expect(putAll(client, 't', items.slice(0, 2), { attempts: 4, sleep: async () => {} })).rejects.toBe(
      throttled,
    );
    expect(mock.commandCalls(BatchWriteCommand)).toHaveLength(4);
    mock.restore();
  });

  it('gives up with a clear error when items stay unprocessed after every try', async () => {
    const mock = mockClient(client);
    mock.on(BatchWriteCommand).resolves({ UnprocessedItems: { t: [{ PutRequest: { Item: items[0] } }] } });

    await expect(
      putAll(client, 't', items.slice(0, 1), { attempts: 3, sleep: async () => {} }),
    ).rejects.toThrow('BatchWriteItem left 1 items unprocessed after 3 tries');
    expect(mock.commandCalls(BatchWriteCommand)).toHaveLength(3);
    mock.restore();
  });

  it('puts a key named twice in one request once, the last item, when callers pass copies', async () => {
    const mock = mockClient(client);
    mock.on(BatchWriteCommand).resolves({ UnprocessedItems: {} });
    const copies = [
      { pk: 'P#1', sk: 'DUP#x', of: 'first' },
      { pk: 'P#2', sk: 'S' },
      { pk: 'P#1', sk: 'DUP#x', of: 'second' },
    ];

    await putAll(client, 't', copies, { sleep: async () => {} });

    const [call] = mock.commandCalls(BatchWriteCommand);
    expect(call?.args[0].input.RequestItems?.t?.map((request) => request.PutRequest?.Item)).toEqual([
      { pk: 'P#2', sk: 'S' },
      { pk: 'P#1', sk: 'DUP#x', of: 'second' },
    ]);
    mock.restore();
  });
});
