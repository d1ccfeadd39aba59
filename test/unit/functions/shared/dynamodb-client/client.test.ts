import { ConditionalCheckFailedException, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, NumberValue, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { createArticleDependencies } from '../../../../../functions/article/dependencies.js';
import { createDocumentClient } from '../../../../../functions/shared/dynamodb-client/client.js';
import {
  type Answer,
  type RecordingServer,
  startRecordingServer,
  verifySigV4,
} from '../../../../support/recording-server.js';
import { testConfig } from '../../../../support/test-config.js';

/** What DynamoDB answers a throttled request with. */
const throttled: Answer = {
  status: 400,
  body: JSON.stringify({
    __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    message: 'Rate of requests exceeds the allowed throughput.',
  }),
};

describe('createDocumentClient', () => {
  let server: RecordingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('leaves out the logger middleware, which copies every item for a logger nobody set', () => {
    const client = createDocumentClient({ endpoint: 'http://127.0.0.1:8000' });

    expect(client.middlewareStack.identify().join('\n')).not.toContain('loggerMiddleware');
  });

  it('signs each request with SigV4 over every header DynamoDB checks, and sends the headers the SDK sends', async () => {
    server = await startRecordingServer(() => ({
      body: JSON.stringify({ Item: { pk: { S: 'a' }, sk: { S: 'b' }, n: { N: '7' } } }),
    }));
    const client = createDocumentClient({ endpoint: server.endpoint });

    const first = await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }));
    await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }));

    expect(first.Item).toEqual({ pk: 'a', sk: 'b', n: 7 });
    expect(first.$metadata).toMatchObject({ httpStatusCode: 200, requestId: 'request-1', attempts: 1 });
    for (const request of server.requests) {
      const signed = verifySigV4(request, 'local');
      expect(signed).toEqual(
        expect.arrayContaining([
          'host',
          'content-type',
          'x-amz-target',
          'x-amz-date',
          'x-amz-content-sha256',
        ]),
      );
      expect(request).toMatchObject({ method: 'POST', url: '/' });
      expect(JSON.parse(request.body)).toEqual({ TableName: 't', Key: { pk: { S: 'a' }, sk: { S: 'b' } } });
      expect(request.headers).toMatchObject({
        host: new URL(server.endpoint).host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.GetItem',
        'content-length': String(Buffer.byteLength(request.body)),
        'amz-sdk-request': 'attempt=1; max=3',
      });
      expect(request.headers['amz-sdk-invocation-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(request.headers['user-agent']).toMatch(/^aws-sdk-js\/\S+ .*api\/dynamodb/);
      expect(request.headers['x-amz-user-agent']).toMatch(/^aws-sdk-js\//);
    }
    const [one, two] = server.requests;
    // Each call its own invocation; the user agent built once; one keep-alive connection.
    expect(one!.headers['amz-sdk-invocation-id']).not.toBe(two!.headers['amz-sdk-invocation-id']);
    expect(two!.headers['user-agent']).toBe(one!.headers['user-agent']);
    expect(two!.connection).toBe(one!.connection);
  });

  it('retries a throttled request, signing each attempt anew, and reports the attempts', async () => {
    server = await startRecordingServer((_, index) =>
      index < 2 ? throttled : { body: JSON.stringify({ Items: [{ pk: { S: 'a' } }], Count: 1 }) },
    );
    const client = createDocumentClient({ endpoint: server.endpoint });

    const output = await client.send(
      new QueryCommand({
        TableName: 't',
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'a' },
      }),
    );

    expect(output.Items).toEqual([{ pk: 'a' }]);
    expect(output.$metadata.attempts).toBe(3);
    expect(server.requests.map((request) => request.headers['amz-sdk-request'])).toEqual([
      'attempt=1; max=3',
      'attempt=2; max=3',
      'attempt=3; max=3',
    ]);
    for (const request of server.requests) verifySigV4(request, 'local');
  });

  it('gives up on a table that stays throttled after three attempts, with the SDK exception', async () => {
    server = await startRecordingServer(() => throttled);
    const client = createDocumentClient({ endpoint: server.endpoint });

    await expect(client.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }))).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
      $metadata: { httpStatusCode: 400, attempts: 3 },
    });
    expect(server.requests).toHaveLength(3);
  });

  it('fails a broken condition at once with the typed exception, the old item unmarshalled', async () => {
    server = await startRecordingServer(() => ({
      status: 400,
      body: JSON.stringify({
        __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
        message: 'The conditional request failed',
        Item: { pk: { S: 'a' }, bytes: { B: 'AQID' } },
      }),
    }));
    const client = createDocumentClient({ endpoint: server.endpoint });

    const failure = await client
      .send(
        new UpdateCommand({
          TableName: 't',
          Key: { pk: 'a' },
          UpdateExpression: 'SET n = :n',
          ConditionExpression: 'attribute_not_exists(pk)',
          ExpressionAttributeValues: { ':n': 1 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      )
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ConditionalCheckFailedException);
    expect((failure as ConditionalCheckFailedException).Item).toEqual({
      pk: { S: 'a' },
      bytes: { B: new Uint8Array([1, 2, 3]) },
    });
    expect(server.requests).toHaveLength(1);
  });

  it('fails a stalled request after its timeout, three attempts in all, instead of waiting for the socket', async () => {
    server = await startRecordingServer(() => undefined);
    const client = createDocumentClient({
      endpoint: server.endpoint,
      timeouts: { connectMs: 100, requestMs: 200 },
    });
    const started = Date.now();

    await expect(
      client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } })),
    ).rejects.toMatchObject({ name: 'TimeoutError' });

    expect(server.requests).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('retries a connection the server drops, as the SDK does', async () => {
    server = await startRecordingServer((_, index) => (index === 0 ? 'reset' : { body: '{}' }));
    const client = createDocumentClient({ endpoint: server.endpoint });

    const output = await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }));

    expect(output.Item).toBeUndefined();
    expect(output.$metadata.attempts).toBe(2);
  });

  it('refuses a write naming an attribute __proto__ or constructor, sending nothing', async () => {
    server = await startRecordingServer();
    const client = createDocumentClient({ endpoint: server.endpoint });
    // As JSON.parse builds it, an own member: written as is, util-dynamodb would garble the map.
    const proto = JSON.parse('{"pk":"a","m":{"__proto__":"w"}}') as Record<string, unknown>;

    await expect(client.send(new PutCommand({ TableName: 't', Item: proto }))).rejects.toThrow(
      'DynamoDB attribute "__proto__" at input.Item.m is refused',
    );
    await expect(
      client.send(
        new UpdateCommand({
          TableName: 't',
          Key: { pk: 'a' },
          UpdateExpression: 'SET n = :n',
          ExpressionAttributeValues: { ':n': [{ constructor: 'c' }] },
        }),
      ),
    ).rejects.toThrow('DynamoDB attribute "constructor" at input.ExpressionAttributeValues.:n[0] is refused');
    // util-dynamodb writes a Map as a map: its keys are names too.
    await expect(
      client.send(new PutCommand({ TableName: 't', Item: { pk: 'a', m: new Map([['__proto__', 'x']]) } })),
    ).rejects.toThrow('DynamoDB attribute "__proto__" at input.Item.m is refused');
    expect(server.requests).toHaveLength(0);
  });

  it('reads every map onto a null prototype, a stored __proto__ dropped and never a prototype', async () => {
    // As another writer could have stored it: JSON, where "__proto__" is a name like any other.
    server = await startRecordingServer(() => ({
      body:
        '{"Item":{"pk":{"S":"a"},"__proto__":{"M":{"polluted":{"BOOL":true}}},' +
        '"m":{"M":{"__proto__":{"M":{"status":{"S":"approved"}}},"n":{"N":"1"}}},"constructor":{"S":"c"}}}',
    }));
    const client = createDocumentClient({ endpoint: server.endpoint });

    const item = (await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }))).Item as Record<
      string,
      unknown
    >;

    expect(Object.getPrototypeOf(item)).toBeNull();
    expect(Object.keys(item)).toEqual(['pk', 'm', 'constructor']);
    expect(item.polluted).toBeUndefined();
    expect(item.toString).toBeUndefined();
    expect(item.constructor).toBe('c');
    const map = item.m as Record<string, unknown>;
    expect(Object.getPrototypeOf(map)).toBeNull();
    expect(Object.keys(map)).toEqual(['n']);
    expect(map.status).toBeUndefined();
  });

  it('reads a number beyond 2^53 exactly, leaves out undefined members and keeps sets and bytes whole', async () => {
    server = await startRecordingServer((request) =>
      request.headers['x-amz-target'] === 'DynamoDB_20120810.GetItem'
        ? {
            body: JSON.stringify({
              Item: {
                big: { N: '90071992547409930001' },
                small: { N: '7' },
                tags: { SS: ['a', 'b'] },
                bytes: { B: 'AQID' },
              },
            }),
          }
        : {},
    );
    const client = createDocumentClient({ endpoint: server.endpoint });

    await client.send(new PutCommand({ TableName: 't', Item: { pk: 'a', gone: undefined } }));
    const item = (await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }))).Item!;

    expect(JSON.parse(server.requests[0]!.body)).toEqual({ TableName: 't', Item: { pk: { S: 'a' } } });
    expect(item.big).toBeInstanceOf(NumberValue);
    expect(String(item.big)).toBe('90071992547409930001');
    expect(item.small).toBe(7);
    expect(item.tags).toEqual(new Set(['a', 'b']));
    expect(item.bytes).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('leaves class instances in an answer whole, a date among them', async () => {
    server = await startRecordingServer(() => ({
      body: JSON.stringify({ Table: { TableName: 't', CreationDateTime: 1_764_000_000 } }),
    }));
    const client = createDocumentClient({ endpoint: server.endpoint });

    const output = await client.send(new DescribeTableCommand({ TableName: 't' }) as never);

    const table = (output as { Table: { TableName: string; CreationDateTime: unknown } }).Table;
    expect(Object.getPrototypeOf(table)).toBeNull();
    expect(table.TableName).toBe('t');
    expect(table.CreationDateTime).toEqual(new Date(1_764_000_000_000));
  });

  it('stops a request when its abort signal fires', async () => {
    server = await startRecordingServer(() => undefined);
    const client = createDocumentClient({ endpoint: server.endpoint });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);

    await expect(
      client.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }), { abortSignal: abort.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });
});

describe("the functions' client", () => {
  let server: RecordingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('gives the functions a client with the configured DynamoDB timeouts', async () => {
    server = await startRecordingServer(() => undefined);
    const services = createArticleDependencies(
      testConfig({ DYNAMODB_ENDPOINT: server.endpoint, DYNAMODB_REQUEST_TIMEOUT_MS: '150' }),
    );

    await expect(services.counters.increment('/p', 'time')).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(server.requests).toHaveLength(3);
  });

  it('keeps three attempts of the default timeouts inside the functions 10 s', () => {
    const config = testConfig();

    expect(config.DYNAMODB_CONNECT_TIMEOUT_MS).toBe(1000);
    expect(config.DYNAMODB_REQUEST_TIMEOUT_MS).toBe(2500);
    // Three attempts and the SDK's backoff between them (under 1 s for two retries).
    expect(3 * config.DYNAMODB_REQUEST_TIMEOUT_MS + 1000).toBeLessThan(10_000);
  });
});
