/**
 * The scale case: the list of an article of 10,000 comments beside one of 30 (scale-seed.ts), with the
 * list cache off, page 1 in each sort and page 400 newest first. For each request: the DynamoDB requests
 * and read units it costs (the real handlers in this process, their client pointed at
 * capacity-recorder.ts), and the CPU the server and DynamoDB Local spend on it under load (load-run.ts,
 * against the server with LIST_CACHE_MS=0). The targets: page 1 of the large article costs at most 1.5
 * times page 1 of the small one, in CPU and in read units; page 400 reads no more than its 4,000 root keys
 * (sized from the index entries themselves) plus one page.
 */
import { allRouteKeys } from '../../functions/api-routes.js';
import { type AttributeValue, paginateQuery } from '@aws-sdk/client-dynamodb';
import { createCommentHandler } from '../../functions/comment/comment-handler.js';
import { type SortOrder, sortOrders } from '../../functions/shared/domain/comment-schemas.js';
import { loadConfig } from '../../functions/shared/config.js';
import { attributes, indexNames, rootsPartition } from '../../functions/shared/table/keys.js';
import { createCommentDependencies } from '../../functions/comment/dependencies.js';
import { buildEvent, testContext } from '../../test/support/http-event.js';
import { createLocalDynamoDbClient } from '../create-table.js';
import type { CapacityRecorder, RecordedRequest } from './capacity-recorder.js';
import { storedItemBytes } from './item-size.js';
import { type LoadOutcome, type LoadRequest, type LoadSettings, runLoadCase, warmUp } from './load-run.js';
import { targets } from './report.js';
import { scaleArticles, type ScaleSeeding, seedScale } from './scale-seed.js';
import type { BenchServer } from './server-process.js';

/** One request of the scale case. */
export interface ScaleRequest extends LoadRequest {
  readonly article: keyof typeof scaleArticles;
  readonly sortBy: SortOrder;
  readonly page: number;
  /** The query string of the list request. */
  readonly query: string;
}

/** What one request costs in DynamoDB, and what its answer holds. */
export interface ScaleCost {
  readonly requests: readonly RecordedRequest[];
  readonly readUnits: number;
  /** Keys read from the roots indexes, and their read units. */
  readonly indexKeys: number;
  readonly indexReadUnits: number;
  /** Roots and replies the answer shows. */
  readonly roots: number;
  readonly replies: number;
}

/** The entries of a roots index that a page reads, sized as DynamoDB sizes items. */
export interface IndexEntries {
  readonly index: string;
  /** The attributes an entry holds. */
  readonly attributes: readonly string[];
  readonly entries: number;
  /** Attribute names plus values, summed over the entries. */
  readonly bytes: number;
  /** Read units of reading them in one eventually consistent Query: half a unit per 4 KB begun. */
  readonly readUnits: number;
}

/** The figures of one request. */
export interface ScaleCaseResult {
  readonly name: string;
  readonly article: keyof typeof scaleArticles;
  readonly sortBy: SortOrder;
  readonly page: number;
  readonly cost: ScaleCost;
  readonly load: LoadOutcome;
  /** The server's process tree: Node plus DynamoDB Local, CPU ms per request. */
  readonly serverCpuMsPerRequest: number;
}

/** Page 1 of the large article over page 1 of the small one, in one sort. */
export interface ScaleRatio {
  readonly sortBy: SortOrder;
  readonly serverCpu: number;
  readonly nodeCpu: number;
  readonly readUnits: number;
  readonly holds: boolean;
}

/** Page 400 against what reading its keys and one page costs. */
export interface DeepPageCheck {
  readonly name: string;
  readonly readUnits: number;
  readonly indexKeys: number;
  /** Keys each roots-index Query of the page returned (empty ones left out). */
  readonly keyPages: readonly number[];
  /** Read units of the 4,000 keys from their sizes, read in one Query (they are far under 1 MB). */
  readonly keysReadUnits: number;
  /** The same, each Query of `keyPages` rounded up to 4 KB on its own. */
  readonly keysReadUnitsAsPaged: number;
  /** Read units of page 1 of the same article and sort, as measured: one page. */
  readonly pageReadUnits: number;
  /** keysReadUnits + pageReadUnits: the target. */
  readonly bound: number;
  readonly holds: boolean;
  /** keysReadUnitsAsPaged + pageReadUnits: what the read costs as DynamoDB Local pages it. */
  readonly boundAsPaged: number;
  readonly holdsAsPaged: boolean;
}

/** Everything the scale case measured. */
export interface ScaleOutcome {
  readonly seeding: ScaleSeeding;
  readonly settings: LoadSettings & { readonly jitWarmupSeconds: number };
  readonly entries: readonly IndexEntries[];
  readonly cases: readonly ScaleCaseResult[];
  readonly ratios: readonly ScaleRatio[];
  readonly deepPage: DeepPageCheck;
}

