import { describe, expect, it } from 'vitest';
import { createCommentFeed, type FeedSite } from '../../../../functions/comment/comment-feed.js';
import { answerBudgetBytes, resultBytes } from '../../../../functions/shared/domain/answer-budget.js';
import type { ListedComment } from '../../../../functions/shared/domain/comment.js';
import type { HttpResult } from '../../../../functions/shared/http/http-types.js';
import { toApiRequest } from '../../../../functions/shared/http/request.js';
import { buildEvent, type EventSpec } from '../../../support/http-event.js';
import { routeAnswer } from '../../../support/route-answer.js';
import { parseRss } from '../../../support/rss.js';

const insertedAt = Date.UTC(2026, 0, 2, 3, 4, 5);

/** A comment as storage lists it, with the private fields filled in so that a leak would show. */
function listed(id: string, extra: Partial<ListedComment> = {}): ListedComment {
  return {
    id,
    url: '/posts/hello',
    nick: `nick-${id}`,
    mail: `${id.toLowerCase()}@private.example`,
    link: `https://${id.toLowerCase()}.example`,
    browser: 'Firefox128.0',
    os: 'Linux',
    orig: `text of ${id}`,
    html: `<p>text of <strong>${id}</strong></p>\n`,
    status: 'approved',
    like: 0,
    sticky: false,
    insertedAt,
    ipHash: `ip-hash-of-${id}`,
    ...extra,
  };
}

/** The feed route over fakes of exactly its dependencies, which record what they were asked. */
function feedRoute(
  options: {
    recent?: ListedComment[];
    page?: ListedComment[];
    site?: FeedSite;
    accounts?: Record<string, ListedComment[]>;
  } = {},
) {
  const recentCounts: number[] = [];
  const pageUrls: string[] = [];
  const accountReads: [string, number][] = [];
  const route = createCommentFeed({
    comments: {
      recent: async (count) => {
        recentCounts.push(count);
        return (options.recent ?? []).slice(0, count);
      },
      pageFeed: async (url) => {
        pageUrls.push(url);
        return options.page ?? [];
      },
    },
    site: options.site ?? { url: 'https://blog.example', name: 'The Blog' },
    authorFeed: {
      accountExists: async (id) => Object.hasOwn(options.accounts ?? {}, id),
      newest: async (id, count) => {
        accountReads.push([id, count]);
        return (options.accounts?.[id] ?? []).slice(0, count);
      },
    },
  });
  const call = (spec: Partial<EventSpec> = {}): Promise<HttpResult> =>
    route(toApiRequest(buildEvent({ path: '/api/comment/rss', ...spec })));
  return { route, call, recentCounts, pageUrls, accountReads };
}

