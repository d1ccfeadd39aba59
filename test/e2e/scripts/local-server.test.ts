import { readFile } from 'node:fs/promises';
import { request as httpRequest, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpEvent, HttpHandler, HttpResult } from '../../../functions/shared/http/http-types.js';
import { createLocalServer } from '../../../scripts/local-server.js';

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

const cannedComment: HttpResult = {
  statusCode: 200,
  headers: { 'content-type': 'application/json', 'x-from': 'comment' },
  body: '{"errno":0,"data":"comment"}',
};
const cannedArticle: HttpResult = {
  statusCode: 200,
  headers: { 'content-type': 'application/json', 'x-from': 'article' },
  body: '{"errno":0,"data":"article"}',
};

describe('createLocalServer', () => {
  const comment = vi.fn<HttpHandler>();
  const article = vi.fn<HttpHandler>();
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createLocalServer({ comment, article });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
  });

  beforeEach(() => {
    comment.mockReset().mockResolvedValue(cannedComment);
    article.mockReset().mockResolvedValue(cannedArticle);
  });

  /** Sends one request with node:http, so headers and the request target go out exactly as written. */
  function send(
    method: string,
    path: string,
    options: { headers?: OutgoingHttpHeaders; body?: string | Buffer } = {},
  ): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        { host: '127.0.0.1', port, method, path, headers: options.headers, agent: false },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () =>
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(options.body);
    });
  }

  function eventOf(handler: typeof comment): HttpEvent {
    const event = handler.mock.calls[0]?.[0];
    if (!event) throw new Error('the handler was not called');
    return event;
  }

  it('builds a payload 2.0 event and writes the result back when a route with {id} matches', async () => {
    const reply = await send('PUT', '/api/comment/abc%20d?path=%2Fa%2Cb&url=x&url=y', {
      headers: {
        'Content-Type': 'application/json',
        'X-Repeated': ['one', 'two'],
        'User-Agent': 'test-agent/1.0',
        Cookie: 'a=1; b=2',
      },
      body: '{"like":true}',
    });

    expect(reply.status).toBe(200);
    expect(reply.headers['x-from']).toBe('comment');
    expect(reply.body).toBe(cannedComment.body);
    expect(article).not.toHaveBeenCalled();
    const event = eventOf(comment);
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'PUT /api/comment/{id}',
      rawPath: '/api/comment/abc%20d',
      rawQueryString: 'path=%2Fa%2Cb&url=x&url=y',
      pathParameters: { id: 'abc d' },
      queryStringParameters: { path: '/a,b', url: 'x,y' },
      cookies: ['a=1', 'b=2'],
      body: '{"like":true}',
      isBase64Encoded: false,
    });
    expect(event.headers).toMatchObject({
      'content-type': 'application/json',
      'x-repeated': 'one,two',
      'user-agent': 'test-agent/1.0',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
    });
    expect(event.headers.cookie).toBeUndefined();
    expect(Object.keys(event.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(event.requestContext).toMatchObject({
      accountId: 'local',
      apiId: 'local',
      routeKey: 'PUT /api/comment/{id}',
      stage: '$default',
      http: {
        method: 'PUT',
        path: '/api/comment/abc%20d',
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'test-agent/1.0',
      },
    });
    expect(event.requestContext.requestId).not.toBe('');
    expect(Math.abs(event.requestContext.timeEpoch - Date.now())).toBeLessThan(10_000);
    expect(event.requestContext.time).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
    const context = comment.mock.calls[0]?.[1];
    expect(context?.functionName).toContain('comment');
    expect(context?.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });

  it('keeps a header or query key named constructor or __proto__ as it came, when a client sends one', async () => {
    await send('GET', '/api/comment?constructor=c&__proto__=p&path=%2F', {
      headers: { constructor: 'h', ['__proto__']: 'q' },
    });

    const { headers, queryStringParameters } = eventOf(comment);
    const own = (object: object | undefined, name: string) =>
      object && Object.getOwnPropertyDescriptor(object, name)?.value;
    expect([own(queryStringParameters, 'constructor'), own(queryStringParameters, '__proto__')]).toEqual([
      'c',
      'p',
    ]);
    expect([own(headers, 'constructor'), own(headers, '__proto__')]).toEqual(['h', 'q']);
    expect(queryStringParameters?.path).toBe('/');
  });

  it('base64-encodes the body when the content type is binary', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);

    await send('POST', '/api/comment', {
      headers: { 'Content-Type': 'application/octet-stream' },
      body: bytes,
    });

    const event = eventOf(comment);
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body ?? '', 'base64')).toEqual(bytes);
  });

  it('sends the legacy path to the comment function when the request is GET /comment', async () => {
    await send('GET', '/comment?path=%2F');

    const event = eventOf(comment);
    expect(event.routeKey).toBe('GET /comment');
    expect(event.pathParameters).toBeUndefined();
    expect(event.body).toBeUndefined();
    expect(article).not.toHaveBeenCalled();
  });

  it('sends the request to the article function when the path is /article', async () => {
    const reply = await send('POST', '/article', {
      headers: { 'Content-Type': 'application/json' },
      body: '{"path":"/"}',
    });

    expect(reply.headers['x-from']).toBe('article');
    expect(eventOf(article).routeKey).toBe('POST /article');
    expect(comment).not.toHaveBeenCalled();
  });

  it('sends the request to the comment function as $default when the path is unknown', async () => {
    await send('GET', '/nope?x=1');

    const event = eventOf(comment);
    expect(event.routeKey).toBe('$default');
    expect(event.requestContext.routeKey).toBe('$default');
    expect(event.rawPath).toBe('/nope');
  });

  it('sends a preflight to the comment function as $default when the method is OPTIONS', async () => {
    await send('OPTIONS', '/api/comment', {
      headers: { Origin: 'https://blog.example', 'Access-Control-Request-Method': 'POST' },
    });

    const event = eventOf(comment);
    expect(event.routeKey).toBe('$default');
    expect(event.requestContext.http.method).toBe('OPTIONS');
    expect(event.headers.origin).toBe('https://blog.example');
  });

  it('answers 421 without calling a handler when the Host is not a loopback name (DNS rebinding)', async () => {
    const rebound = await send('POST', '/api/comment', {
      headers: { Host: 'attacker.example:8360', 'Content-Type': 'application/json' },
      body: '{}',
    });
    const named = await send('GET', '/api/comment?type=count', { headers: { Host: `localhost:${port}` } });

    expect(rebound.status).toBe(421);
    expect(comment).toHaveBeenCalledTimes(1);
    expect(named.status).toBe(200);
  });

  it('answers 413 without calling a handler when the declared body is larger than 1 MiB', async () => {
    const reply = await send('POST', '/api/comment', {
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.alloc(1024 * 1024 + 1, 'a'),
    });

    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toEqual({ errno: 1000, errmsg: 'Request body is too large.' });
    expect(comment).not.toHaveBeenCalled();
  });

  it('answers 413 without calling a handler when a chunked body grows past the limit', async () => {
    const reply = await new Promise<Reply>((resolve, reject) => {
      const outgoing = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/comment', agent: false },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () =>
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              body: Buffer.concat(chunks).toString(),
            }),
          );
        },
      );
      outgoing.on('error', reject);
      for (let index = 0; index < 20; index++) outgoing.write(Buffer.alloc(64 * 1024, 'b'));
      outgoing.end();
    });

    expect(reply.status).toBe(413);
    expect(comment).not.toHaveBeenCalled();
  });

  it('passes the body when it is exactly at the limit', async () => {
    await send('POST', '/api/comment', {
      headers: { 'Content-Type': 'text/plain' },
      body: Buffer.alloc(1024 * 1024, 'c'),
    });

    expect(eventOf(comment).body).toHaveLength(1024 * 1024);
  });

  it('answers a bland 500 JSON and logs the error when the handler throws', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    comment.mockRejectedValueOnce(new Error('secret table name in a stack trace'));

    const reply = await send('GET', '/api/comment?path=%2F');

    expect(reply.status).toBe(500);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(reply.body)).toEqual({ errno: 500, errmsg: 'Internal server error.' });
    expect(reply.body).not.toContain('secret');
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it('serves the v3 demo page with its policy, without calling a handler, when the request is GET /', async () => {
    const reply = await send('GET', '/');

    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
    expect(reply.body).toContain('<div id="waline"></div>');
    expect(reply.body).toContain('/vendor/waline-v3/waline.css');
    expect(reply.body).toContain('src="/demo/demo-v3.js"');
    expect(reply.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    expect(comment).not.toHaveBeenCalled();
    expect(article).not.toHaveBeenCalled();
  });

  it('serves the v2 demo page at /v2/ and redirects /v2 there', async () => {
    const page = await send('GET', '/v2/');
    const redirect = await send('GET', '/v2');

    expect(page.status).toBe(200);
    expect(page.body).toContain('src="/vendor/waline-v2/waline.js"');
    expect(redirect.status).toBe(308);
    expect(redirect.headers.location).toBe('/v2/');
    expect(comment).not.toHaveBeenCalled();
  });

  it('serves both clients and the demo assets from node_modules and scripts/demo with their content types', async () => {
    const cases = [
      [
        '/vendor/waline-v3/waline.js',
        'text/javascript; charset=utf-8',
        'node_modules/@waline/client/dist/waline.js',
      ],
      [
        '/vendor/waline-v3/waline.css',
        'text/css; charset=utf-8',
        'node_modules/@waline/client/dist/waline.css',
      ],
      [
        '/vendor/waline-v2/waline.js',
        'text/javascript; charset=utf-8',
        'node_modules/waline-client-v2/dist/waline.js',
      ],
      ['/demo/demo.js', 'text/javascript; charset=utf-8', 'scripts/demo/demo.js'],
      ['/demo/reaction-like.svg', 'image/svg+xml', 'scripts/demo/reaction-like.svg'],
    ] as const;

    for (const [path, type, file] of cases) {
      const reply = await send('GET', path);
      expect(reply.status, path).toBe(200);
      expect(reply.headers['content-type'], path).toBe(type);
      expect(reply.headers['x-content-type-options'], path).toBe('nosniff');
      expect(reply.body, path).toBe(await readFile(file, 'utf8'));
    }
    expect(comment).not.toHaveBeenCalled();
  });

  it('answers HEAD with the headers and no body when the path is a site file', async () => {
    const reply = await send('HEAD', '/vendor/waline-v3/waline.css');

    expect(reply.status).toBe(200);
    expect(Number(reply.headers['content-length'])).toBeGreaterThan(1000);
    expect(reply.body).toBe('');
  });

  it('draws an identicon when the path is /avatar/<md5>.svg', async () => {
    const reply = await send('GET', '/avatar/d41d8cd98f00b204e9800998ecf8427e.svg');

    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('image/svg+xml');
    expect(reply.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(comment).not.toHaveBeenCalled();
  });

  it('hands every other path to $default when it is not a listed site file', async () => {
    const paths = [
      '/vendor/waline-v3/../../../package.json',
      '/vendor/waline-v3/%2e%2e/package.json',
      '/vendor/waline-v3/..%2fpackage.json',
      '/vendor/waline-v3/',
      '/vendor/waline-v2/waline.d.ts',
      '/demo/../local-server.ts',
      '/demo//demo.js',
      '/demo/demo.js/',
      '/avatar/not-a-hash.svg',
      '/index.html',
    ];

    for (const path of paths) await send('GET', path);

    expect(comment.mock.calls.map(([event]) => [event.rawPath, event.routeKey])).toEqual(
      paths.map((path) => [path, '$default']),
    );
  });

  it('leaves the API to the functions when a route matches or the method is not GET', async () => {
    await send('POST', '/');
    await send('GET', '/api/comment?path=%2F');

    expect(comment.mock.calls.map(([event]) => event.routeKey)).toEqual(['$default', 'GET /api/comment']);
  });
});
