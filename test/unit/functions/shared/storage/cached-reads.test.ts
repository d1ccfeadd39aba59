import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCommentHandler } from '../../../../../functions/comment/comment-handler.js';
import type { ListedComment } from '../../../../../functions/shared/domain/comment.js';
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
    listByUrl: vi.fn(async (url: string) => [listed('01A', url)]),
    recent: vi.fn(async (count: number) => Array.from({ length: count }, (_, i) => listed(`0${i}`))),
    insert: vi.fn(async () => ({ ok: true as const })),
    vote: vi.fn(async () => ({ status: 'counted' as const, like: 1 })),
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

  it('sends no Query for a repeated list, reads again after a submit, and shows each viewer only what it may see', async () => {
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
