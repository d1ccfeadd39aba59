import { allRouteKeys } from '../../../functions/api-routes.js';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommentHandler } from '../../../functions/comment/comment-handler.js';
import { signToken } from '../../../functions/shared/auth/token.js';
import type { CommentStatus, StoredComment } from '../../../functions/shared/domain/comment.js';
import { submitBodySchema } from '../../../functions/shared/domain/comment-schemas.js';
import { limits } from '../../../functions/shared/domain/limits.js';
import { renderMarkdown } from '../../../functions/shared/domain/render-markdown.js';
import { createCommentDependencies } from '../../../functions/comment/dependencies.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { createCommentRepository } from '../../../functions/shared/table/comment-repository.js';
import { buildEvent, type EventSpec, testContext } from '../../support/http-event.js';
import { parseRss } from '../../support/rss.js';
import { testConfig } from '../../support/test-config.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { saveTestAdministrator } from '../../support/administrator.js';

/** Lambda refuses a result over 6 MB; every answer must stay well below it. */
const lambdaLimit = 6 * 1024 * 1024;
const margin = 1024 * 1024;

/**
 * Texts the rules accept at their largest, each hostile to the answer's size in its own way: quotes
 * (4 bytes each in a Lambda result, `&quot;` in the HTML), backslashes, newlines, CJK, emoji, ampersands.
 * Each is cut to what still fits one item with its HTML.
 */
const hostileTexts = [
  '"'.repeat(54_000),
  '\\a'.repeat(limits.commentChars / 2),
  'a\n'.repeat(limits.commentChars / 2),
  '漢'.repeat(60_000),
  '😀'.repeat(limits.commentChars / 2),
  '&'.repeat(60_000),
  '\t"\\<'.repeat(limits.commentChars / 4),
].map((text) => {
  // Each is a comment a visitor may post: the schema and the item size both let it through.
  expect(submitBodySchema.safeParse({ comment: text, url: '/p' }).success).toBe(true);
  const html = renderMarkdown(text);
  expect(Buffer.byteLength(text) + Buffer.byteLength(html)).toBeLessThanOrEqual(limits.storedCommentBytes);
  return { orig: text, html };
});

