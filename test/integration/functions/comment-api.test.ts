import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const chromeOnLinux =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

describe('comment API on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let ip = 0;
  // Each post from its own address, so the rate limit (on, 60 s) does not interfere.
  const post = (body: Record<string, unknown>, query = '', path = '/api/comment') =>
    api.call({ method: 'POST', path, query, body, sourceIp: `10.0.0.${++ip}` });
  const list = (query: string) => api.call({ path: '/api/comment', query });

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table);
  });
  afterAll(() => table.drop());

  it('answers a root comment as the list shows it, without pid, rid, mail, ip or ua', async () => {
    const { status, body } = await post({
      comment: 'Hello **world** <script>alert(1)</script>',
      nick: 'Alice',
      mail: ' Alice@Example.com ',
      link: 'https://alice.example.com',
      url: '/posts/hello',
      ua: chromeOnLinux,
    });

    expect(status).toBe(200);
    expect(body.errno).toBe(0);
    expect(body.data).toMatchObject({
      comment: '<p>Hello <strong>world</strong> </p>\n',
      orig: 'Hello **world** <script>alert(1)</script>',
      nick: 'Alice',
      link: 'https://alice.example.com',
      url: '/posts/hello',
      avatar: 'https://seccdn.libravatar.org/avatar/c160f8cc69a4f0bf2b0362752353d060',
      browser: 'Chrome120.0',
      os: 'Linux',
      status: 'approved',
      like: 0,
    });
    expect(body.data.objectId).toMatch(/^[0-9A-Z]{26}$/);
    expect(typeof body.data.time).toBe('number');
    for (const hidden of ['pid', 'rid', 'mail', 'ip', 'ua', 'ipHash', 'insertedAt', 'sticky']) {
      expect(body.data).not.toHaveProperty(hidden);
    }
  });

  it('threads replies under their root, oldest first, with reply_user, and counts them all', async () => {
    const root = (await post({ comment: 'root', nick: 'R', url: '/thread' })).body.data;
    const first = (
      await post({
        comment: 'first',
        nick: 'F',
        url: '/thread',
        pid: root.objectId,
        rid: root.objectId,
        at: 'R',
      })
    ).body.data;
    const nested = (
      await post({ comment: 'nested', nick: 'N', url: '/thread', pid: first.objectId, rid: root.objectId })
    ).body.data;
    expect(first).toMatchObject({ pid: root.objectId, rid: root.objectId });

    for (const sortBy of ['insertedAt_desc', 'insertedAt_asc', 'like_desc', 'create_time']) {
      const { body } = await list(`path=%2Fthread&sortBy=${sortBy}`);
      expect(body.data).toMatchObject({ page: 1, totalPages: 1, pageSize: 10, count: 3 });
      const [thread] = body.data.data;
      expect(thread.objectId).toBe(root.objectId);
      expect(thread).not.toHaveProperty('rid');
      expect(thread.children.map((c: { objectId: string }) => c.objectId)).toEqual([
        first.objectId,
        nested.objectId,
      ]);
      expect(thread.children[1].reply_user).toEqual({
        nick: 'F',
        link: '',
        avatar: 'https://seccdn.libravatar.org/avatar/d41d8cd98f00b204e9800998ecf8427e',
      });
    }
  });

  it('names the parent of a reply in the answer to its POST (reply_user), as the list does', async () => {
    const root = (
      await post({
        comment: 'named root',
        nick: 'Rita',
        mail: 'rita@example.com',
        link: 'https://rita.example',
        url: '/named',
      })
    ).body.data;
    const reply = (
      await post({ comment: 'answer', nick: 'Sam', url: '/named', pid: root.objectId, rid: root.objectId })
    ).body.data;
    const nested = (await post({ comment: 'nested', url: '/named', pid: reply.objectId, rid: root.objectId }))
      .body.data;

    expect(root).not.toHaveProperty('reply_user');
    expect(reply.reply_user).toEqual({ nick: 'Rita', link: 'https://rita.example', avatar: root.avatar });
    expect(nested.reply_user).toEqual({ nick: 'Sam', link: '', avatar: reply.avatar });
    const { body } = await list('path=%2Fnamed');
    expect(body.data.data[0].children.map((child: { reply_user: unknown }) => child.reply_user)).toEqual([
      reply.reply_user,
      nested.reply_user,
    ]);
  });

  it('refuses a reply whose parent is missing or on another url, and stores nothing', async () => {
    const other = (await post({ comment: 'elsewhere', url: '/other' })).body.data;
    const before = (await api.call({ path: '/api/comment', query: 'type=count' })).body.data;

    const missing = await post({
      comment: 'orphan',
      url: '/lonely',
      pid: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      rid: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
    });
    const crossUrl = await post({
      comment: 'cross',
      url: '/lonely',
      pid: other.objectId,
      rid: other.objectId,
    });

    for (const response of [missing, crossUrl]) {
      expect(response.status).toBe(400);
      expect(response.body.errno).toBe(1001);
      expect(response.body.errmsg).toMatch(/^pid: /);
    }
    expect((await api.call({ path: '/api/comment', query: 'type=count' })).body.data).toBe(before);
    expect((await list('path=%2Flonely')).body.data.count).toBe(0);
  });

  it('refuses the same content twice on a url with 409, in the caller language', async () => {
    const content = { comment: 'same words', nick: 'D', mail: 'd@example.com', url: '/dup' };
    expect((await post(content)).status).toBe(200);

    const english = await post(content, 'lang=en');
    const chinese = await post(content, 'lang=zh-CN');

    expect(english).toMatchObject({ status: 409, body: { errno: 1000, errmsg: 'Duplicate Content' } });
    expect(chinese).toMatchObject({ status: 409, body: { errno: 1000, errmsg: '发送的内容之前已经发过' } });
    expect((await list('path=%2Fdup')).body.data.count).toBe(1);
  });

  it('names the field and the rule when input is invalid, and stores nothing', async () => {
    const blank = await post({ comment: '   ', url: '/bad' });
    const noUrl = await post({ comment: 'x' }, 'lang=zh-CN');
    const badLink = await post({ comment: 'x', url: '/bad', link: 'javascript:alert(1)' });
    const pageSize = await list('path=%2Fbad&pageSize=101');
    const sortBy = await list('path=%2Fbad&sortBy=random');

    expect(blank).toMatchObject({
      status: 400,
      body: { errno: 1001, details: { comment: 'must not be blank' } },
    });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.errmsg).toMatch(/^输入无效：url: /);
    expect(badLink.body.details).toEqual({ link: 'must be an http(s) address' });
    expect(pageSize.body.errmsg).toMatch(/pageSize: .*100/);
    expect(sortBy.body.errmsg).toMatch(/sortBy: .*insertedAt_desc.*insertedAt_asc.*like_desc/);
    expect((await list('path=%2Fbad')).body.data.count).toBe(0);
  });

  it('counts a like once per voter and never goes below zero on unlike', async () => {
    const target = (await post({ comment: 'likeable', url: '/likes' })).body.data;
    const vote = (like: unknown, sourceIp: string) =>
      api.call({
        method: 'PUT',
        path: `/api/comment/${target.objectId}`,
        body: { like },
        sourceIp,
        headers: { authorization: 'Bearer undefined' },
      });
    const likes = async () => (await list('path=%2Flikes')).body.data.data[0].like;

    expect((await vote(true, '192.0.2.10')).status).toBe(200);
    await vote(true, '192.0.2.10');
    expect(await likes()).toBe(1);
    await vote(true, '192.0.2.11');
    expect(await likes()).toBe(2);
    await vote(false, '192.0.2.12');
    expect(await likes()).toBe(2);
    await vote(false, '192.0.2.10');
    await vote(false, '192.0.2.10');
    await vote(false, '192.0.2.11');
    expect(await likes()).toBe(0);

    expect((await vote('true', '192.0.2.10')).status).toBe(401);
    const missing = await api.call({
      method: 'PUT',
      path: '/api/comment/01ARZ3NDEKTSV4RRFFQ69G5FAV',
      body: { like: true },
    });
    expect(missing).toMatchObject({ status: 404, body: { errno: 404 } });
  });

  it('sorts roots by likes when asked for like_desc', async () => {
    const a = (await post({ comment: 'a', url: '/hot' })).body.data;
    const b = (await post({ comment: 'b', url: '/hot' })).body.data;
    await api.call({ method: 'PUT', path: `/api/comment/${a.objectId}`, body: { like: true } });

    const hottest = await list('path=%2Fhot&sortBy=like_desc');
    const latest = await list('path=%2Fhot');

    expect(hottest.body.data.data.map((c: { objectId: string }) => c.objectId)).toEqual([
      a.objectId,
      b.objectId,
    ]);
    expect(latest.body.data.data.map((c: { objectId: string }) => c.objectId)).toEqual([
      b.objectId,
      a.objectId,
    ]);
  });

  it('returns recent comments site-wide, newest first, flat, with url', async () => {
    await post({ comment: 'the one before', url: '/recent' });
    const last = (await post({ comment: 'the newest', url: '/recent' })).body.data;

    const { body } = await api.call({ path: '/api/comment', query: 'type=recent&count=2' });

    expect(body.data).toHaveLength(2);
    expect(body.data[0]).toMatchObject({
      objectId: last.objectId,
      url: '/recent',
      comment: '<p>the newest</p>\n',
    });
    expect(body.data[1]).toMatchObject({ url: '/recent', comment: '<p>the one before</p>\n' });
    expect(body.data[0]).not.toHaveProperty('mail');
    expect(body.data[0].time).toBeGreaterThanOrEqual(body.data[1].time);
  });

  it('counts urls aligned with the request, and the site when url is absent or empty', async () => {
    const siteCount = async () => (await api.call({ path: '/api/comment', query: 'type=count' })).body.data;
    const before = await siteCount();
    const root = (await post({ comment: 'counted root', url: '/counted-three' })).body.data;
    for (const comment of ['counted reply', 'counted reply again']) {
      await post({ comment, url: '/counted-three', pid: root.objectId, rid: root.objectId });
    }
    await post({ comment: 'counted alone', url: '/counted-one' });

    const site = await siteCount();
    const several = await api.call({
      path: '/api/comment',
      query: 'type=count&url=%2Fcounted-three,%2Fnowhere&url=%2Fcounted-one',
    });
    const empty = await api.call({ path: '/api/comment', query: 'type=count&url=' });

    expect(several.body.data).toEqual([3, 0, 1]);
    expect(empty.body.data).toBe(site);
    // Other tests of the file post to the same table: the site count grew by this test's four.
    expect(site).toBe(before + 4);
  });

  it('answers the legacy routes with the v2 shapes', async () => {
    const root = (await post({ comment: 'legacy root', nick: 'L', url: '/legacy' }, '', '/comment')).body;
    const reply = (
      await post(
        {
          comment: 'legacy reply',
          url: '/legacy',
          pid: root.data.objectId,
          rid: root.data.objectId,
          at: 'L',
        },
        '',
        '/comment',
      )
    ).body;

    expect(root.errno).toBe(0);
    expect(typeof root.data.insertedAt).toBe('string');
    expect(reply.data.orig).toBe(`[@L](#${root.data.objectId}): legacy reply`);
    const listing = (await api.call({ path: '/comment', query: 'path=%2Flegacy' })).body;
    expect(listing).toMatchObject({ page: 1, totalPages: 1, count: 2 });
    expect(listing.data[0].insertedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await api.call({ path: '/comment', query: 'type=count&url=%2Flegacy' })).body).toBe(2);
    expect((await api.call({ path: '/comment', query: 'type=count&url=%2Flegacy,%2Fx' })).body).toEqual([
      2, 0,
    ]);
    // Bare, one comment (the newest of the site: other tests may post here too), with its url.
    const recent = (await api.call({ path: '/comment', query: 'type=recent&count=1' })).body;
    expect(recent).toEqual([
      expect.objectContaining({
        objectId: expect.any(String),
        url: expect.any(String),
        orig: expect.any(String),
      }),
    ]);
  });

  it('answers a route asked with a trailing slash (API Gateway sends it to $default) as that route', async () => {
    expect(await api.call({ path: '/api/comment/', query: 'type=count&url=/nowhere' })).toMatchObject({
      status: 200,
      body: { errno: 0, data: [0] },
    });
    const legacy = await api.call({ path: '/comment/', query: 'type=count&url=/nowhere' });

    expect(legacy.status).toBe(200);
    expect(legacy.body).not.toHaveProperty('errno');
  });

  it('answers unknown routes with a JSON 404 and wrong methods with a 405', async () => {
    expect(await api.call({ path: '/api/nothing' })).toMatchObject({
      status: 404,
      body: { errno: 404, errmsg: 'url `/api/nothing` not found.' },
    });
    expect((await api.call({ method: 'PATCH', path: '/api/comment' })).status).toBe(405);
    expect((await api.call({ method: 'PATCH', path: '/api/comment/' })).status).toBe(405);
    expect((await api.call({ method: 'PATCH', path: '/api/article' })).status).toBe(405);
    expect((await api.call({ path: '/api/comment/x/y' })).status).toBe(404);
    expect(
      (await api.call({ method: 'DELETE', path: '/api/comment/01ARZ3NDEKTSV4RRFFQ69G5FAV' })).status,
    ).toBe(401);
  });
});
