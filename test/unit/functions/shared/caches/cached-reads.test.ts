import { allRouteKeys } from '../../../../../functions/api-routes.js';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCommentHandler } from '../../../../../functions/comment/comment-handler.js';
import { signToken } from '../../../../../functions/shared/auth/token.js';
import type { ListedComment } from '../../../../../functions/shared/domain/comment.js';
import type { StoredThread } from '../../../../../functions/shared/domain/thread.js';
import { createCommentDependencies } from '../../../../../functions/comment/dependencies.js';
import { cacheListReads } from '../../../../../functions/shared/caches/cached-reads.js';
import type {
  CommentRepository,
  PageQuery,
  StoredPage,
} from '../../../../../functions/shared/table/comment-repository.js';
import type {
  ModeratedComment,
  ModerationRepository,
} from '../../../../../functions/shared/table/moderation-repository.js';
import { commentItem, serveCommentTable } from '../../../../support/fake-comment-table.js';
import { buildEvent, testContext } from '../../../../support/http-event.js';
import { testConfig } from '../../../../support/test-config.js';

const listed = (id: string, url = '/p'): ModeratedComment => ({
  id,
  url,
  nick: 'Ann',
  mail: 'ann@example.com',
  link: '',
  browser: '',
  os: '',
  orig: 'hi',
  html: '<p>hi</p>',
  status: 'approved',
  like: 0,
  sticky: false,
  insertedAt: 1,
});

/** A page of `url` holding two threads: a root with two replies, and a root alone. */
const pageOf = (url: string): StoredPage => ({
  threads: [
    {
      root: listed('01C', url),
      replies: [{ ...listed('01D', url), rid: '01C' }],
      moreReplies: false,
    },
    {
      root: listed('01A', url),
      replies: [
        { ...listed('01B', url), rid: '01A' },
        { ...listed('01E', url), rid: '01A' },
      ],
      moreReplies: false,
    },
  ],
  roots: 2,
  comments: 5,
});

/** A visitor's first page of `url`, newest first, ten roots a page. */
const visitorPage = (url = '/p', extra: Partial<PageQuery> = {}): PageQuery => ({
  url,
  page: 1,
  pageSize: 10,
  sortBy: 'insertedAt_desc',
  withHeld: false,
  ...extra,
});

/** Repositories whose reads count their calls and whose writes do nothing. */
function fakeRepositories() {
  const comments = {
    listPage: vi.fn(async (query: PageQuery) => pageOf(query.url)),
    recent: vi.fn(async (count: number) => Array.from({ length: count }, (_, i) => listed(`0${i}`))),
    pageFeed: vi.fn(async (url: string, _options?: { consistent?: boolean }) => [listed('01A', url)]),
    insert: vi.fn(async () => ({ ok: true as const })),
    vote: vi.fn(async () => ({ outcome: 'changed' as const, like: 1 })),
  } satisfies Partial<CommentRepository> as unknown as CommentRepository;
  const moderation = {
    moderate: vi.fn(async () => true),
    remove: vi.fn(async () => 1),
  } satisfies Partial<ModerationRepository> as unknown as ModerationRepository;
  return { comments, moderation };
}

function setUp(ttlMs = 1000) {
  let time = 0;
  const inner = fakeRepositories();
  const cached = cacheListReads(inner, { ttlMs, now: () => time });
  const listPage = vi.mocked(inner.comments.listPage);
  return { inner, cached, listPage, advance: (ms: number) => (time += ms) };
}

