import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactGetItemsCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../../../functions/shared/dynamodb-client/client.js';
import { decodeOutput, encodeInput } from '../../../../../functions/shared/dynamodb-client/json-serde.js';
import { type RecordingServer, startRecordingServer } from '../../../../support/recording-server.js';

const bytes = (...values: number[]) => new Uint8Array(values);
/** Attribute values of every type, nested. */
const item = {
  pk: { S: 'URL#/p' },
  n: { N: '12.5' },
  big: { N: '340282366920938463463374607431768211455' },
  b: { B: bytes(0, 1, 254, 255) },
  bs: { BS: [bytes(1), Buffer.from([2, 3])] },
  ss: { SS: ['a', '"B"'] },
  ns: { NS: ['1', '2'] },
  yes: { BOOL: true },
  nothing: { NULL: true },
  list: { L: [{ S: 'x' }, { M: { inner: { B: bytes(9) } } }] },
  map: { M: { B: { S: 'an attribute named B' }, BS: { N: '1' } } },
};
const key = { pk: { S: 'URL#/p' }, sk: { S: 'C#1' } };

/** One command of every data-plane operation, and DescribeTable, which the fast path leaves to the SDK. */
const commands = () => [
  new GetItemCommand({ TableName: 't', Key: key, ConsistentRead: true, ProjectionExpression: '#a' }),
  new PutItemCommand({ TableName: 't', Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
  new UpdateItemCommand({
    TableName: 't',
    Key: key,
    UpdateExpression: 'ADD #n :one',
    ExpressionAttributeNames: { '#n': 'n' },
    ExpressionAttributeValues: { ':one': { N: '1' }, ':b': { B: bytes(7) } },
    ReturnValues: 'ALL_NEW',
  }),
  new DeleteItemCommand({ TableName: 't', Key: key, ReturnValues: undefined }),
  new QueryCommand({
    TableName: 't',
    IndexName: 'roots-by-time',
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': { S: 'URL#/p' } },
    ExclusiveStartKey: key,
    Limit: 10,
    ScanIndexForward: false,
  }),
  new ScanCommand({ TableName: 't', Segment: 0, TotalSegments: 2 }),
  new BatchGetItemCommand({ RequestItems: { t: { Keys: [key, key], ProjectionExpression: 'pk' } } }),
  new BatchWriteItemCommand({
    RequestItems: { t: [{ PutRequest: { Item: item } }, { DeleteRequest: { Key: key } }] },
  }),
  new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: 't', Key: key } }] }),
  new TransactWriteItemsCommand({
    TransactItems: [
      { Put: { TableName: 't', Item: item } },
      {
        Update: {
          TableName: 't',
          Key: key,
          UpdateExpression: 'SET a = :a',
          ExpressionAttributeValues: { ':a': item.b },
        },
      },
    ],
  }),
  new TransactWriteItemsCommand({
    TransactItems: [{ Delete: { TableName: 't', Key: key } }],
    ClientRequestToken: 'token-1',
  }),
  new DescribeTableCommand({ TableName: 't' }),
];

/** A plausible answer of each operation, binary values in base64 as DynamoDB sends them. */
const answers: Record<string, unknown> = {
  GetItem: { Item: { ...key, b: { B: 'AAH+/w==' }, bs: { BS: ['AQ==', 'AgM='] }, yes: { BOOL: false } } },
  PutItem: { ConsumedCapacity: { TableName: 't', CapacityUnits: 1.5 } },
  UpdateItem: { Attributes: { n: { N: '13' }, list: { L: [{ B: 'CQ==' }] } } },
  DeleteItem: {},
  Query: {
    Items: [
      { ...key, text: { S: 'He said "B" and "BS":' } },
      { ...key, m: { M: { x: { NULL: true } } } },
    ],
    Count: 2,
    ScannedCount: 2,
    LastEvaluatedKey: key,
  },
  Scan: { Items: [], Count: 0, ScannedCount: 0 },
  BatchGetItem: { Responses: { t: [{ ...key, b: { B: 'AQ==' } }] }, UnprocessedKeys: { t: { Keys: [key] } } },
  BatchWriteItem: { UnprocessedItems: { t: [{ DeleteRequest: { Key: key } }] } },
  TransactGetItems: { Responses: [{ Item: { ...key, b: { B: 'AQ==' } } }, {}] },
  TransactWriteItems: { ConsumedCapacity: [{ TableName: 't', CapacityUnits: 4 }] },
  DescribeTable: {
    Table: { TableName: 't', TableStatus: 'ACTIVE', CreationDateTime: 1_700_000_000.5, ItemCount: 3 },
  },
};

/** Sends one command through a client and returns its output and the request's operation, body and path. */
async function exchange(
  client: DynamoDBClient | DynamoDBDocumentClient,
  server: RecordingServer,
  command: object,
) {
  const before = server.requests.length;
  // Both clients send any command of the DynamoDB client; their send overloads differ in type only.
  const output = await (client as DynamoDBClient).send(command as GetItemCommand);
  const request = server.requests[before]!;
  return { output, request, body: JSON.parse(request.body) as Record<string, unknown> };
}

