import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCommentHandler } from '../../../../../functions/comment/comment-handler.js';
import type { ListedComment } from '../../../../../functions/shared/domain/comment.js';
import { signToken } from '../../../../../functions/shared/auth/token.js';
import { createServices } from '../../../../../functions/shared/services.js';
import { cacheListReads } from '../../../../../functions/shared/storage/cached-reads.js';
import type { CommentRepository } from '../../../../../functions/shared/storage/comment-repository.js';
import type { ModerationRepository } from '../../../../../functions/shared/storage/moderation-repository.js';
import { buildEvent, testContext } from '../../../../support/http-event.js';
import { testConfig } from '../../../../support/test-config.js';

const listed = (id: string, url = '/p'): ListedComment => ({
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

/** Repositories whose reads count their calls and whose writes do nothing. */
function fakeRepositories() {
  const comments = {
    listByUrl: vi.fn(async (url: string, _options?: { consistent?: boolean }) => [listed('01A', url)]),
    recent: vi.fn(async (count: number) => Array.from({ length: count }, (_, i) => listed(`0${i}`))),
    insert: vi.fn(async () => ({ ok: true as const })),
    vote: vi.fn(async () => 'changed' as const),
  } as unknown as CommentRepository;
  const moderation = {
    setStatus: vi.fn(async () => true),
    setSticky: vi.fn(async () => true),
    edit: vi.fn(async () => true),
    remove: vi.fn(async () => 1),
  } as unknown as ModerationRepository;
  return { comments, moderation };
}

function setUp(ttlMs = 1000) {
  let time = 0;
  const inner = fakeRepositories();
  const cached = cacheListReads(inner, { ttlMs, now: () => time });
  return { inner, cached, advance: (ms: number) => (time += ms) };
}

const ref = { url: '/p', id: '01A' };
const writes: [string, (repositories: ReturnType<typeof fakeRepositories>) => Promise<unknown>][] = [
  ['insert', ({ comments }) => comments.insert({ ...listed('01B'), ua: '', ipHash: 'h' }, {} as never)],
  ['vote', ({ comments }) => comments.vote(ref, 'voter', true)],
  ['setStatus', ({ moderation }) => moderation.setStatus(listed('01A'), 'spam')],
  ['setSticky', ({ moderation }) => moderation.setSticky(ref, true)],
  ['edit', ({ moderation }) => moderation.edit(ref, { orig: 'x', html: '<p>x</p>' })],
  ['remove', ({ moderation }) => moderation.remove(ref)],
];

describe('cacheListReads', () => {
  it('reads an article and the recent list once per ttlMs', async () => {
    const { inner, cached, advance } = setUp();

    await cached.comments.listByUrl('/p');
    await cached.comments.recent(10);
    advance(999);
    await cached.comments.listByUrl('/p');
    await cached.comments.recent(10);
    expect(inner.comments.listByUrl).toHaveBeenCalledTimes(1);
    expect(inner.comments.recent).toHaveBeenCalledTimes(1);

    advance(1);
    await cached.comments.listByUrl('/p');
    await cached.comments.recent(10);
    expect(inner.comments.listByUrl).toHaveBeenCalledTimes(2);
    expect(inner.comments.recent).toHaveBeenCalledTimes(2);
  });

  it('keeps each article and each recent count apart', async () => {
    const { inner, cached } = setUp();

    expect((await cached.comments.listByUrl('/a'))[0]?.url).toBe('/a');
    expect((await cached.comments.listByUrl('/b'))[0]?.url).toBe('/b');
    expect(await cached.comments.recent(2)).toHaveLength(2);
    expect(await cached.comments.recent(3)).toHaveLength(3);
    expect(inner.comments.listByUrl).toHaveBeenCalledTimes(2);
    expect(inner.comments.recent).toHaveBeenCalledTimes(2);
  });

  it.each(writes)(
    'forgets the article and the recent lists after %s, and no other article',
    async (_name, write) => {
      const { inner, cached } = setUp(60_000);
      await cached.comments.listByUrl('/p');
      await cached.comments.listByUrl('/other');
      await cached.comments.recent(10);

      await write(cached);
      await cached.comments.listByUrl('/p');
      await cached.comments.listByUrl('/other');
      await cached.comments.recent(10);

      expect(inner.comments.listByUrl).toHaveBeenCalledTimes(3);
      expect(vi.mocked(inner.comments.listByUrl).mock.calls.map(([url]) => url)).toEqual([
        '/p',
        '/other',
        '/p',
      ]);
      expect(inner.comments.recent).toHaveBeenCalledTimes(2);
    },
  );

  it('reads an article consistently once after this instance wrote to it, then eventually again', async () => {
    const { inner, cached, advance } = setUp(1000);
    const consistency = () =>
      vi.mocked(inner.comments.listByUrl).mock.calls.map(([, options]) => options?.consistent);

    await cached.comments.listByUrl('/p');
    await cached.comments.vote(ref, 'voter', true);
    await cached.comments.listByUrl('/p');
    await cached.comments.listByUrl('/p');
    advance(1000);
    await cached.comments.listByUrl('/p');
    expect(consistency()).toEqual([false, true, false]);
  });

  it('reads consistently again after a consistent read failed', async () => {
    const { inner, cached } = setUp(1000);
    await cached.moderation.setSticky(ref, true);
    vi.mocked(inner.comments.listByUrl).mockRejectedValueOnce(new Error('throttled'));

    await expect(cached.comments.listByUrl('/p')).rejects.toThrow('throttled');
    await cached.comments.listByUrl('/p');
    expect(vi.mocked(inner.comments.listByUrl).mock.calls.map(([, options]) => options?.consistent)).toEqual([
      true,
      true,
    ]);
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
    const { inner, cached } = setUp(60_000);
    vi.mocked(inner.comments.insert).mockRejectedValueOnce(new Error('timed out'));
    await cached.comments.listByUrl('/p');

    await expect(
      cached.comments.insert({ ...listed('01B'), ua: '', ipHash: 'h' }, {} as never),
    ).rejects.toThrow('timed out');
    await cached.comments.listByUrl('/p');
    expect(inner.comments.listByUrl).toHaveBeenCalledTimes(2);
  });

  it('hands out frozen lists, so that no request can reorder another one', async () => {
    const { cached } = setUp();
    const list = await cached.comments.listByUrl('/p');

    expect(Object.isFrozen(list)).toBe(true);
    expect(() => (list as ListedComment[]).push(listed('01Z'))).toThrow(TypeError);
  });

  it('returns the repositories themselves when ttlMs is 0', () => {
    const inner = fakeRepositories();
    expect(cacheListReads(inner, { ttlMs: 0 })).toBe(inner);
  });
});

describe('the list cache behind the comment routes', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  afterEach(() => ddb.reset());

  const item = (id: string, nick: string) => ({
    pk: 'URL#/p',
    sk: `C#${id}`,
    commentId: id,
    url: '/p',
    nick,
    mail: `${nick}@example.com`,
    link: '',
    orig: 'hi',
    html: '<p>hi</p>',
    status: 'approved',
    like: 0,
    insertedAt: 1_700_000_000_000,
  });

  it('shapes the one cached list for each viewer: an administrator sees the waiting comment, the next visitor does not', async () => {
    const secret = 's'.repeat(32);
    const admin = {
      id: 'admin-1',
      email: 'admin@example.com',
      displayName: 'Admin',
      passwordHash: 'x',
      createdAt: 1,
    };
    const services = createServices(testConfig({ LIST_CACHE_MS: '60000' }), {
      tokenSecret: async () => secret,
      admins: { find: async (email: string) => (email === admin.email ? admin : undefined) } as never,
    });
    const handler = createCommentHandler(services);
    const token = signToken(secret, {
      sub: admin.id,
      email: admin.email,
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    const list = async (authorization?: string) => {
      const event = buildEvent({
        path: '/api/comment',
        query: 'path=%2Fp',
        ...(authorization ? { headers: { authorization } } : {}),
      });
      const response = await handler(event, testContext);
      return JSON.parse(response.body).data as { count: number; data: Record<string, unknown>[] };
    };
    ddb
      .on(QueryCommand)
      .resolves({ Items: [item('01A', 'ann'), { ...item('01W', 'wes'), status: 'waiting' }] });

    const anonymousFirst = await list();
    const asAdmin = await list(`Bearer ${token}`);
    const anonymousAfter = await list();

    expect(ddb.commandCalls(QueryCommand)).toHaveLength(1);
    expect(asAdmin.data.map((comment) => comment.nick)).toEqual(['wes', 'ann']);
    for (const anonymous of [anonymousFirst, anonymousAfter]) {
      expect(anonymous.data.map((comment) => comment.nick)).toEqual(['ann']);
      expect(JSON.stringify(anonymous)).not.toMatch(/wes|@example\.com/);
    }
  });

  it('sends no Query for a repeated list, and reads again after a submit', async () => {
    const handler = createCommentHandler(createServices(testConfig({ LIST_CACHE_MS: '60000' })));
    const list = async () => {
      const response = await handler(buildEvent({ path: '/api/comment', query: 'path=%2Fp' }), testContext);
      return JSON.parse(response.body).data as { count: number; data: Record<string, unknown>[] };
    };
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [item('01A', 'ann'), { ...item('01W', 'wes'), status: 'waiting' }] })
      .resolves({ Items: [item('01A', 'ann'), item('01B', 'bea')] });
    ddb.on(TransactWriteCommand).resolves({});

    const first = await list();
    const second = await list();
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(1);
    expect(second).toEqual(first);
    // The waiting comment is in the cached list, but an anonymous viewer is never shown it, nor mail.
    expect(first.count).toBe(1);
    expect(JSON.stringify(first)).not.toMatch(/wes|@example\.com/);

    const submit = await handler(
      buildEvent({ method: 'POST', path: '/api/comment', body: { comment: 'hi', url: '/p', nick: 'bea' } }),
      testContext,
    );
    expect(submit.statusCode).toBe(200);
    expect((await list()).count).toBe(2);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(2);
  });
});
