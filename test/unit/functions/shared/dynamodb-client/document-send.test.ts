import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  NumberValue,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '../../../../../functions/shared/dynamodb-client/client.js';
import { translate } from '../../../../../functions/shared/dynamodb-client/document-send.js';
import { type RecordingServer, startRecordingServer } from '../../../../support/recording-server.js';

/** An item with every kind of value the table holds, and some it does not (yet). */
const item = {
  pk: 'URL#/p',
  sk: 'C#01A',
  like: 3,
  ratio: 0.5,
  big: NumberValue.from('123456789012345678901234567890'),
  sticky: true,
  empty: null,
  gone: undefined,
  tags: new Set(['a', 'b']),
  counts: new Set([1, 2]),
  nested: { list: [1, 'two', { three: false }], map: { deep: 'x' } },
  bytes: new Uint8Array([1, 2, 3]),
};
const key = { pk: 'URL#/p', sk: 'C#01A' };
const values = { ':one': 1, ':text': 'x', ':set': new Set(['s']), ':list': ['a', 2] };

/** One of each lib-dynamodb command the storage layer sends, with every member that holds values. */
const commands = () => [
  new GetCommand({ TableName: 't', Key: key, ProjectionExpression: 'pk' }),
  new PutCommand({ TableName: 't', Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
  new UpdateCommand({
    TableName: 't',
    Key: key,
    UpdateExpression: 'ADD #n :one SET #t = :text',
    ExpressionAttributeNames: { '#n': 'n', '#t': 't' },
    ExpressionAttributeValues: values,
    ReturnValues: 'UPDATED_NEW',
  }),
  new DeleteCommand({ TableName: 't', Key: key, ExpressionAttributeValues: { ':x': 'y' } }),
  new QueryCommand({
    TableName: 't',
    KeyConditionExpression: 'pk = :one',
    ExpressionAttributeValues: values,
    ExclusiveStartKey: key,
    Limit: 5,
  }),
  new ScanCommand({ TableName: 't', ExclusiveStartKey: key, ExpressionAttributeValues: { ':a': 1 } }),
  new BatchGetCommand({
    RequestItems: { t: { Keys: [key, { pk: 'b', sk: 'c' }], ProjectionExpression: 'pk' } },
  }),
  new BatchWriteCommand({
    RequestItems: { t: [{ PutRequest: { Item: item } }, { DeleteRequest: { Key: key } }] },
  }),
  new TransactGetCommand({ TransactItems: [{ Get: { TableName: 't', Key: key } }] }),
  new TransactWriteCommand({
    ClientRequestToken: 'token',
    TransactItems: [
      { Put: { TableName: 't', Item: item } },
      {
        Update: {
          TableName: 't',
          Key: key,
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: values,
        },
      },
      { ConditionCheck: { TableName: 't', Key: key, ConditionExpression: 'attribute_exists(pk)' } },
      { Delete: { TableName: 't', Key: key } },
    ],
  }),
];

/** What DynamoDB could answer each operation with: every output member that holds attribute values. */
const storedItem = {
  pk: { S: 'URL#/p' },
  like: { N: '3' },
  big: { N: '123456789012345678901234567890' },
  tags: { SS: ['a'] },
  bytes: { B: 'AQID' },
  nested: { M: { list: { L: [{ N: '1' }, { BOOL: true }, { NULL: true }] } } },
};
const answers: Record<string, unknown> = {
  GetItem: { Item: storedItem },
  PutItem: { Attributes: storedItem },
  UpdateItem: { Attributes: { like: { N: '4' } } },
  DeleteItem: { Attributes: storedItem },
  Query: { Items: [storedItem, storedItem], Count: 2, LastEvaluatedKey: { pk: { S: 'a' }, sk: { S: 'b' } } },
  Scan: { Items: [storedItem], LastEvaluatedKey: { pk: { S: 'a' } } },
  BatchGetItem: {
    Responses: { t: [storedItem] },
    UnprocessedKeys: { t: { Keys: [{ pk: { S: 'b' }, sk: { S: 'c' } }] } },
  },
  BatchWriteItem: { UnprocessedItems: { t: [{ PutRequest: { Item: storedItem } }] } },
  TransactGetItems: { Responses: [{ Item: storedItem }] },
  TransactWriteItems: {},
};

const answerFor = (target: string | string[] | undefined) => ({
  body: JSON.stringify(answers[String(target).split('.')[1]!] ?? {}),
});

/** lib-dynamodb's own document client, with the translation options client.ts gives ours. */
function libDynamoDbClient(endpoint: string) {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    }),
    {
      marshallOptions: { removeUndefinedValues: true },
      unmarshallOptions: {
        wrapNumbers: (text) => {
          const value = Number(text);
          return Number.isSafeInteger(value) || !Number.isInteger(value) ? value : NumberValue.from(text);
        },
      },
    },
  );
}