/** A load the test finishes by hand. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const ref = { url: '/p', id: '01A' };
const writes: [string, (repositories: ReturnType<typeof fakeRepositories>) => Promise<unknown>][] = [
  ['insert', ({ comments }) => comments.insert({ ...listed('01B'), ua: '', ipHash: 'h' }, {} as never)],
  ['vote', ({ comments }) => comments.vote({ ...ref, like: 0 }, 'voter', true)],
  [
    'moderate',
    ({ moderation }) =>
      moderation.moderate(listed('01A'), {
        status: 'spam',
        sticky: true,
        text: { orig: 'x', html: '<p>x</p>' },
      }),
  ],
  ['remove', ({ moderation }) => moderation.remove(ref)],
];

describe('cacheListReads', () => {
  it.each(writes)('tells onWrite the article a %s touched, even when it fails', async (_name, write) => {
    const inner = fakeRepositories();
    const touched: string[] = [];
    const cached = cacheListReads(inner, { ttlMs: 1000, now: () => 0, onWrite: (url) => touched.push(url) });
    vi.mocked(inner.comments.insert).mockRejectedValueOnce(new Error('refused'));

    await write(cached).catch(() => undefined);

    expect(touched).toEqual(['/p']);
  });

  it('reads a page and the recent list once per ttlMs', async () => {
    const { inner, cached, listPage, advance } = setUp();

    await cached.comments.listPage(visitorPage());
    await cached.comments.recent(10);
    advance(999);
    await cached.comments.listPage(visitorPage());
    await cached.comments.recent(10);
    expect(listPage).toHaveBeenCalledTimes(1);
    expect(inner.comments.recent).toHaveBeenCalledTimes(1);

    advance(1);
    await cached.comments.listPage(visitorPage());
    await cached.comments.recent(10);
    expect(listPage).toHaveBeenCalledTimes(2);
    expect(inner.comments.recent).toHaveBeenCalledTimes(2);
  });

  it('keeps each page apart by url, sort, page and page size', async () => {
    const { cached, listPage } = setUp();
    const queries = [
      visitorPage('/a'),
      visitorPage('/b'),
      visitorPage('/a', { sortBy: 'like_desc' }),
      visitorPage('/a', { page: 2 }),
      visitorPage('/a', { pageSize: 20 }),
    ];

    for (const query of queries)
      expect((await cached.comments.listPage(query)).threads[0]?.root.url).toBe(query.url);
    for (const query of queries) await cached.comments.listPage(query);

    expect(listPage.mock.calls.map(([query]) => query)).toEqual(queries);
  });

  it('serves every recent count, 1 to 50, from one read of the newest 50, newest first', async () => {
    const { cached, inner } = setUp();

    for (let count = 1; count <= 50; count++) {
      const recent = await cached.comments.recent(count);
      expect(recent.map((comment) => comment.id)).toEqual(Array.from({ length: count }, (_, i) => `0${i}`));
    }

    expect(inner.comments.recent).toHaveBeenCalledTimes(1);
    expect(inner.comments.recent).toHaveBeenCalledWith(50);
  });

  it('serves the requests after a read slower than ttlMs: a copy is as old as the time since its read finished', async () => {
    const { cached, listPage, advance } = setUp(1000);
    const slow = deferred<StoredPage>();
    listPage.mockReturnValueOnce(slow.promise);

    const first = cached.comments.listPage(visitorPage());
    advance(1500);
    slow.resolve(pageOf('/p'));
    await first;
    advance(999);
    await cached.comments.listPage(visitorPage());
    expect(listPage).toHaveBeenCalledTimes(1);

    advance(1);
    await cached.comments.listPage(visitorPage());
    expect(listPage).toHaveBeenCalledTimes(2);
  });

  it.each(writes)(
    'forgets every page of the article after %s, and the recent lists, but no other article',
    async (_name, write) => {
      const { inner, cached, listPage, advance } = setUp(1000);
      await cached.comments.recent(10);
      // Reads in flight when the write lands: their answers may predate it.
      const loads = [deferred<StoredPage>(), deferred<StoredPage>(), deferred<StoredPage>()];
      for (const load of loads) listPage.mockReturnValueOnce(load.promise);
      const queries = [visitorPage('/p'), visitorPage('/p', { page: 2 }), visitorPage('/other')];
      const reads = queries.map((query) => cached.comments.listPage(query));

      advance(10);
      await write(cached);
      advance(10);
      loads.forEach((load, i) => load.resolve(pageOf(queries[i]?.url ?? '')));
      await Promise.all(reads);
      await cached.comments.recent(10);
      // Past the time this instance reads the article consistently after its write (t = 1010), within the
      // life of copies whose reads finished at t = 20.
      advance(995);
      for (const query of queries) await cached.comments.listPage(query);

      expect(listPage.mock.calls.slice(3).map(([query]) => query)).toEqual(queries.slice(0, 2));
      expect(inner.comments.recent).toHaveBeenCalledTimes(2);
    },
  );

  it('reads an article consistently and uncached for ttlMs after this instance wrote to it, then cached again', async () => {
    const { cached, listPage, advance } = setUp(1000);

    await cached.comments.listPage(visitorPage());
    await cached.comments.vote({ ...ref, like: 0 }, 'voter', true);
    await cached.comments.listPage(visitorPage());
    advance(999);
    await cached.comments.listPage(visitorPage());
    await cached.comments.listPage(visitorPage('/other'));
    advance(1);
    await cached.comments.listPage(visitorPage());
    await cached.comments.listPage(visitorPage());

    expect(listPage.mock.calls.map(([query]) => [query.url, query.consistent])).toEqual([
      ['/p', undefined],
      ['/p', true],
      ['/p', true],
      ['/other', undefined],
      ['/p', undefined],
    ]);
  });

  it('reads consistently again after a consistent read failed', async () => {
    const { cached, listPage } = setUp(1000);
    await cached.moderation.moderate(listed('01A'), { sticky: true });
    listPage.mockRejectedValueOnce(new Error('throttled'));

    await expect(cached.comments.listPage(visitorPage())).rejects.toThrow('throttled');
    await cached.comments.listPage(visitorPage());
    expect(listPage.mock.calls.map(([query]) => query.consistent)).toEqual([true, true]);
  });

  it("never caches an administrator's page, nor a read asked to be consistent", async () => {
    const { cached, listPage } = setUp(60_000);
    const asAdmin = visitorPage('/p', { withHeld: true });
    const consistent = visitorPage('/p', { consistent: true });

    for (const query of [asAdmin, asAdmin, consistent, consistent]) await cached.comments.listPage(query);

    expect(listPage.mock.calls.map(([query]) => query)).toEqual([asAdmin, asAdmin, consistent, consistent]);
  });

  it('does not cache the recent list for ttlMs after a write: its index lags and cannot be read consistently', async () => {
    const { inner, cached, advance } = setUp(1000);
    await cached.comments.recent(10);
    await cached.comments.insert({ ...listed('01B'), ua: '', ipHash: 'h' }, {} as never);

    await cached.comments.recent(10);
    advance(999);
    await cached.comments.recent(10);
    expect(inner.comments.recent).toHaveBeenCalledTimes(3);

    advance(1);
    await cached.comments.recent(10);
    await cached.comments.recent(10);
    expect(inner.comments.recent).toHaveBeenCalledTimes(4);
  });

  it('forgets after a write that failed too: it may have landed before the error', async () => {
    const { inner, cached, listPage } = setUp(60_000);
    vi.mocked(inner.comments.insert).mockRejectedValueOnce(new Error('timed out'));
    await cached.comments.listPage(visitorPage());

    await expect(
      cached.comments.insert({ ...listed('01B'), ua: '', ipHash: 'h' }, {} as never),
    ).rejects.toThrow('timed out');
    await cached.comments.listPage(visitorPage());
    expect(listPage).toHaveBeenCalledTimes(2);
  });

  it('hands out frozen pages, threads and replies, so that no request can reorder another one', async () => {
    const { cached } = setUp();
    const page = await cached.comments.listPage(visitorPage());
    const thread = page.threads[1] as StoredThread;

    expect(Object.isFrozen(page)).toBe(true);
    expect(() => (page.threads as StoredThread[]).reverse()).toThrow(TypeError);
    expect(() => (thread.replies as ListedComment[]).reverse()).toThrow(TypeError);
    expect(() => (thread.replies as ListedComment[]).push(listed('01Z'))).toThrow(TypeError);
    const next = await cached.comments.listPage(visitorPage());
    expect(next.threads.map((t) => [t.root.id, t.replies.map((reply) => reply.id)])).toEqual([
      ['01C', ['01D']],
      ['01A', ['01B', '01E']],
    ]);
  });

  it('hands out frozen recent lists', async () => {
    const { cached } = setUp();
    const list = await cached.comments.recent(3);

    expect(() => (list as ListedComment[]).reverse()).toThrow(TypeError);
  });

  it('reads the feed of a page once per ttlMs, each page apart', async () => {
    const { inner, cached, advance } = setUp(1000);

    for (const url of ['/a', '/b', '/a', '/b']) await cached.comments.pageFeed(url);
    advance(999);
    expect((await cached.comments.pageFeed('/a'))[0]?.url).toBe('/a');
    expect(inner.comments.pageFeed).toHaveBeenCalledTimes(2);

    advance(1);
    await cached.comments.pageFeed('/a');
    expect(vi.mocked(inner.comments.pageFeed).mock.calls.map(([url]) => url)).toEqual(['/a', '/b', '/a']);
  });

  it.each(writes)(
    'forgets the feed of the article after %s and reads it consistently for ttlMs, but not the feed of another',
    async (_name, write) => {
      const { inner, cached, advance } = setUp(1000);
      await cached.comments.pageFeed('/p');
      await cached.comments.pageFeed('/other');

      await write(cached);
      await cached.comments.pageFeed('/p');
      await cached.comments.pageFeed('/other');
      advance(1000);
      await cached.comments.pageFeed('/p');
      await cached.comments.pageFeed('/p');

      expect(vi.mocked(inner.comments.pageFeed).mock.calls).toEqual([
        ['/p'],
        ['/other'],
        ['/p', { consistent: true }],
        ['/p'],
      ]);
    },
  );

  it('hands out frozen page feeds, and never caches one asked to be consistent', async () => {
    const { inner, cached } = setUp(60_000);
    const feed = await cached.comments.pageFeed('/p');
    await cached.comments.pageFeed('/p', { consistent: true });
    await cached.comments.pageFeed('/p', { consistent: true });

    expect(() => (feed as ListedComment[]).push(listed('01Z'))).toThrow(TypeError);
    expect(inner.comments.pageFeed).toHaveBeenCalledTimes(3);
  });

  it('returns the repositories themselves when ttlMs is 0', () => {
    const inner = fakeRepositories();
    expect(cacheListReads(inner, { ttlMs: 0 })).toBe(inner);
  });
});

describe('the list cache behind the comment routes', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  afterEach(() => ddb.reset());

  const list = async (handler: ReturnType<typeof createCommentHandler>, authorization?: string) => {
    const event = buildEvent({
      path: '/api/comment',
      query: 'path=%2Fp',
      ...(authorization ? { headers: { authorization } } : {}),
    });
    const response = await handler(event, testContext);
    return JSON.parse(response.body).data as { count: number; data: Record<string, unknown>[] };
  };
  const nicks = (answer: { data: Record<string, unknown>[] }) =>
    answer.data.flatMap((root) => [root.nick, ...(root.children as { nick: string }[]).map((c) => c.nick)]);

  it("serves a visitor's repeated page from the cache, reads an administrator's afresh with what is held, and shows the next visitor none of it", async () => {
    const secret = 's'.repeat(32);
    const admin = {
      id: 'admin-1',
      email: 'admin@example.com',
      displayName: 'Admin',
      passwordHash: 'x',
      createdAt: 1,
    };
    const services = createCommentDependencies(testConfig({ LIST_CACHE_MS: '60000' }), {
      tokenSecret: async () => secret,
      accounts: {
        findById: async (id: string) =>
          id === admin.id
            ? { ...admin, type: 'administrator', state: 'active', sessionVersion: 0 }
            : undefined,
      } as never,
    });
    const handler = createCommentHandler(services, allRouteKeys);
    const token = await signToken(secret, {
      sub: admin.id,
      email: admin.email,
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    const sent = serveCommentTable(ddb, [
      { pk: 'URL#/p', sk: 'PAGE', comments: 1, roots: 1, held: 2, heldRoots: 1 },
      commentItem('/p', '01A', { nick: 'ann' }),
      commentItem('/p', '01W', { nick: 'wes', status: 'waiting' }),
      commentItem('/p', '01X', { nick: 'xen', rid: '01A', status: 'spam' }),
    ]);

    const anonymousFirst = await list(handler);
    const readByVisitor = sent.length;
    const asAdmin = await list(handler, `Bearer ${token}`);
    const readByAdmin = sent.length - readByVisitor;
    const anonymousAfter = await list(handler);

    expect(sent).toHaveLength(readByVisitor + readByAdmin);
    expect(readByAdmin).toBeGreaterThan(0);
    expect(nicks(asAdmin)).toEqual(['wes', 'ann', 'xen']);
    expect(asAdmin.count).toBe(3);
    for (const anonymous of [anonymousFirst, anonymousAfter]) {
      expect(nicks(anonymous)).toEqual(['ann']);
      expect(anonymous.count).toBe(1);
      expect(JSON.stringify(anonymous)).not.toMatch(/wes|xen|@example\.com/);
    }
  });

  it('sends no read for a repeated list, and reads consistently again after a submit', async () => {
    const handler = createCommentHandler(
      createCommentDependencies(testConfig({ LIST_CACHE_MS: '60000' })),
      allRouteKeys,
    );
    const items = [
      { pk: 'URL#/p', sk: 'PAGE', comments: 1, roots: 1, held: 1, heldRoots: 1 },
      commentItem('/p', '01A', { nick: 'ann' }),
      commentItem('/p', '01W', { nick: 'wes', status: 'waiting' }),
    ];
    const sent = serveCommentTable(ddb, items);

    const first = await list(handler);
    const readFirst = sent.length;
    const second = await list(handler);
    expect(sent).toHaveLength(readFirst);
    expect(second).toEqual(first);
    expect(first.count).toBe(1);
    expect(JSON.stringify(first)).not.toMatch(/wes|@example\.com/);

    const submit = await handler(
      buildEvent({ method: 'POST', path: '/api/comment', body: { comment: 'hi', url: '/p', nick: 'bea' } }),
      testContext,
    );
    expect(submit.statusCode).toBe(200);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    // What the transaction wrote, as the table now holds it.
    items.push(commentItem('/p', '01B', { nick: 'bea' }));
    items[0] = { ...items[0], comments: 2, roots: 2 };

    const afterSubmit = await list(handler);
    expect(nicks(afterSubmit)).toEqual(['bea', 'ann']);
    expect(afterSubmit.count).toBe(2);
    // The list's reads, not the submit's (its marks and its transaction).
    const reads = sent
      .slice(readFirst)
      .filter(({ command }) => command !== 'TransactWriteItems' && command !== 'BatchGetItem');
    // The counters and the threads (one range Query) are read consistently; the roots index, a GSI,
    // cannot be.
    expect(reads.map(({ input }) => [input.IndexName, input.ConsistentRead])).toEqual([
      [undefined, true],
      ['roots-by-time', undefined],
      ['roots-by-time', undefined],
      [undefined, true],
    ]);
  });
});
