/**
 * What the AWS SDK costs per DynamoDB call: the CPU of a GetItem, a BatchGetItem of 3 and a Query of 30
 * comment items through the functions' document client (client.ts, configured as createFunctionClient
 * configures it), against the same requests sent bare (bare-dynamodb.ts: signed with the SDK's SigV4 signer,
 * posted with node:http, parsed with JSON.parse). The difference is what the client adds per call:
 * middleware, endpoint and auth resolution, serde, marshalling to and from plain values, retries, the
 * request handler.
 *
 * Each runtime runs in a process of its own (sdk-overhead-process.ts): the project's Node.js, and Lambda's
 * (tools/node22, or LAMBDA_NODE_BINARY) when installed. Calls run one at a time. After a warm-up of every
 * request through both paths, each round runs a batch of each request through each path, the requests
 * taking turns to lead the round and the paths to go first, so that what a batch leaves behind (garbage to
 * collect) falls on each alike; a batch's CPU is `process.cpuUsage()` (user + system) around it. A figure
 * is the median over the rounds; the ratio, the median of the rounds' client / bare.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CreateTableCommand, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { projectRoot } from '../../lib/bundle-options.js';
import { createDocumentClient } from '../../functions/shared/dynamodb-client/client.js';
import { toCommentItem } from '../../functions/shared/table/comment-item.js';
import { createLocalDynamoDbClient } from '../create-table.js';
import { createBareDynamoDb } from './bare-dynamodb.js';
import { benchRuntimes } from './lambda-node.js';
import { cpuMsOf, median } from './measure.js';
import { buildScaleComments, scaleArticles } from './scale-seed.js';

/** One request's CPU per call through each path. */
export interface SdkOverheadCase {
  readonly name: string;
  /** Items the request reads. */
  readonly items: number;
  /** Median over the rounds, ms. */
  readonly clientMs: number;
  readonly bareMs: number;
  /** Median over the rounds of client / bare. */
  readonly ratio: number;
  /** Each round's CPU per call, ms. */
  readonly clientRoundsMs: readonly number[];
  readonly bareRoundsMs: readonly number[];
}

/** The three requests on one runtime. */
export interface SdkOverhead {
  /** `process.version` of the runtime. */
  readonly node: string;
  /** Which runtime: the project's Node.js, or Lambda's. */
  readonly runtime: 'project' | 'lambda';
  readonly settings: SdkOverheadSettings;
  readonly cases: readonly SdkOverheadCase[];
}

/** How much to run. */
export interface SdkOverheadSettings {
  readonly rounds: number;
  readonly callsPerRound: number;
  /** Unmeasured calls of each request through each path first: the JIT needs about a thousand. */
  readonly warmupCalls: number;
}

/** 12 rounds: each of the 3 requests leads 4 of them, each path going first in 2 of those. */
export const defaultSdkOverheadSettings: SdkOverheadSettings = {
  rounds: 12,
  callsPerRound: 150,
  warmupCalls: 1500,
};

/**
 * The client CPU per call of the hand-tuned client this one replaced (until 2026-11: a request handler, serde and
 * middleware stack of its own, built on the SDK's private insides), by Node.js major and request: the medians of
 * its last run on a calm host, for the report to set beside the SDK as it comes. Its bare figures were the same
 * as today's within a few percent.
 */
export const handTunedClientMs: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  '20': { GetItem: 0.361, 'BatchGetItem of 3': 0.435, 'Query of 30': 0.939 },
  '22': { GetItem: 0.318, 'BatchGetItem of 3': 0.395, 'Query of 30': 0.927 },
};

/** The hand-tuned client's CPU per call of `request` on Node.js `node` (`v22.x.y`), if measured. */
export function handTunedMs(node: string, request: string): number | undefined {
  return handTunedClientMs[node.replace(/^v/, '').split('.')[0] ?? '']?.[request];
}

const tableName = 'marginalia-sdk-overhead';
const partition = 'SDK#article';
const region = 'us-east-1';
/** What the functions' client signs with in local mode (client.ts). */
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const entry = fileURLToPath(new URL('./sdk-overhead-process.ts', import.meta.url));

type Key = { pk: string; sk: string };

/** One request through both paths; each resolves to the number of items it read. */
export interface RequestCase {
  readonly name: string;
  readonly items: number;
  readonly client: () => Promise<number>;
  readonly bare: () => Promise<number>;
}

/**
 * Measures the three requests on the project's Node.js and on Lambda's when installed, one process each,
 * against the DynamoDB Local at `endpoint`.
 */
export async function measureSdkOverheadOnRuntimes(
  endpoint: string,
  settings: SdkOverheadSettings = defaultSdkOverheadSettings,
): Promise<SdkOverhead[]> {
  const results: SdkOverhead[] = [];
  for (const { runtime, node } of benchRuntimes()) {
    results.push({ ...(await runInProcess(node, endpoint, settings)), runtime });
  }
  return results;
}

