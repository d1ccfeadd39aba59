import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalHttpServer, startLocalHttpServer } from '../support/local-http-server.js';
import { createTestTable, type TestTable } from '../support/test-table.js';

describe('the API over HTTP, as the widget reaches it', () => {
  let table: TestTable;
  let server: LocalHttpServer;
  let base: string;

  beforeAll(async () => {
    table = await createTestTable();
    server = await startLocalHttpServer(table, { IPQPS: '0' });
    ({ base } = server);
  });
  afterAll(async () => {
    await server.close();
    await table.drop();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON the server sends
  type Json = any;
  const json = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${base}${path}`, init);
    return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
  };
  const send = (method: string, path: string, body: unknown) =>
    json(path, {
      method,
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer undefined',
        origin: 'https://blog.example',
      },
      body: JSON.stringify(body),
    });

  it('shows an empty article without error', async () => {
    const { status, body, headers } = await json(
      '/api/comment?path=%2Fe2e-empty&pageSize=10&page=1&lang=en-US&sortBy=insertedAt_desc',
    );

    expect(status).toBe(200);
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(body).toEqual({
      errno: 0,
      errmsg: '',
      data: { page: 1, totalPages: 0, pageSize: 10, count: 0, data: [] },
    });
  });

  it('posts a comment, a reply and a like, and lists them threaded, counted and liked', async () => {
    const root = (
      await send('POST', '/api/comment?lang=en-US', {
        comment: 'first!',
        url: '/e2e',
        nick: 'Ann',
        mail: '',
        link: '',
      })
    ).body.data;
    const reply = await send('POST', '/api/comment?lang=en-US', {
      comment: 'welcome',
      url: '/e2e',
      nick: 'Bob',
      pid: root.objectId,
      rid: root.objectId,
      at: 'Ann',
    });
    expect(reply.status).toBe(200);
    const like = await send('PUT', `/api/comment/${root.objectId}?lang=en-US`, { like: true });

    expect(like.status).toBe(200);
    const listing = (await json('/api/comment?path=%2Fe2e')).body.data;
    expect(listing).toMatchObject({ count: 2, totalPages: 1 });
    expect(listing.data[0]).toMatchObject({ objectId: root.objectId, like: 1 });
    expect(listing.data[0]).not.toHaveProperty('rid');
    expect(listing.data[0].children).toMatchObject([
      {
        objectId: reply.body.data.objectId,
        pid: root.objectId,
        rid: root.objectId,
        reply_user: { nick: 'Ann' },
      },
    ]);
    expect((await json('/api/comment?type=count&url=%2Fe2e')).body.data).toEqual([2]);
  });

  it('counts pageviews and reactions and reads them back', async () => {
    await send('POST', '/api/article?lang=en-US', { path: '/e2e-counted', type: 'time', action: 'inc' });
    await send('POST', '/api/article?lang=en-US', { path: '/e2e-counted', type: 'reaction3' });

    const { body } = await json('/api/article?path=%2Fe2e-counted&type=time%2Creaction3');

    expect(body.data).toEqual([{ time: 1, reaction3: 1 }]);
  });

  it('answers the legacy v2 routes without the envelope', async () => {
    for (const comment of ['one', 'two']) {
      expect((await send('POST', '/api/comment', { comment, url: '/e2e-legacy', nick: 'Lee' })).status).toBe(
        200,
      );
    }
    await send('POST', '/api/article', { path: '/e2e-legacy', type: 'time' });

    expect((await json('/comment?type=count&url=%2Fe2e-legacy')).body).toBe(2);
    expect((await json('/article?path=%2Fe2e-legacy')).body).toBe(1);
  });

  it('answers a CORS preflight and an unknown route', async () => {
    const preflight = await fetch(`${base}/api/comment`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://blog.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');

    expect(await json('/api/nothing')).toMatchObject({ status: 404, body: { errno: 404 } });
  });
});