// Slow by nature: each test stores up to 101 comments of 380 KB, and DynamoDB Local pages a keys-only
// index Query as if its items were whole comments (5 keys per page here, where DynamoDB returns
// thousands), so a page's root keys alone take 20 round trips. Two minutes per test leaves room for a slow CI machine.
describe('answers bounded whatever the article holds', { timeout: 120_000 }, () => {
  let table: TestTable;
  let handler: ReturnType<typeof createCommentHandler>;
  let store: (comment: Partial<StoredComment> & { url: string }) => Promise<StoredComment>;
  const jwt = 'bounded-answers-secret-0123456789';
  let token: string;
  let time = 1_700_000_000_000;

  beforeAll(async () => {
    table = await createTestTable();
    const services = createCommentDependencies(
      testConfig({
        TABLE_NAME: table.tableName,
        DYNAMODB_ENDPOINT: table.endpoint,
        JWT_TOKEN: jwt,
        LIST_CACHE_MS: '0',
      }),
    );
    await saveTestAdministrator(services);
    token = await signToken(jwt, { sub: '01ADMIN', email: 'admin@example.com', exp: 4_000_000_000 });
    handler = createCommentHandler(services, allRouteKeys);
    const repository = createCommentRepository(
      createDocumentClient({ endpoint: table.endpoint }),
      table.tableName,
    );
    let n = 0;
    store = async (fields) => {
      const text = hostileTexts[n++ % hostileTexts.length] as (typeof hostileTexts)[number];
      time += 1000;
      const comment: StoredComment = {
        id: ulid(time),
        nick: 'N'.repeat(limits.nickChars),
        mail: 'someone@example.com',
        link: `https://example.com/${'"'.repeat(limits.linkChars - 20)}`,
        ua: '',
        ipHash: 'h',
        browser: '',
        os: '',
        ...text,
        status: 'approved' as CommentStatus,
        like: 0,
        sticky: false,
        insertedAt: time,
        ...fields,
      };
      // The real write path, with a content hash of its own: the same text may be stored many times.
      const outcome = await repository.insert(comment, { contentHash: comment.id });
      expect(outcome).toEqual({ ok: true });
      return comment;
    };
  }, 120_000);
  afterAll(() => table.drop());

  /**
   * Stores `count` comments, each with the fields `fieldsOf` its index gives, four at a time (the ids
   * are taken in order before any is written, so they are in the order of the indexes).
   */
  const storeMany = async (
    count: number,
    fieldsOf: (index: number) => Partial<StoredComment> & { url: string },
  ): Promise<StoredComment[]> => {
    const stored: StoredComment[] = [];
    for (let start = 0; start < count; start += 4) {
      const batch = Array.from({ length: Math.min(4, count - start) }, (_, i) => store(fieldsOf(start + i)));
      stored.push(...(await Promise.all(batch)));
    }
    return stored;
  };

  /** Sends one request and measures its result as Lambda would serialise it. */
  const send = async (spec: EventSpec) => {
    const result = await handler(buildEvent(spec), testContext);
    return { bytes: Buffer.byteLength(JSON.stringify(result)), body: JSON.parse(result.body ?? 'null') };
  };
  const asAdmin = () => ({ authorization: `Bearer ${token}` });

  it('shows every root of a page of 100 maximum-size roots within the limit, and page 2 goes on from there', async () => {
    const url = '/hundred';
    const roots = await storeMany(101, () => ({ url }));
    const newestFirst = roots.map((root) => root.id).reverse();

    for (const headers of [{}, asAdmin()]) {
      const first = await send({ path: '/api/comment', query: `path=${url}&pageSize=100`, headers });
      const second = await send({ path: '/api/comment', query: `path=${url}&pageSize=100&page=2`, headers });

      expect(first.bytes).toBeLessThan(lambdaLimit - margin);
      const shown = first.body.data.data as { objectId: string; textOmitted?: boolean; orig: string }[];
      expect(shown.map((root) => root.objectId)).toEqual(newestFirst.slice(0, 100));
      expect(second.body.data.data.map((root: { objectId: string }) => root.objectId)).toEqual(
        newestFirst.slice(100),
      );
      expect(first.body.data).toMatchObject({ totalPages: 2, count: 101 });
      // The budget was spent on whole texts first, then the rest were marked.
      expect(shown.filter((root) => !root.textOmitted).length).toBeGreaterThan(0);
      expect(shown.at(-1)).toMatchObject({ textOmitted: true, orig: '' });
    }
  });

  it('keeps a root with many maximum-size replies within the limit, replies in order and marked as cut', async () => {
    const url = '/long-thread';
    const root = await store({ url });
    const replies = await storeMany(40, () => ({ url, pid: root.id, rid: root.id }));

    const { bytes, body } = await send({ path: '/api/comment', query: `path=${url}` });

    expect(bytes).toBeLessThan(lambdaLimit - margin);
    const [thread] = body.data.data;
    expect(thread.objectId).toBe(root.id);
    expect(thread.moreReplies).toBe(true);
    expect(thread.children.length).toBeGreaterThan(0);
    expect(thread.children.length).toBeLessThan(replies.length);
    // Oldest first, with no holes: the replies shown are the first ones.
    expect(thread.children.map((reply: { objectId: string }) => reply.objectId)).toEqual(
      replies.slice(0, thread.children.length).map((reply) => reply.id),
    );
    expect(body.data.count).toBe(41);
  });

  it('returns 50 maximum-size recent comments within the limit, texts left out past the budget', async () => {
    const stored = await storeMany(50, (i) => ({ url: `/recent-${i}` }));

    const { bytes, body } = await send({ path: '/api/comment', query: 'type=recent&count=50' });

    expect(bytes).toBeLessThan(lambdaLimit - margin);
    expect(body.data).toHaveLength(50);
    expect(body.data.map((comment: { objectId: string }) => comment.objectId)).toEqual(
      stored.map((comment) => comment.id).reverse(),
    );
    expect(body.data.some((comment: { textOmitted?: boolean }) => comment.textOmitted)).toBe(true);
  });

  it('keeps the feeds of maximum-size comments within the limit, the site feed with every item, texts left out past the budget', async () => {
    await storeMany(50, (i) => ({ url: `/feed-${i % 2}` }));
    // And the newest, a common comment: the site feed reads texts within a budget of bytes that no
    // maximum-size comment fits in, and this one does.
    await store({ url: '/feed-1', orig: 'A common comment', html: '<p>A common comment</p>\n' });
    const feed = async (query: string) => {
      const result = await handler(buildEvent({ path: '/api/comment/rss', query }), testContext);
      return { bytes: Buffer.byteLength(JSON.stringify(result)), feed: parseRss(result.body) };
    };

    const site = await feed('count=50');
    const page = await feed('path=%2Ffeed-0&count=50');

    expect(site.bytes).toBeLessThan(lambdaLimit - margin);
    expect(site.feed.items).toHaveLength(50);
    const omitted = 'This comment is too long to show in this list.';
    expect(site.feed.items.some((item) => item.description?.includes(omitted))).toBe(true);
    expect(site.feed.items.some((item) => !item.description?.includes(omitted))).toBe(true);
    // A page's feed is one Query, which stops at 1 MB: a few comments of this size.
    expect(page.bytes).toBeLessThan(lambdaLimit - margin);
    expect(page.feed.items.length).toBeGreaterThan(0);
  });

  it('keeps the moderation list of 100 maximum-size waiting comments within the limit', async () => {
    const waiting = await storeMany(100, (i) => ({ url: `/queue-${i % 7}`, status: 'waiting' }));

    const { bytes, body } = await send({
      path: '/api/comment',
      query: 'type=list&status=waiting&pageSize=100',
      headers: asAdmin(),
    });

    expect(body.errmsg ?? '').toBe('');
    expect(bytes).toBeLessThan(lambdaLimit - margin);
    expect(body.data.data.map((comment: { objectId: string }) => comment.objectId)).toEqual(
      waiting.map((comment) => comment.id).reverse(),
    );
  });
});