const pageSize = 10;
const deepPage = 400;
const sortNames: Record<SortOrder, string> = {
  insertedAt_desc: 'newest',
  insertedAt_asc: 'oldest',
  like_desc: 'most liked',
};
/** An eventually consistent read costs half a unit per 4 KB begun. */
const readUnitBytes = 4096;
const readUnitsPerBlock = 0.5;

function listRequest(article: keyof typeof scaleArticles, sortBy: SortOrder, page: number): ScaleRequest {
  const { path, comments } = scaleArticles[article];
  const query = new URLSearchParams({
    path,
    pageSize: String(pageSize),
    page: String(page),
    lang: 'en-US',
    sortBy,
  }).toString();
  return {
    name: `${comments.toLocaleString('en-US')} comments, page ${page}, ${sortNames[sortBy]} first`,
    method: 'GET',
    target: `/api/comment?${query}`,
    article,
    sortBy,
    page,
    query,
  };
}

/** The requests, in the order they run: page 1 of each article in each sort, then page 400. */
export const scaleRequests: readonly ScaleRequest[] = [
  ...sortOrders.flatMap((sortBy) => [listRequest('small', sortBy, 1), listRequest('large', sortBy, 1)]),
  listRequest('large', 'insertedAt_desc', deepPage),
];

/** Seeds the two articles and measures every request of the case; `log` reports progress. */
export async function measureScale(settings: {
  /** DynamoDB Local, and the recorder in front of it. */
  readonly endpoint: string;
  readonly recorder: CapacityRecorder;
  readonly tableName: string;
  /** The server under load: the one with the list cache off. */
  readonly server: BenchServer;
  readonly dynamodbPid: number;
  readonly load: LoadSettings;
  readonly jitWarmupSeconds: number;
  readonly log: (text: string) => void;
}): Promise<ScaleOutcome> {
  const { server, dynamodbPid, load, log } = settings;
  const seeding = await seedScale(settings.endpoint, settings.tableName);
  log(`Seeded ${seeding.comments.toLocaleString('en-US')} comments in ${seeding.seconds.toFixed(1)} s.\n`);
  const measured = await measureIndexEntries(settings.endpoint, settings.tableName, deepPage * pageSize);
  const costs = await measureCosts(settings.recorder, settings.tableName);

  if (settings.jitWarmupSeconds > 0) {
    log(`Warming up: every request for ${settings.jitWarmupSeconds} s, not measured...\n`);
    // The heavy page 400 first: the garbage it leaves in the JVM is collected before any case is measured.
    for (const request of [...scaleRequests].reverse()) {
      await warmUp(server.base, request, load, settings.jitWarmupSeconds);
    }
  }
  const cases: ScaleCaseResult[] = [];
  for (const [position, request] of scaleRequests.entries()) {
    log(`  ${request.name}... `);
    const outcome = await runLoadCase(request, load, { server, dynamodbPid }, async () => 0);
    log(`${outcome.requestsPerSecond.toFixed(0)} req/s\n`);
    cases.push({
      name: request.name,
      article: request.article,
      sortBy: request.sortBy,
      page: request.page,
      cost: costs[position] as ScaleCost,
      load: outcome,
      serverCpuMsPerRequest: outcome.node.cpuMsPerRequest + outcome.dynamodb.cpuMsPerRequest,
    });
  }

  const find = (article: ScaleRequest['article'], sortBy: SortOrder, page: number) => {
    const found = cases.find((c) => c.article === article && c.sortBy === sortBy && c.page === page);
    if (!found) throw new Error(`scale: no case for ${article}, ${sortBy}, page ${page}`);
    return found;
  };
  const ratios = sortOrders.map((sortBy): ScaleRatio => {
    const [small, large] = [find('small', sortBy, 1), find('large', sortBy, 1)];
    const serverCpu = large.serverCpuMsPerRequest / small.serverCpuMsPerRequest;
    const readUnits = large.cost.readUnits / small.cost.readUnits;
    return {
      sortBy,
      serverCpu,
      nodeCpu: large.load.node.cpuMsPerRequest / small.load.node.cpuMsPerRequest,
      readUnits,
      holds: serverCpu <= targets.scaleFactor && readUnits <= targets.scaleFactor,
    };
  });
  const deep = find('large', 'insertedAt_desc', deepPage);
  const keys = measured.find(({ entries }) => entries.index === indexNames.rootsByTime);
  if (!keys) throw new Error('scale: the roots-by-time entries were not measured');
  const pageReadUnits = find('large', 'insertedAt_desc', 1).cost.readUnits;
  const keyPages = deep.cost.requests
    .filter((recorded) => recorded.index === keys.entries.index && recorded.items > 0)
    .map((recorded) => recorded.items);
  let read = 0;
  let keysReadUnitsAsPaged = 0;
  for (const count of keyPages) {
    keysReadUnitsAsPaged += readUnitsOf(sum(keys.sizes.slice(read, read + count)));
    read += count;
  }
  const bound = keys.entries.readUnits + pageReadUnits;
  const boundAsPaged = keysReadUnitsAsPaged + pageReadUnits;
  return {
    seeding,
    settings: { ...load, jitWarmupSeconds: settings.jitWarmupSeconds },
    entries: measured.map(({ entries }) => entries),
    cases,
    ratios,
    deepPage: {
      name: deep.name,
      readUnits: deep.cost.readUnits,
      indexKeys: deep.cost.indexKeys,
      keyPages,
      keysReadUnits: keys.entries.readUnits,
      keysReadUnitsAsPaged,
      pageReadUnits,
      bound,
      holds: deep.cost.readUnits <= bound,
      boundAsPaged,
      holdsAsPaged: deep.cost.readUnits <= boundAsPaged,
    },
  };
}