describe('the JSON fast path of the data-plane operations', () => {
  let server: RecordingServer;
  let sdk: DynamoDBClient;
  let ours: DynamoDBDocumentClient;
  beforeAll(async () => {
    server = await startRecordingServer((request) => {
      const operation = String(request.headers['x-amz-target']).split('.')[1]!;
      return { body: JSON.stringify(answers[operation]) };
    });
    // The SDK's client as it comes: its schema serializer and deserializer.
    sdk = new DynamoDBClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    ours = createDocumentClient({ endpoint: server.endpoint });
  });
  afterAll(async () => {
    sdk.destroy();
    await server.close();
  });

  it('writes every request body, target and path as the SDK writes it', async () => {
    for (const [index, command] of commands().entries()) {
      const expected = await exchange(sdk, server, command);
      const actual = await exchange(ours, server, commands()[index]!);

      const operation = expected.request.headers['x-amz-target'];
      expect(actual.request.headers['x-amz-target'], String(operation)).toBe(operation);
      expect(actual.request.headers['content-type']).toBe(expected.request.headers['content-type']);
      expect(actual.request.url).toBe(expected.request.url);
      // The SDK fills in a missing idempotency token with a fresh UUID: so does the fast path.
      if (
        typeof expected.body.ClientRequestToken === 'string' &&
        (command as unknown as { input: Record<string, unknown> }).input.ClientRequestToken === undefined
      ) {
        expect(actual.body.ClientRequestToken).toMatch(/^[0-9a-f-]{36}$/);
        expect(actual.body.ClientRequestToken).not.toBe(expected.body.ClientRequestToken);
        actual.body.ClientRequestToken = expected.body.ClientRequestToken;
      }
      expect(actual.body, String(operation)).toEqual(expected.body);
    }
  });

  it('reads every answer into the output the SDK reads, binary values as bytes', async () => {
    for (const [index, command] of commands().entries()) {
      const expected = await exchange(sdk, server, command);
      const actual = await exchange(ours, server, commands()[index]!);

      const { $metadata: expectedMetadata, ...expectedOutput } = expected.output;
      const { $metadata: actualMetadata, ...actualOutput } = actual.output;
      expect(actualOutput, String(expected.request.headers['x-amz-target'])).toEqual(expectedOutput);
      expect({ ...actualMetadata, requestId: undefined }).toEqual({
        ...expectedMetadata,
        requestId: undefined,
      });
      expect(actualMetadata.requestId).toBe(`request-${server.requests.length}`);
    }
  });

  it('leaves an error to the SDK, which builds the typed exception', async () => {
    const failing = await startRecordingServer(() => ({
      status: 400,
      body: JSON.stringify({
        __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
        message: 'Transaction cancelled',
        CancellationReasons: [
          { Code: 'ConditionalCheckFailed', Item: { b: { B: 'AQ==' } } },
          { Code: 'None' },
        ],
      }),
    }));
    const client = createDocumentClient({ endpoint: failing.endpoint });
    try {
      const failure = await client
        .send(new TransactWriteItemsCommand({ TransactItems: [{ Delete: { TableName: 't', Key: key } }] }))
        .catch((error: unknown) => error);

      expect(failure).toBeInstanceOf(TransactionCanceledException);
      expect((failure as TransactionCanceledException).CancellationReasons).toEqual([
        { Code: 'ConditionalCheckFailed', Item: { b: { B: bytes(1) } } },
        { Code: 'None' },
      ]);
    } finally {
      await failing.close();
    }
  });
});

describe('encodeInput', () => {
  it('writes bytes in base64 and leaves out null and undefined members', () => {
    const input = {
      TableName: 't',
      Key: { b: { B: Buffer.from([1, 2]) } },
      Limit: null,
      IndexName: undefined,
    };

    expect(JSON.parse(encodeInput('GetItem', input))).toEqual({ TableName: 't', Key: { b: { B: 'AQI=' } } });
  });

  it('keeps a null element of a list, as the SDK writes it', () => {
    expect(encodeInput('Query', { Values: [null, 1] })).toBe('{"Values":[null,1]}');
  });
});

describe('decodeOutput', () => {
  it('turns binary values into bytes wherever they are, whatever the spacing of the JSON', () => {
    const body = Buffer.from('{ "Item" : { "b" : { "B" : "AQI=" }, "s": { "BS" :["AQ=="] } } }');

    expect(decodeOutput(body)).toEqual({ Item: { b: { B: bytes(1, 2) }, s: { BS: [bytes(1)] } } });
  });

  it('leaves strings alone that only look like binary keys', () => {
    const body = Buffer.from(JSON.stringify({ Item: { t: { S: '"B": x' }, f: { BOOL: false } } }));

    expect(decodeOutput(body)).toEqual({ Item: { t: { S: '"B": x' }, f: { BOOL: false } } });
  });

  it('reads an attribute named __proto__ as an own member, its bytes decoded, with no prototype set', () => {
    const body = Buffer.from('{"Item":{"__proto__":{"M":{"__proto__":{"B":"AQI="}}},"pk":{"S":"a"}}}');

    const item = (decodeOutput(body) as { Item: object }).Item;

    expect(Object.keys(item)).toEqual(['__proto__', 'pk']);
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    const map = Object.getOwnPropertyDescriptor(item, '__proto__')?.value as { M: object };
    expect(Object.getOwnPropertyDescriptor(map.M, '__proto__')?.value).toEqual({ B: bytes(1, 2) });
  });

  it('writes an attribute named __proto__ of the input as the name it is, its bytes in base64', () => {
    // As document-send.ts hands it over: an item on a null prototype, where __proto__ is a plain key.
    const item = Object.create(null) as Record<string, unknown>;
    item.__proto__ = { B: new Uint8Array([1, 2]) };

    expect(encodeInput('PutItem', { TableName: 't', Item: item })).toBe(
      '{"TableName":"t","Item":{"__proto__":{"B":"AQI="}}}',
    );
  });

  it('reads an empty answer as an empty output and leaves a stream to the SDK', () => {
    expect(decodeOutput(Buffer.alloc(0))).toEqual({});
    expect(decodeOutput('{}')).toBeUndefined();
  });
});
