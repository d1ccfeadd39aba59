/**
 * DynamoDB requests and capacity units of each operation, on the seeded data: the real handlers are called
 * in this process with API Gateway events, their client pointed at capacity-recorder.ts, and each call's
 * requests are set against the round trips of docs/data-model.md's access-pattern table.
 */
import { loadConfig } from '../../functions/shared/config.js';
import { buildEvent, type EventSpec, testContext } from '../../test/support/http-event.js';
import { createLocalFunctions } from '../local-functions.js';
import { type RecordedRequest, roundTrips } from './capacity-recorder.js';
import { seeded, type SeededIds } from './seed.js';

/** The cost of one operation. */
export interface OperationCost {
  readonly operation: string;
  /** The access-pattern table's row (docs/data-model.md) it falls under, and the round trips it allows. */
  readonly design: string;
  readonly budget: number;
  readonly status: number;
  readonly requests: readonly RecordedRequest[];
  /** Sequential round trips: requests sent in parallel count once. */
  readonly roundTrips: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly matches: boolean;
}

interface OperationSpec {
  readonly operation: string;
  readonly design: string;
  readonly budget: number;
  readonly request: (context: { rootId: string }) => EventSpec;
}

const article = '/bench/costs';
const get = (path: string, query: Record<string, string>): EventSpec => ({
  path,
  query: new URLSearchParams({ ...query, lang: 'en-US' }).toString(),
});
const post = (path: string, body: unknown, sourceIp = '198.51.100.1'): EventSpec => ({
  method: 'POST',
  path,
  query: 'lang=en-US',
  body,
  sourceIp,
});

/**
 * Every operation of the access-pattern table (docs/data-model.md), in the order they run (the reply answers
 * the root posted before it).
 */
function operations(ids: SeededIds): OperationSpec[] {
  const commentText = 'A **new** comment with a [link](https://example.com) and `code`.';
  return [
    {
      operation: 'list, 30 roots, page 1',
      design: 'List',
      budget: 2,
      request: () => get('/api/comment', { path: seeded.listPath, page: '1', pageSize: '10' }),
    },
    {
      operation: 'count, 1 url',
      design: 'Count, several urls',
      budget: 1,
      request: () => get('/api/comment', { type: 'count', url: seeded.listPath }),
    },
    {
      operation: 'count, 3 urls',
      design: 'Count, several urls',
      budget: 1,
      request: () => get('/api/comment', { type: 'count', url: seeded.otherPaths.join(',') }),
    },
    {
      operation: 'count, whole site',
      design: 'Count, whole site',
      budget: 1,
      request: () => get('/api/comment', { type: 'count' }),
    },
    {
      operation: 'recent, 10',
      design: 'Recent',
      // The cards, then the texts of those answered (docs/data-model.md: 2 since the index holds no text).
      budget: 2,
      request: () => get('/api/comment', { type: 'recent', count: '10' }),
    },
    {
      operation: 'submit a root (IPQPS 60)',
      design: 'Submit',
      budget: 2,
      request: () =>
        post('/api/comment', { comment: commentText, url: article, nick: 'Ann', mail: 'ann@example.com' }),
    },
    {
      operation: 'submit a reply (IPQPS 60)',
      design: 'Submit',
      budget: 2,
      request: ({ rootId }) =>
        post(
          '/api/comment',
          { comment: `Re: ${commentText}`, url: article, nick: 'Bob', pid: rootId, rid: rootId, at: 'Ann' },
          '198.51.100.2',
        ),
    },
    {
      operation: 'like',
      design: 'Like / reaction',
      budget: 2,
      request: () => ({
        method: 'PUT',
        path: `/api/comment/${ids.listRootIds[0]}`,
        query: 'lang=en-US',
        body: { like: true },
        sourceIp: '198.51.100.3',
      }),
    },
    {
      operation: 'reading counts, 3 paths',
      design: 'Reading counts',
      budget: 1,
      request: () => get('/api/article', { path: seeded.readingPaths.join(','), type: 'time,reaction0' }),
    },
    {
      operation: 'pageview +1',
      design: 'Update reading count',
      budget: 1,
      request: () => post('/api/article', { path: article, type: 'time', action: 'inc' }),
    },
    {
      operation: 'reaction -1 (no vote: unchanged)',
      design: 'Update reading count',
      budget: 2,
      request: () => post('/api/article', { path: article, type: 'reaction1', action: 'desc' }),
    },
    {
      operation: 'reaction +1',
      design: 'Like / reaction',
      budget: 2,
      request: () =>
        post('/api/article', { path: article, type: 'reaction0', action: 'inc' }, '198.51.100.4'),
    },
  ];
}

/** Runs every operation once through handlers whose DynamoDB endpoint is the recorder's. */
export async function measureOperationCosts(settings: {
  readonly recorderEndpoint: string;
  readonly tableName: string;
  readonly ids: SeededIds;
  /** What the recorder saw since the last call. */
  readonly take: () => RecordedRequest[];
}): Promise<OperationCost[]> {
  // The deployed defaults (IPQPS 60 among them): only the table and the endpoint are the bench's, and
  // the list cache is off, so that every read is a request to count (a cached read costs none).
  const { handlers } = createLocalFunctions(
    loadConfig({
      TABLE_NAME: settings.tableName,
      DYNAMODB_ENDPOINT: settings.recorderEndpoint,
      IP_HASH_SALT: 'marginalia-bench-salt-0123456789',
      LIST_CACHE_MS: '0',
    }),
  );
  const { comment, article: articleHandler } = handlers;
  let rootId = '';
  const costs: OperationCost[] = [];
  // Round trips are read from when each request reached the recorder: the client's keep-alive sockets are
  // opened first by a read that sends as many requests at once as any operation (a page of the list), so
  // that no request of a measured operation waits for a connection and looks sequential.
  for (let warm = 0; warm < 3; warm++) {
    await comment(
      buildEvent(get('/api/comment', { path: seeded.listPath, page: '1', pageSize: '10' })),
      testContext,
    );
  }
  settings.take();
  for (const spec of operations(settings.ids)) {
    const event = buildEvent(spec.request({ rootId }));
    const handler = event.rawPath.startsWith('/api/article') ? articleHandler : comment;
    const result = await handler(event, testContext);
    const requests = settings.take();
    if (spec.design === 'Submit' && !rootId) {
      rootId = (JSON.parse(result.body ?? '{}') as { data?: { objectId?: string } }).data?.objectId ?? '';
    }
    costs.push({
      operation: spec.operation,
      design: spec.design,
      budget: spec.budget,
      status: result.statusCode,
      requests,
      roundTrips: roundTrips(requests),
      readUnits: sum(requests.map((request) => request.readUnits)),
      writeUnits: sum(requests.map((request) => request.writeUnits)),
      matches: result.statusCode < 300 && roundTrips(requests) <= spec.budget,
    });
  }
  return costs;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