/**
 * Sends each request once through the real handlers, their client pointed at the recorder, with the list
 * cache off; checks that each answer is a full page of an article whose counters match what was seeded.
 */
async function measureCosts(recorder: CapacityRecorder, tableName: string): Promise<ScaleCost[]> {
  const handler = createCommentHandler(
    createCommentDependencies(
      loadConfig({
        TABLE_NAME: tableName,
        DYNAMODB_ENDPOINT: recorder.endpoint,
        IP_HASH_SALT: 'marginalia-bench-salt-0123456789',
        LIST_CACHE_MS: '0',
      }),
    ),
    allRouteKeys,
  );
  const send = async (request: ScaleRequest) => {
    const result = await handler(buildEvent({ path: '/api/comment', query: request.query }), testContext);
    const body = JSON.parse(result.body ?? '{}') as {
      data?: { count?: number; totalPages?: number; data?: { children?: unknown[] }[] };
    };
    if (result.statusCode !== 200 || !body.data?.data) {
      throw new Error(`scale: ${request.name} answered ${result.statusCode}: ${result.body}`);
    }
    return body.data;
  };
  // An instance checks the table's layout once, with a GetItem no later request repeats: left out.
  const first = scaleRequests[0];
  if (first) await send(first);
  recorder.take();

  const costs: ScaleCost[] = [];
  for (const request of scaleRequests) {
    const answer = await send(request);
    const requests = recorder.take();
    const article = scaleArticles[request.article];
    const shown = answer.data ?? [];
    if (
      answer.count !== article.comments ||
      answer.totalPages !== Math.ceil(article.roots / pageSize) ||
      shown.length !== pageSize
    ) {
      throw new Error(
        `scale: ${request.name} shows ${shown.length} roots of ${answer.count} comments on ${answer.totalPages} pages`,
      );
    }
    const fromIndex = requests.filter((recorded) => recorded.index !== undefined);
    costs.push({
      requests,
      readUnits: sum(requests.map((recorded) => recorded.readUnits)),
      indexKeys: sum(fromIndex.map((recorded) => recorded.items)),
      indexReadUnits: sum(fromIndex.map((recorded) => recorded.readUnits)),
      roots: shown.length,
      replies: sum(shown.map((root) => root.children?.length ?? 0)),
    });
  }
  return costs;
}

/**
 * The first `count` entries of the large article's roots partition in each roots index, as stored
 * (keys-only: the table's keys, the index's keys), each sized as DynamoDB sizes an item (item-size.ts),
 * with each entry's size in the order read.
 */
async function measureIndexEntries(
  endpoint: string,
  tableName: string,
  count: number,
): Promise<{ entries: IndexEntries; sizes: readonly number[] }[]> {
  const client = createLocalDynamoDbClient(endpoint);
  try {
    const partition = rootsPartition(scaleArticles.large.path, 'approved', false);
    const measure = async (index: string) => {
      const items: Record<string, AttributeValue>[] = [];
      const pages = paginateQuery(
        { client },
        {
          TableName: tableName,
          IndexName: index,
          KeyConditionExpression: '#roots = :partition',
          ExpressionAttributeNames: { '#roots': attributes.rootsPk },
          ExpressionAttributeValues: { ':partition': { S: partition } },
          // In the order page 400 newest first reads them (the like index: as most liked first does).
          ScanIndexForward: false,
          Limit: count,
        },
      );
      // Each page asks for `count` (a paginator's page size is fixed): only the first `count` are kept, and
      // breaking out of the pages stops the paging.
      for await (const page of pages) {
        items.push(...(page.Items ?? []).slice(0, count - items.length));
        if (items.length >= count) break;
      }
      const sizes = items.map(storedItemBytes);
      const bytes = sum(sizes);
      const entries: IndexEntries = {
        index,
        attributes: [...new Set(items.flatMap((item) => Object.keys(item)))].sort(),
        entries: items.length,
        bytes,
        readUnits: readUnitsOf(bytes),
      };
      return { entries, sizes };
    };
    return [await measure(indexNames.rootsByTime), await measure(indexNames.rootsByLike)];
  } finally {
    client.destroy();
  }
}

/** Read units of one eventually consistent read of `bytes`. */
const readUnitsOf = (bytes: number) => Math.ceil(bytes / readUnitBytes) * readUnitsPerBlock;

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