/** Runs sdk-overhead-process.ts on `node` and returns what it measured. */
function runInProcess(
  node: string,
  endpoint: string,
  settings: SdkOverheadSettings,
): Promise<Omit<SdkOverhead, 'runtime'>> {
  const child: ChildProcess = spawn(node, ['--import', 'tsx', entry], {
    cwd: projectRoot,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      SDK_OVERHEAD_ENDPOINT: endpoint,
      SDK_OVERHEAD_SETTINGS: JSON.stringify(settings),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
  return new Promise((resolve, reject) => {
    let result: Omit<SdkOverhead, 'runtime'> | undefined;
    child.on('message', (message: Omit<SdkOverhead, 'runtime'>) => (result = message));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      result
        ? resolve(result)
        : reject(new Error(`the SDK overhead process on ${node} failed (code ${code}, signal ${signal})`)),
    );
  });
}

/** Seeds the table, measures the three requests in this process, and returns the figures. */
export async function measureSdkOverhead(
  endpoint: string,
  settings: SdkOverheadSettings = defaultSdkOverheadSettings,
): Promise<Omit<SdkOverhead, 'runtime'>> {
  const { cases, close } = await prepareSdkOverhead(endpoint);
  try {
    for (const requestCase of cases) {
      await repeat(requestCase.client, requestCase.items, settings.warmupCalls);
      await repeat(requestCase.bare, requestCase.items, settings.warmupCalls);
    }
    const perCall = new Map(
      cases.map((requestCase) => [requestCase, { client: [] as number[], bare: [] as number[] }]),
    );
    for (let round = 0; round < settings.rounds; round++) {
      const order = cases.map((_, index) => cases[(index + round) % cases.length]!);
      for (const requestCase of order) {
        const samples = perCall.get(requestCase)!;
        const paths = [
          { run: requestCase.client, into: samples.client },
          { run: requestCase.bare, into: samples.bare },
        ];
        // Over two rounds of the same order, each path goes first once.
        if (Math.floor(round / cases.length) % 2 === 1) paths.reverse();
        for (const path of paths) {
          path.into.push(await cpuPerCall(path.run, requestCase.items, settings.callsPerRound));
        }
      }
    }
    return {
      node: process.version,
      settings,
      cases: cases.map((requestCase) => {
        const { client, bare } = perCall.get(requestCase)!;
        return {
          name: requestCase.name,
          items: requestCase.items,
          clientMs: median(client),
          bareMs: median(bare),
          ratio: median(client.map((ms, round) => ms / bare[round]!)),
          clientRoundsMs: client,
          bareRoundsMs: bare,
        };
      }),
    };
  } finally {
    close();
  }
}

/** The three requests, ready to run through either path, and how to let go of both clients. */
export async function prepareSdkOverhead(
  endpoint: string,
): Promise<{ cases: readonly RequestCase[]; close(): void }> {
  const keys = await seedTable(endpoint);
  // As createFunctionClient builds it, with the functions' default timeouts (config.ts).
  const client = createDocumentClient({ endpoint, timeouts: { connectMs: 1000, requestMs: 2500 } });
  const bare = await createBareDynamoDb(endpoint, region, credentials);
  const [first, second, third] = keys as [Key, Key, Key];
  const three = [first, second, third];
  const attributeKey = (key: Key) => ({ pk: { S: key.pk }, sk: { S: key.sk } });
  const query = {
    TableName: tableName,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': 'pk' },
  };
  const cases: RequestCase[] = [
    {
      name: 'GetItem',
      items: 1,
      client: async () =>
        (await client.send(new GetCommand({ TableName: tableName, Key: first }))).Item ? 1 : 0,
      bare: async () =>
        (await bare.call('GetItem', { TableName: tableName, Key: attributeKey(first) })).Item ? 1 : 0,
    },
    {
      name: 'BatchGetItem of 3',
      items: 3,
      client: async () =>
        (await client.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: three } } })))
          .Responses?.[tableName]?.length ?? 0,
      bare: async () => {
        const output = await bare.call('BatchGetItem', {
          RequestItems: { [tableName]: { Keys: three.map(attributeKey) } },
        });
        return (output.Responses as Record<string, unknown[]> | undefined)?.[tableName]?.length ?? 0;
      },
    },
    {
      name: 'Query of 30',
      items: 30,
      client: async () =>
        (await client.send(new QueryCommand({ ...query, ExpressionAttributeValues: { ':pk': partition } })))
          .Items?.length ?? 0,
      bare: async () => {
        const output = await bare.call('Query', {
          ...query,
          ExpressionAttributeValues: { ':pk': { S: partition } },
        });
        return (output.Items as unknown[] | undefined)?.length ?? 0;
      },
    },
  ];
  return {
    cases,
    close: () => {
      client.destroy();
      bare.close();
    },
  };
}

/** Runs `call` `times` times, one after the other, checking that each read `items` items. */
export async function repeat(call: () => Promise<number>, items: number, times: number): Promise<void> {
  for (let index = 0; index < times; index++) {
    const read = await call();
    if (read !== items) throw new Error(`expected ${items} items, read ${read}`);
  }
}

/** This process's CPU per call over `times` calls, ms. */
async function cpuPerCall(call: () => Promise<number>, items: number, times: number): Promise<number> {
  return (await cpuMsOf(() => repeat(call, items, times))) / times;
}

/**
 * A table of its own (the functions' key names, no index) holding 30 comments of one article, built as
 * the insert builds them; returns their keys.
 */
async function seedTable(endpoint: string): Promise<Key[]> {
  const admin = createLocalDynamoDbClient(endpoint);
  try {
    await admin.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  } finally {
    admin.destroy();
  }
  // Keys of their own, the same in every process: a second runtime's seeding overwrites the first's.
  const items = buildScaleComments(scaleArticles.small, Date.now()).map((comment, index) => ({
    ...toCommentItem(comment),
    pk: partition,
    sk: `C#${String(index).padStart(2, '0')}`,
  }));
  const client = createDocumentClient({ endpoint });
  try {
    for (let start = 0; start < items.length; start += 25) {
      const puts = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
      const output = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: puts } }));
      if (Object.keys(output.UnprocessedItems ?? {}).length > 0)
        throw new Error('seeding left items unwritten');
    }
  } finally {
    client.destroy();
  }
  return items.map(({ pk, sk }) => ({ pk, sk }));
}