describe('createCommentFeed', () => {
  it('answers the site feed as RSS 2.0, newest first, each item with nick, HTML, date and permalink, when no path is given', async () => {
    const { call, recentCounts } = feedRoute({
      recent: [listed('01B', { url: '/about' }), listed('01A', { insertedAt: insertedAt - 60_000 })],
    });

    const answer = await call();

    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(recentCounts).toEqual([20]);
    const feed = parseRss(answer.body);
    expect(feed).toMatchObject({
      title: 'Comments on The Blog',
      url: 'https://blog.example',
      description: 'The newest approved comments on The Blog.',
      self: 'https://localhost/api/comment/rss',
      updated: new Date(insertedAt),
    });
    expect(
      feed.items.map((item) => ({
        id: item.id,
        url: item.url,
        title: item.title,
        author: item.authors.map((author) => author.name),
        published: item.published,
      })),
    ).toEqual([
      {
        id: 'https://blog.example/about#01B',
        url: 'https://blog.example/about#01B',
        title: 'nick-01B: text of 01B',
        author: ['nick-01B'],
        published: new Date(insertedAt),
      },
      {
        id: 'https://blog.example/posts/hello#01A',
        url: 'https://blog.example/posts/hello#01A',
        title: 'nick-01A: text of 01A',
        author: ['nick-01A'],
        published: new Date(insertedAt - 60_000),
      },
    ]);
    expect(feed.items[0]?.description).toBe('<p>text of <strong>01B</strong></p>');
    expect(answer.body).toContain('<pubDate>Fri, 02 Jan 2026 03:04:05 GMT</pubDate>');
    expect(answer.body).toContain('<guid isPermaLink="true">https://blog.example/about#01B</guid>');
  });

  it('answers the page feed from the page read, cut to count, with the page as the channel link, when a path is given', async () => {
    const page = ['01E', '01D', '01C', '01B', '01A'].map((id) => listed(id));
    const { call, pageUrls, recentCounts } = feedRoute({ page });

    const feed = parseRss((await call({ query: 'path=%2Fposts%2Fhello&count=3' })).body);

    expect(pageUrls).toEqual(['/posts/hello']);
    expect(recentCounts).toEqual([]);
    expect(feed).toMatchObject({
      title: 'Comments on /posts/hello · The Blog',
      url: 'https://blog.example/posts/hello',
      description: 'The newest approved comments on /posts/hello.',
      self: 'https://localhost/api/comment/rss?path=%2Fposts%2Fhello&count=3',
    });
    expect(feed.items.map((item) => item.url)).toEqual(
      ['01E', '01D', '01C'].map((id) => `https://blog.example/posts/hello#${id}`),
    );
  });

  it('answers the site feed when the path is empty', async () => {
    const { call, pageUrls, recentCounts } = feedRoute();

    const feed = parseRss((await call({ query: 'path=' })).body);

    expect(feed.title).toBe('Comments on The Blog');
    expect(feed.items).toEqual([]);
    expect([pageUrls, recentCounts]).toEqual([[], [20]]);
  });

  it.each([
    ['count is 0', 'count=0', 'count'],
    ['count is 51', 'count=51', 'count'],
    ['count is no number', 'count=many', 'count'],
    ['path is given twice', 'path=%2Fa&path=%2Fb', 'path'],
    ['path is over 1,024 characters', `path=${'x'.repeat(1025)}`, 'path'],
  ])('answers 400 naming the field when %s', async (_case, query, field) => {
    const { route } = feedRoute();

    const { statusCode, body } = await routeAnswer(route, { path: '/api/comment/rss', query });

    expect(statusCode).toBe(400);
    expect(body).toMatchObject({ errno: 1001, details: { [field]: expect.any(String) } });
  });

  it('reads up to 50 comments when count asks for them', async () => {
    const { call, recentCounts } = feedRoute();

    await call({ query: 'count=50' });

    expect(recentCounts).toEqual([50]);
  });

  it('leaves items without a link, with the comment id as a guid that is no permalink, and links the channel to this server, when SITE_URL is unset', async () => {
    const { call } = feedRoute({ recent: [listed('01A')], site: {} });

    const answer = await call({
      headers: { host: '127.0.0.1:8360', 'x-forwarded-proto': 'http' },
      query: 'count=5',
    });

    const feed = parseRss(answer.body);
    expect(feed).toMatchObject({
      title: 'Comments on 127.0.0.1:8360',
      url: 'http://127.0.0.1:8360',
      self: 'http://127.0.0.1:8360/api/comment/rss?count=5',
    });
    expect(feed.items[0]).toMatchObject({ id: '01A', url: null });
    expect(answer.body).toContain('<guid isPermaLink="false">01A</guid>');
    expect(answer.body).not.toContain('<link>http://127.0.0.1:8360/');
  });

  it('names the site by the host of SITE_URL when SITE_NAME is unset', async () => {
    const { call } = feedRoute({ site: { url: 'https://blog.example:8443/' } });

    const feed = parseRss((await call()).body);

    expect(feed.title).toBe('Comments on blog.example:8443');
  });

  it('joins SITE_URL and the path with one slash, encodes what an address cannot hold, and keeps a stored address on the site', async () => {
    const { call } = feedRoute({
      site: { url: 'https://blog.example/' },
      recent: [
        listed('01C', { url: '/posts/hello world/ü' }),
        listed('01B', { url: 'no-slash' }),
        listed('01A', { url: 'https://elsewhere.example/page' }),
      ],
    });

    const feed = parseRss((await call()).body);

    expect(feed.items.map((item) => item.url)).toEqual([
      'https://blog.example/posts/hello%20world/%C3%BC#01C',
      'https://blog.example/no-slash#01B',
      'https://blog.example/https://elsewhere.example/page#01A',
    ]);
  });

  it('keeps the feed well-formed and the values whole when nicks, paths and texts are hostile', async () => {
    // Markup, CDATA's end, quotes, and characters XML 1.0 allows nowhere (C0 controls, a lone surrogate, U+FFFF).
    const hostile = 'a<b>&c]]>d"e\'f\u0001g\u000bh\ud800i\uffffj';
    const legal = 'a<b>&c]]>d"e\'fghij';
    const path = '/p<&]]>"\'\u0001x';
    const { call } = feedRoute({
      site: { url: 'https://blog.example', name: hostile },
      page: [
        listed('01A', {
          url: path,
          nick: hostile,
          html: `<p>${hostile}</p><p>]]></p><p>&lt;script&gt; &#x27;q&#39;</p>`,
        }),
      ],
    });

    const answer = await call({ query: `path=${encodeURIComponent(path)}` });

    const feed = parseRss(answer.body);
    expect(feed.title).toBe(`Comments on /p<&]]>"'x · ${legal}`);
    const [item] = feed.items;
    expect(item?.authors[0]?.name).toBe(legal);
    expect(item?.title).toBe(`${legal}: a&c]]>d"e'fghij ]]> <script> 'q'`);
    expect(item?.url).toBe("https://blog.example/p%3C&]]%3E%22'%01x#01A");
    expect(item?.description).toContain(`<p>${legal}</p><p>]]></p>`);
    expect(answer.body).toContain('<![CDATA[<p>a<b>&c]]]]><![CDATA[>d"e\'fghij</p><p>]]]]><![CDATA[></p>');
  });

  it('calls an author without a nick Anonymous, and titles a comment without text by its author', async () => {
    const { call } = feedRoute({ recent: [listed('01A', { nick: ' ', html: '<p><img src="x.png"></p>' })] });

    const feed = parseRss((await call()).body);

    expect(feed.items[0]?.title).toBe('Comment by Anonymous');
    expect(feed.items[0]?.authors[0]?.name).toBe('Anonymous');
  });

  it('cuts a long text to 80 characters in an item title, never inside a character', async () => {
    const { call } = feedRoute({ recent: [listed('01A', { html: `<p>${'😀'.repeat(100)}</p>` })] });

    const feed = parseRss((await call()).body);

    expect(feed.items[0]?.title).toBe(`nick-01A: ${'😀'.repeat(79)}…`);
  });

  it('shows no mail, IP hash, user agent or site link of an author', async () => {
    const comment = listed('01A', { mail: 'secret@private.example', type: 'administrator' });
    const { call } = feedRoute({ recent: [comment] });

    const { body } = await call();

    for (const secret of ['secret@private.example', 'ip-hash-of-01A', 'Firefox128.0', 'Linux']) {
      expect(body).not.toContain(secret);
    }
    expect(body).not.toContain('<author>');
  });

  it('answers 304 with the ETag and no body when If-None-Match names the feed it would send', async () => {
    const { call } = feedRoute({ recent: [listed('01A')] });
    const first = await call();
    const etag = first.headers.etag ?? '';

    const answers = await Promise.all(
      [etag, `W/${etag}`, `"other", ${etag}`, '*'].map((tag) => call({ headers: { 'if-none-match': tag } })),
    );

    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    for (const answer of answers) {
      expect(answer).toEqual({
        statusCode: 304,
        headers: { etag, 'cache-control': 'public, max-age=60' },
        body: '',
      });
    }
  });

  it('answers the whole feed with a new ETag when the comments changed since the tag the reader holds', async () => {
    const comments = [listed('01A')];
    const { call } = feedRoute({ recent: comments });
    const before = await call();
    comments.unshift(listed('01B'));

    const after = await call({ headers: { 'if-none-match': before.headers.etag ?? '' } });

    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(parseRss(after.body).items).toHaveLength(2);
  });

  it("answers one account's newest approved comments with user_id, titled for that user", async () => {
    const { call, accountReads, recentCounts } = feedRoute({
      accounts: { '01CAROL': [listed('01B', { nick: 'Carol' }), listed('01A', { nick: 'Carol' })] },
    });

    const answer = await call({ query: 'user_id=01CAROL&count=5' });

    expect(answer.statusCode).toBe(200);
    const feed = parseRss(answer.body);
    expect(feed.items).toHaveLength(2);
    expect(answer.body).toContain('<title>Comments by user 01CAROL · The Blog</title>');
    expect(answer.body).toContain('user_id=01CAROL');
    expect(accountReads).toEqual([['01CAROL', 5]]);
    expect(recentCounts).toEqual([]);
  });

  it.each([
    ['en', /No user has the id 42/],
    ['zh-CN', /没有 id 为 42 的用户/],
  ])('answers 404 in %s, reading no comment, for a user_id no account has', async (lang, message) => {
    const { route, recentCounts, pageUrls, accountReads } = feedRoute();

    const { statusCode, body } = await routeAnswer(route, {
      path: '/api/comment/rss',
      query: `user_id=42&lang=${lang}`,
    });

    expect(statusCode).toBe(404);
    expect(body).toMatchObject({ errno: 404, errmsg: expect.stringMatching(message) });
    expect([recentCounts, pageUrls, accountReads]).toEqual([[], [], []]);
  });

  it.each(['user_id=', 'user_id=a%20b', `user_id=${'x'.repeat(65)}`, 'user_id=1&user_id=2'])(
    'answers 400 naming user_id for %s',
    async (query) => {
      const { route, accountReads } = feedRoute({ accounts: { '1': [] } });
      const { statusCode, body } = await routeAnswer(route, { path: '/api/comment/rss', query });
      expect(statusCode).toBe(400);
      expect(body).toMatchObject({ errmsg: expect.stringContaining('user_id') });
      expect(accountReads).toEqual([]);
    },
  );

  it('keeps every item but omits the texts past the answer budget when the comments are huge', async () => {
    // 360 KB of HTML each (a CJK character is 3 bytes): 50 of them would be 18 MB.
    const huge = (id: string) => listed(id, { html: `<p>${'中'.repeat(120 * 1024)}</p>` });
    const { call } = feedRoute({ recent: Array.from({ length: 50 }, (_, i) => huge(`01${i}`)) });

    const answer = await call({ query: 'count=50' });

    expect(resultBytes(answer)).toBeLessThanOrEqual(answerBudgetBytes + 4096);
    const feed = parseRss(answer.body);
    expect(feed.items).toHaveLength(50);
    expect(feed.items[0]?.description).toContain('中中');
    expect(feed.items.at(-1)?.description).toBe(
      '<p><em>This comment is too long to show in this list.</em></p>',
    );
  });
});
