import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalApi } from '../../support/local-services.js';
import { parseRss } from '../../support/rss.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('comment feeds on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  // Each comment a second after the one before: the feeds' order is the order they were posted in.
  let clock = Date.UTC(2026, 0, 1);
  const feed = (query = '', path = '/api/comment/rss', headers: Record<string, string> = {}) =>
    api.call({ path, query, headers });
  const post = async (body: Record<string, unknown>) => {
    const { status, body: answer } = await api.call({
      method: 'POST',
      path: '/api/comment',
      body: { mail: 'private@mail.example', ua: firefox, ...body },
    });
    expect(status).toBe(200);
    return answer.data as { objectId: string; status: string };
  };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(
      table,
      {
        IPQPS: '0',
        SITE_URL: 'https://blog.example/',
        SITE_NAME: 'The Blog',
        FORBIDDEN_WORDS: 'casino',
      },
      { now: () => (clock += 1000) },
    );
    // Two threads on /hello, the newest comment of the page a reply in the older one; a spam root and a
    // spam reply there; and one comment on /about.
    ids.first = (await post({ comment: 'The first root', nick: 'Ann', url: '/hello' })).objectId;
    ids.second = (await post({ comment: 'The second root', nick: 'Bob', url: '/hello' })).objectId;
    ids.spamRoot = (await post({ comment: 'Win at the casino', nick: 'Spam', url: '/hello' })).objectId;
    ids.about = (await post({ comment: 'About the author', nick: 'Cid', url: '/about' })).objectId;
    const reply = { pid: ids.first, rid: ids.first, url: '/hello' };
    ids.spamReply = (await post({ comment: 'casino again', nick: 'Spam', ...reply })).objectId;
    ids.reply = (await post({ comment: 'A late reply to Ann', nick: 'Dee', ...reply })).objectId;
  });
  afterAll(() => table.drop());

  it('answers the site feed: every page, approved only, newest first, each linked on its page', async () => {
    const { status, headers, body } = await feed();

    expect(status).toBe(200);
    expect(headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    const parsed = parseRss(body);
    expect(parsed).toMatchObject({ title: 'Comments on The Blog', url: 'https://blog.example/' });
    expect(parsed.items.map((item) => [item.authors[0]?.name, item.url])).toEqual([
      ['Dee', `https://blog.example/hello#${ids.reply}`],
      ['Cid', `https://blog.example/about#${ids.about}`],
      ['Bob', `https://blog.example/hello#${ids.second}`],
      ['Ann', `https://blog.example/hello#${ids.first}`],
    ]);
    expect(parsed.items[0]).toMatchObject({
      title: 'Dee: A late reply to Ann',
      description: '<p>A late reply to Ann</p>',
    });
    const dates = parsed.items.map((item) => item.published?.getTime() ?? 0);
    expect(dates[0]).toBeGreaterThan(Date.UTC(2026, 0, 1));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(new Set(dates).size).toBe(dates.length);
  });

  it("answers a page's feed: its approved comments and replies, newest first, nothing of the spam", async () => {
    const parsed = parseRss((await feed('path=%2Fhello')).body);

    expect(parsed).toMatchObject({
      title: 'Comments on /hello · The Blog',
      url: 'https://blog.example/hello',
    });
    expect(parsed.items.map((item) => item.title)).toEqual([
      'Dee: A late reply to Ann',
      'Bob: The second root',
      'Ann: The first root',
    ]);
  });

  it('cuts either feed to count', async () => {
    const site = parseRss((await feed('count=2')).body);
    const page = parseRss((await feed('path=%2Fhello&count=1')).body);

    expect(site.items.map((item) => item.id)).toEqual(
      [ids.reply, ids.about].map((id) => expect.stringContaining(`#${id}`)),
    );
    expect(page.items).toHaveLength(1);
  });

  it("shows no commenter's mail, IP hash or user agent, nor anything of the spam", async () => {
    for (const query of ['', 'path=%2Fhello', 'path=%2Fabout']) {
      const { body } = await feed(query);
      for (const secret of [
        'private@mail.example',
        'Firefox',
        'Linux',
        'casino',
        ids.spamRoot,
        ids.spamReply,
      ]) {
        expect(body).not.toContain(secret);
      }
    }
  });

  it('answers the legacy /comment/rss with the same feed', async () => {
    const modern = await feed('path=%2Fhello');
    const legacy = await feed('path=%2Fhello', '/comment/rss');

    expect(legacy.status).toBe(200);
    expect(legacy.body).toBe(modern.body.replace('/api/comment/rss', '/comment/rss'));
  });

  it('answers 304 without a body, with CORS and cache headers, when the reader holds the feed', async () => {
    const first = await feed('path=%2Fabout');
    const etag = first.headers.etag ?? '';

    const again = await feed('path=%2Fabout', '/api/comment/rss', { 'if-none-match': etag });

    // An empty body, which the local API reads as null.
    expect(again).toMatchObject({ status: 304, body: null });
    expect(again.headers).toMatchObject({
      etag,
      'cache-control': 'public, max-age=60',
      'access-control-allow-origin': '*',
    });
  });

  it('answers 404 in the failure envelope, saying why, when a feed of a user no account has is asked for', async () => {
    const { status, headers, body } = await feed('user_id=1');

    expect(status).toBe(404);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(body).toMatchObject({ errno: 404, errmsg: expect.stringContaining('No user has the id 1') });
  });
});

describe('a comment feed after a write, on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;

  beforeAll(async () => {
    table = await createTestTable();
    // A cache that outlives the test: only the write's own forgetting can show the new comment.
    api = createLocalApi(table, { IPQPS: '0', LIST_CACHE_MS: '60000', SITE_URL: 'https://blog.example' });
  });
  afterAll(() => table.drop());

  it("shows a new comment in its page's feed at once, on the instance that took it", async () => {
    const feed = (headers: Record<string, string> = {}) =>
      api.call({ path: '/api/comment/rss', query: 'path=%2Fabout', headers });
    const before = await feed();
    expect(parseRss(before.body).items).toEqual([]);

    const added = await api.call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'Fresh', nick: 'Eve', url: '/about' },
    });
    const after = await feed({ 'if-none-match': before.headers.etag ?? '' });

    expect(after.status).toBe(200);
    expect(parseRss(after.body).items.map((item) => item.id)).toEqual([
      `https://blog.example/about#${added.body.data.objectId}`,
    ]);
  });
});