const withoutMetadata = (output: unknown) => {
  const { $metadata: _, ...rest } = output as Record<string, unknown>;
  return rest;
};

describe('the document client send', () => {
  let server: RecordingServer | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await server?.close();
    server = undefined;
  });

  it('writes every command on the wire as lib-dynamodb does, and reads every answer back as it does', async () => {
    server = await startRecordingServer((request) => answerFor(request.headers['x-amz-target']));
    const ours = createDocumentClient({ endpoint: server.endpoint });
    const theirs = libDynamoDbClient(server.endpoint);

    for (const [index, command] of commands().entries()) {
      const output = await ours.send(command as never);
      const expected = await theirs.send(commands()[index] as never);
      const [sent, reference] = server.requests.slice(-2);
      expect(sent!.headers['x-amz-target'], command.constructor.name).toBe(
        reference!.headers['x-amz-target'],
      );
      expect(JSON.parse(sent!.body), command.constructor.name).toEqual(JSON.parse(reference!.body));
      expect(withoutMetadata(output), command.constructor.name).toEqual(withoutMetadata(expected));
    }
    // The answers really held values to unmarshall: a number beyond 2^53 stays exact.
    const got = await ours.send(new GetCommand({ TableName: 't', Key: key }));
    expect(got.Item).toMatchObject({ like: 3, big: NumberValue.from('123456789012345678901234567890') });
    expect(got.Item?.bytes).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('resolves the middleware stack once per command class, not per call', async () => {
    server = await startRecordingServer((request) => answerFor(request.headers['x-amz-target']));
    const ours = createDocumentClient({ endpoint: server.endpoint });
    const resolve = vi.spyOn(GetItemCommand.prototype, 'resolveMiddleware');

    for (let call = 0; call < 5; call++) await ours.send(new GetCommand({ TableName: 't', Key: key }));

    expect(server.requests).toHaveLength(5);
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  it('resolves a stack of its own for a call with options, leaving the cached one in place', async () => {
    server = await startRecordingServer((request) => answerFor(request.headers['x-amz-target']));
    const ours = createDocumentClient({ endpoint: server.endpoint });
    const resolve = vi.spyOn(GetItemCommand.prototype, 'resolveMiddleware');

    await ours.send(new GetCommand({ TableName: 't', Key: key }));
    await ours.send(new GetCommand({ TableName: 't', Key: key }), {
      abortSignal: new AbortController().signal,
    });
    await ours.send(new GetCommand({ TableName: 't', Key: key }));

    expect(resolve).toHaveBeenCalledTimes(2);
    expect(resolve.mock.calls[1]![2]).toMatchObject({ abortSignal: expect.anything() });
  });

  it('keeps concurrent calls of one class apart: each gets its own answer, signed for its own body', async () => {
    server = await startRecordingServer((request) => {
      const { Key } = JSON.parse(request.body) as { Key: { pk: { S: string } } };
      return { body: JSON.stringify({ Item: { pk: Key.pk, echo: { S: `for ${Key.pk.S}` } } }) };
    });
    const ours = createDocumentClient({ endpoint: server.endpoint });

    const outputs = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        ours.send(new GetCommand({ TableName: 't', Key: { pk: `p${index}`, sk: 's' } })),
      ),
    );

    expect(outputs.map((output) => output.Item)).toEqual(
      Array.from({ length: 20 }, (_, index) => ({ pk: `p${index}`, echo: `for p${index}` })),
    );
    const invocations = new Set(server.requests.map((request) => request.headers['amz-sdk-invocation-id']));
    expect(invocations.size).toBe(20);
  });

  it('keeps an attribute named __proto__ (or constructor) an own attribute, in and out, and sets no prototype', async () => {
    // As DynamoDB would answer: JSON, where "__proto__" is a name like any other.
    const stored =
      '{"Item":{"pk":{"S":"a"},"__proto__":{"M":{"__proto__":{"S":"inner"},"polluted":{"BOOL":true}}},' +
      '"constructor":{"S":"c"}}}';
    server = await startRecordingServer(() => ({ body: stored }));
    const ours = createDocumentClient({ endpoint: server.endpoint });
    const item = JSON.parse('{"pk":"a","__proto__":{"__proto__":"inner","n":1},"constructor":"c"}') as object;

    await ours.send(new PutCommand({ TableName: 't', Item: item as Record<string, unknown> }));
    const got = (await ours.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }))).Item as object;

    const sent = (JSON.parse(server.requests[0]!.body) as { Item: object }).Item;
    expect(Object.keys(sent)).toEqual(['pk', '__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(sent, '__proto__')?.value).toEqual({
      M: JSON.parse('{"__proto__":{"S":"inner"},"n":{"N":"1"}}'),
    });
    expect(Object.keys(got)).toEqual(['pk', '__proto__', 'constructor']);
    const inner = Object.getOwnPropertyDescriptor(got, '__proto__')?.value as object;
    expect(Object.getOwnPropertyDescriptor(inner, '__proto__')?.value).toBe('inner');
    expect(Object.getOwnPropertyDescriptor(inner, 'polluted')?.value).toBe(true);
    // No object's prototype became a stored value.
    expect(Object.getPrototypeOf(got)).toBeNull();
    expect(Object.getPrototypeOf(inner)).toBeNull();
    expect((got as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((got as { constructor?: unknown }).constructor).toBe('c');
  });

  it('passes a command that is not lib-dynamodb’s to the client as it is', async () => {
    server = await startRecordingServer((request) => answerFor(request.headers['x-amz-target']));
    const ours = createDocumentClient({ endpoint: server.endpoint });

    const output = await ours.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' } } }) as never);

    // Attribute values as they came: nothing unmarshalled a client command's output.
    expect((output as { Item: Record<string, unknown> }).Item).toMatchObject({
      pk: { S: 'URL#/p' },
      like: { N: '3' },
    });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ TableName: 't', Key: { pk: { S: 'a' } } });
  });
});

describe('translate', () => {
  const upper = (value: unknown) => String(value).toUpperCase();

  it('converts the named members, each entry of {} or [], and each entry below *, leaving the rest', () => {
    const input = {
      Key: { a: 'x', b: 'y', skip: undefined },
      List: ['p', 'q'],
      Per: { t: { Keys: ['k'] } },
      Self: 'z',
      Kept: 'k',
      fn: () => 1,
    };
    expect(translate(input, { Key: {}, List: [], Per: { '*': { Keys: [] } }, Self: null }, upper)).toEqual({
      Key: { a: 'X', b: 'Y' },
      List: ['P', 'Q'],
      Per: { t: { Keys: ['K'] } },
      Self: 'Z',
      Kept: 'k',
    });
  });

  it('leaves an absent member absent', () => {
    expect(translate({ Other: 1 }, { Item: {} }, upper)).toEqual({ Other: 1 });
    expect(translate(undefined, { Item: {} }, upper)).toBeUndefined();
  });
});
