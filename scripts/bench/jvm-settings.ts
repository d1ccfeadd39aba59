/**
 * Which JVM options DynamoDB Local should run with, measured: for each candidate set, a fresh engine
 * (in memory, as the benchmark's) takes the storage calls of the load cases (the pageview increment's
 * UpdateItem, the reading counts' BatchGetItem of 3, the uncached list's Query of 30 comments: 24 roots
 * and 6 replies) from 32
 * concurrent callers; after a warm-up that lets the JIT settle, each call's cost is the engine's CPU
 * (user + system, all threads, from /proc) over the calls of a round, the median of three rounds.
 * scripts/dynamodb-local.ts's engineJvmArgs is the set this chose (docs/benchmarks.md).
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { toCommentItem } from '../../functions/shared/table/comment-item.js';
import { keys } from '../../functions/shared/table/keys.js';
import { createLocalDynamoDbClient, ensureTable } from '../create-table.js';
import { startDynamoDbLocal } from '../dynamodb-local.js';
import { findChildren, sampleProcess } from './process-stats.js';
import { buildScaleComments, scaleArticles } from './scale-seed.js';

/** The candidate option sets, each with what it changes. */
export const jvmCandidates: readonly { readonly name: string; readonly args: readonly string[] }[] = [
  { name: 'JVM defaults (G1, heap 1/4 of RAM)', args: [] },
  { name: 'Serial GC', args: ['-XX:+UseSerialGC'] },
  { name: 'Parallel GC', args: ['-XX:+UseParallelGC'] },
  { name: 'Serial GC, 256 MB young generation', args: ['-XX:+UseSerialGC', '-Xmn256m'] },
  { name: 'Serial GC, C1 only', args: ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1'] },
  {
    name: 'Serial GC, no perf data, 2 compiler threads',
    args: ['-XX:+UseSerialGC', '-XX:-UsePerfData', '-XX:CICompilerCount=2'],
  },
];

/** One candidate's figures: CPU per call of each kind, ms, and the engine's resident memory after, MB. */
export interface JvmFigures {
  readonly name: string;
  readonly args: readonly string[];
  readonly updateMs: number;
  readonly batchGet3Ms: number;
  readonly query30Ms: number;
  readonly rssMb: number;
}

const callers = 32;
const warmupCalls = 6000;
const roundCalls = 3000;
const rounds = 3;
const table = 'jvm-bench';
const listUrl = '/jvm/list-30';
const readingUrls = ['/jvm/a', '/jvm/b', '/jvm/c'];

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Runs `count` calls of `call` from `callers` concurrent loops. */
async function drive(count: number, call: () => Promise<unknown>): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (left-- > 0) await call();
    }),
  );
}

/** Measures one candidate on a fresh engine. */
export async function measureJvm(candidate: (typeof jvmCandidates)[number]): Promise<JvmFigures> {
  const engine = await startDynamoDbLocal({ jvmArgs: candidate.args });
  const raw = createLocalDynamoDbClient(engine.endpoint);
  const client = DynamoDBDocumentClient.from(raw);
  try {
    const [pid] = await findChildren(process.pid, 'java');
    if (pid === undefined) throw new Error('no java process found for DynamoDB Local');
    await ensureTable(raw, table);
    const comments = buildScaleComments({ ...scaleArticles.small, path: listUrl }, Date.now()).map(
      (comment) => toCommentItem(comment),
    );
    for (let i = 0; i < comments.length; i += 25) {
      await client.send(
        new BatchWriteCommand({
          RequestItems: { [table]: comments.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
        }),
      );
    }
    const calls = {
      update: () =>
        client.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.pageCounters('/jvm/views'),
            UpdateExpression: 'ADD #time :one',
            ExpressionAttributeNames: { '#time': 'time' },
            ExpressionAttributeValues: { ':one': 1 },
            ReturnValues: 'UPDATED_NEW',
          }),
        ),
      batchGet3: () =>
        client.send(
          new BatchGetCommand({ RequestItems: { [table]: { Keys: readingUrls.map(keys.pageCounters) } } }),
        ),
      query30: () =>
        client.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :c)',
            ExpressionAttributeValues: { ':pk': keys.articlePartition(listUrl), ':c': 'C#' },
          }),
        ),
    };
    for (const call of Object.values(calls)) await drive(warmupCalls / 3, call);
    const perCall: Record<keyof typeof calls, number[]> = { update: [], batchGet3: [], query30: [] };
    for (let round = 0; round < rounds; round++) {
      for (const [name, call] of Object.entries(calls) as [keyof typeof calls, () => Promise<unknown>][]) {
        const before = await sampleProcess(pid);
        await drive(roundCalls, call);
        const after = await sampleProcess(pid);
        perCall[name].push((after.cpuMs - before.cpuMs) / roundCalls);
      }
    }
    const { rssBytes } = await sampleProcess(pid);
    return {
      name: candidate.name,
      args: candidate.args,
      updateMs: median(perCall.update),
      batchGet3Ms: median(perCall.batchGet3),
      query30Ms: median(perCall.query30),
      rssMb: Math.round(rssBytes / 2 ** 20),
    };
  } finally {
    raw.destroy();
    await engine.stop();
  }
}

/** The figures as a markdown table. */
export function formatJvmFigures(figures: readonly JvmFigures[]): string {
  const rows = figures.map(
    (figure) =>
      `| ${figure.name} | \`${figure.args.join(' ') || '(none)'}\` | ${figure.updateMs.toFixed(3)} | ` +
      `${figure.batchGet3Ms.toFixed(3)} | ${figure.query30Ms.toFixed(3)} | ${figure.rssMb} |`,
  );
  return [
    '| JVM options | flags | UpdateItem CPU ms | BatchGet 3 CPU ms | Query 30 CPU ms | RSS MB |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
