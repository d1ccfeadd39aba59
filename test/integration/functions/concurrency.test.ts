import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

describe('exact counters under concurrency', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { IPQPS: '0' });
  });
  afterAll(() => table.drop());

  it('counts 200 concurrent pageview increments exactly when they all land at once', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        api.call({ method: 'POST', path: '/api/article', body: { path: '/busy' } }),
      ),
    );

    expect(responses.every((response) => response.status === 200)).toBe(true);
    const { body } = await api.call({ path: '/api/article', query: 'path=%2Fbusy&type=time' });
    expect(body.data).toEqual([{ time: 200 }]);
    // Every increment saw a different new value: none overwrote another.
    expect(new Set(responses.map((response) => response.body.data[0].time)).size).toBe(200);
  });

  it('keeps 50 concurrent comments with 50 distinct ids and exact counts when posted at once', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.call({
          method: 'POST',
          path: '/api/comment',
          body: { comment: `comment ${i}`, url: '/crowded', nick: `n${i}` },
          sourceIp: `198.51.100.${i}`,
        }),
      ),
    );

    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(new Set(responses.map((response) => response.body.data.objectId)).size).toBe(50);
    const count = await api.call({ path: '/api/comment', query: 'type=count&url=%2Fcrowded' });
    expect(count.body.data).toEqual([50]);
    const site = await api.call({ path: '/api/comment', query: 'type=count' });
    expect(site.body.data).toBe(50);
    const list = await api.call({ path: '/api/comment', query: 'path=%2Fcrowded&pageSize=100' });
    expect(list.body.data.count).toBe(50);
    expect(list.body.data.data).toHaveLength(50);
  });
});

describe('likes under concurrency', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { IPQPS: '0', LIST_CACHE_MS: '0' });
  });
  afterAll(() => table.drop());

  it('counts 30 concurrent likes of one root exactly, and sorts by the count they made', async () => {
    const post = async (comment: string) =>
      (await api.call({ method: 'POST', path: '/api/comment', body: { comment, url: '/liked' } })).body.data
        .objectId as string;
    const popular = await post('popular');
    const quiet = await post('quiet');
    const like = (id: string, i: number) =>
      api.call({
        method: 'PUT',
        path: `/api/comment/${id}`,
        body: { like: true },
        sourceIp: `203.0.113.${i}`,
      });

    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => like(popular, i)));
    await like(quiet, 200);
    await like(quiet, 201);
    // Two take theirs back at once, one of them twice: the second changes nothing.
    const unliked = await Promise.all(
      [0, 1, 1].map((i) =>
        api.call({
          method: 'PUT',
          path: `/api/comment/${popular}`,
          body: { like: false },
          sourceIp: `203.0.113.${i}`,
        }),
      ),
    );

    expect(responses.map((response) => response.status)).toEqual(Array(30).fill(200));
    expect(unliked.map((response) => response.status)).toEqual([200, 200, 200]);
    const { body } = await api.call({ path: '/api/comment', query: 'path=%2Fliked&sortBy=like_desc' });
    expect(
      body.data.data.map((root: { objectId: string; like: number }) => [root.objectId, root.like]),
    ).toEqual([
      [popular, 28],
      [quiet, 2],
    ]);
  });
});

describe('pageviews and comments on one page at once', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { IPQPS: '0' });
  });
  afterAll(() => table.drop());

  it('loses neither when pageviews collide with comment transactions on the page counters', async () => {
    const views = Array.from({ length: 60 }, () =>
      api.call({ method: 'POST', path: '/api/article', body: { path: '/mixed' } }),
    );
    const posts = Array.from({ length: 20 }, (_, i) =>
      api.call({
        method: 'POST',
        path: '/api/comment',
        body: { comment: `mixed ${i}`, url: '/mixed' },
        sourceIp: `198.51.100.${i}`,
      }),
    );

    const responses = await Promise.all([...views, ...posts]);

    expect(responses.filter((response) => response.status !== 200)).toEqual([]);
    const counters = await api.call({ path: '/api/article', query: 'path=%2Fmixed' });
    expect(counters.body.data).toEqual([{ time: 60 }]);
    const count = await api.call({ path: '/api/comment', query: 'type=count&url=%2Fmixed' });
    expect(count.body.data).toEqual([20]);
  });
});

describe('the per-IP rate limit under concurrency', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { IPQPS: '60' });
  });
  afterAll(() => table.drop());

  it('lets exactly one of 20 concurrent posts from one IP in when the limit is on', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.call({
          method: 'POST',
          path: '/api/comment',
          body: { comment: `burst ${i}`, url: '/burst' },
          sourceIp: '192.0.2.1',
        }),
      ),
    );

    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(429)]);
    expect(responses.find((response) => response.status === 429)?.body).toEqual({
      errno: 1000,
      errmsg: 'Comment too fast!',
    });
    const count = await api.call({ path: '/api/comment', query: 'type=count&url=%2Fburst' });
    expect(count.body.data).toEqual([1]);
    const list = await api.call({ path: '/api/comment', query: 'path=%2Fburst' });
    expect(list.body.data.data).toHaveLength(1);
  });
});
