import { allRouteKeys } from '../../../../../functions/api-routes.js';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createArticleHandler } from '../../../../../functions/article/article-handler.js';
import { createCommentHandler } from '../../../../../functions/comment/comment-handler.js';
import { limits } from '../../../../../functions/shared/domain/limits.js';
import { createArticleDependencies } from '../../../../../functions/article/dependencies.js';
import { createCommentDependencies } from '../../../../../functions/comment/dependencies.js';
import { buildEvent, type EventSpec, testContext } from '../../../../support/http-event.js';
import { testConfig } from '../../../../support/test-config.js';

const ddb = mockClient(DynamoDBDocumentClient);

const callWith = async (env: Record<string, string>, spec: EventSpec) => {
  const handler = createCommentHandler(createCommentDependencies(testConfig(env)), allRouteKeys);
  const response = await handler(buildEvent(spec), testContext);
  return { ...response, json: response.body ? JSON.parse(response.body) : undefined };
};
const call = (spec: EventSpec) => callWith({}, spec);

describe('the HTTP layer of a function', () => {
  beforeEach(() => ddb.reset());
  afterEach(() => vi.restoreAllMocks());

  it('answers a preflight with the allowed methods and the requested headers echoed', async () => {
    const response = await call({
      method: 'OPTIONS',
      path: '/api/comment',
      headers: {
        origin: 'https://blog.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });

    expect(response.statusCode).toBe(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET,HEAD,PUT,POST,DELETE,PATCH',
      'access-control-allow-headers': 'content-type,authorization',
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('allows only the configured origins when ALLOWED_ORIGINS is set', async () => {
    ddb.on(GetCommand).resolves({});
    ddb.on(QueryCommand).resolves({ Items: [] });
    const env = { ALLOWED_ORIGINS: 'https://blog.example, https://docs.example/' };

    const allowed = await callWith(env, {
      path: '/api/comment',
      query: 'path=%2F',
      headers: { origin: 'https://docs.example' },
    });
    const refused = await callWith(env, {
      path: '/api/comment',
      query: 'path=%2F',
      headers: { origin: 'https://evil.example' },
    });

    expect(allowed.headers['access-control-allow-origin']).toBe('https://docs.example');
    expect(refused.headers).not.toHaveProperty('access-control-allow-origin');
    expect(refused.headers.vary).toBe('Origin');
  });

  it('puts CORS headers on errors too', async () => {
    const response = await call({ path: '/api/comment', headers: { origin: 'https://blog.example' } });

    expect(response.statusCode).toBe(400);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('refuses a body over the limit with 413 before touching the table', async () => {
    const response = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'x'.repeat(limits.bodyBytes), url: '/p' },
    });

    expect(response.statusCode).toBe(413);
    expect(response.json).toEqual({
      errno: 1000,
      errmsg: `Request body is larger than ${limits.bodyBytes} bytes.`,
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('refuses a comment whose rendered HTML would not fit in one item with 413', async () => {
    // Each '&' is escaped to '&amp;' in the HTML: 64 KiB of text within every limit, 6 x 64 KiB once
    // rendered, past what one item holds.
    const comment = '&'.repeat(limits.commentChars);
    expect(6 * comment.length).toBeGreaterThan(limits.storedCommentBytes);
    ddb.on(BatchGetCommand).resolves({});

    const response = await call({ method: 'POST', path: '/api/comment', body: { comment, url: '/p' } });

    expect(response.statusCode).toBe(413);
    expect(response.json.errmsg).toMatch(/^comment: /);
    // Only the marks were read (before rendering); nothing was written.
    expect(ddb.calls().map((call) => call.args[0].constructor.name)).toEqual(['BatchGetCommand']);
  });

  it('refuses a comment longer than 64 KiB with a 400 naming comment, before rendering it', async () => {
    const response = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'x'.repeat(limits.commentChars + 1), url: '/p' },
    });

    expect(response.statusCode).toBe(400);
    expect(response.json.details).toHaveProperty('comment');
    expect(ddb.calls()).toHaveLength(0);
  });

  it('answers 503 naming npm run migrate, and logs no error, when the table is of the previous layout', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    ddb.on(GetCommand).resolves({});
    ddb.on(GetCommand, { Key: { pk: 'SITE', sk: 'SITE' } }).resolves({ Item: { pk: 'SITE', sk: 'SITE' } });
    ddb.on(QueryCommand).resolves({ Items: [] });

    const response = await call({ path: '/api/comment', query: 'path=%2Fp' });

    expect(response.statusCode).toBe(503);
    expect(response.json).toEqual({ errno: 503, errmsg: expect.stringContaining('npm run migrate') });
    expect(logged).not.toHaveBeenCalled();
  });

  it('refuses malformed JSON, a non-object body and a non-JSON content type with a 4xx', async () => {
    const malformed = await call({ method: 'POST', path: '/api/comment', body: '{"comment":' });
    const array = await call({ method: 'POST', path: '/api/comment', body: [1, 2] });
    const form = await call({
      method: 'POST',
      path: '/api/comment',
      body: 'comment=x&url=%2Fp',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

    expect(malformed).toMatchObject({
      statusCode: 400,
      json: { errno: 1001, errmsg: 'body: must be valid JSON.', details: { body: 'must be valid JSON' } },
    });
    expect(array).toMatchObject({ statusCode: 400, json: { errno: 1001 } });
    expect(array.json.errmsg).toMatch(/body: .*object/);
    expect(form.statusCode).toBe(415);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('reads a body of exactly the size limit, and refuses one byte more with 413', async () => {
    const sized = (bytes: number) => {
      const shell = JSON.stringify({ url: '/p', comment: '' });
      return JSON.stringify({ url: '/p', comment: 'x'.repeat(bytes - shell.length) });
    };
    expect(Buffer.byteLength(sized(limits.bodyBytes))).toBe(limits.bodyBytes);

    const atLimit = await call({ method: 'POST', path: '/api/comment', body: sized(limits.bodyBytes) });
    const over = await call({ method: 'POST', path: '/api/comment', body: sized(limits.bodyBytes + 1) });

    // Read and then refused for what it says (the comment is too long), not for its size.
    expect(atLimit).toMatchObject({ statusCode: 400, json: { errno: 1001 } });
    expect(atLimit.json.details).toHaveProperty('comment');
    expect(over.statusCode).toBe(413);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('decodes a base64 body before reading it, and sizes it by its decoded length', async () => {
    const body = { url: '/p', comment: '' };
    const decoded = await call({ method: 'POST', path: '/api/comment', body, base64: true });
    // Past the limit once decoded: 3/4 of the encoded length.
    const large = JSON.stringify({ url: '/p', comment: 'x'.repeat(limits.bodyBytes) });
    const oversized = await call({ method: 'POST', path: '/api/comment', body: large, base64: true });

    expect(decoded).toMatchObject({ statusCode: 400, json: { details: { comment: 'must not be blank' } } });
    expect(oversized.statusCode).toBe(413);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('sizes a base64 body by three quarters of its length: one that fits once decoded is read', async () => {
    // 200 kB decoded, 267 kB encoded: over the limit only if the encoded length counted.
    const body = JSON.stringify({ url: '/p', comment: 'x'.repeat(200 * 1024) });
    const answer = await call({ method: 'POST', path: '/api/comment', body, base64: true });

    expect(answer).toMatchObject({ statusCode: 400, json: { details: { comment: expect.any(String) } } });
  });

  it('answers a POST without a body as malformed JSON, naming the body', async () => {
    const answer = await call({ method: 'POST', path: '/api/comment', contentType: 'application/json' });

    expect(answer).toMatchObject({ statusCode: 400, json: { details: { body: 'must be valid JSON' } } });
  });

  it('names every bad field in one message, separated by semicolons', async () => {
    const answer = await call({ method: 'POST', path: '/api/comment', body: { url: 5, comment: 7 } });

    expect(answer.statusCode).toBe(400);
    expect(Object.keys(answer.json.details).sort()).toEqual(['comment', 'url']);
    expect(answer.json.errmsg).toBe(
      'Invalid input: comment: Invalid input: expected string, received number; ' +
        'url: Invalid input: expected string, received number',
    );
  });

  it('answers the routes without /api bare, and those with it in the envelope', async () => {
    ddb.on(GetCommand).resolves({ Item: { comments: 4 } });

    const legacy = await call({ path: '/comment', query: 'type=count' });
    const current = await call({ path: '/api/comment', query: 'type=count' });

    expect(legacy.json).toBe(4);
    expect(current.json).toEqual({ errno: 0, errmsg: '', data: 4 });
  });

  it('reads pageviews when a reading-count request names no type', async () => {
    ddb.on(BatchGetCommand).resolves({ Responses: {} });
    const article = createArticleHandler(createArticleDependencies(testConfig({})));

    const response = await article(buildEvent({ path: '/api/article', query: 'path=%2Fp' }), testContext);

    expect(JSON.parse(response.body ?? '')).toEqual({ errno: 0, errmsg: '', data: [{ time: 0 }] });
  });

  it('answers an event that carries no headers at all, as a direct invocation may send', async () => {
    ddb.on(GetCommand).resolves({ Item: { comments: 2 } });
    const handler = createCommentHandler(createCommentDependencies(testConfig({})), allRouteKeys);
    const event = { ...buildEvent({ path: '/api/comment', query: 'type=count' }), headers: undefined };

    const response = await handler(event as unknown as Parameters<typeof handler>[0], testContext);

    expect([response.statusCode, JSON.parse(response.body ?? '')]).toEqual([
      200,
      { errno: 0, errmsg: '', data: 2 },
    ]);
  });

  it('hides the cause of an unexpected failure behind a generic 500', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    ddb.on(GetCommand).resolves({});
    ddb.on(QueryCommand).rejects(new Error('secret table detail'));

    const response = await call({ path: '/api/comment', query: 'path=%2Fp&lang=zh-CN' });

    expect(response.statusCode).toBe(500);
    expect(response.json).toEqual({ errno: 500, errmsg: '服务器内部错误。' });
    expect(response.body).not.toContain('secret');
  });

  it('logs the stack of an unexpected failure, and still answers 500 when the thrown value has a strange stack', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    ddb.on(GetCommand).resolves({});
    ddb.on(QueryCommand).rejects(new Error('table detail'));
    expect((await call({ path: '/api/comment', query: 'path=%2Fp' })).statusCode).toBe(500);
    expect(String(logged.mock.calls[0]?.[0])).toMatch(/"level":"error".*Error: table detail\\n +at /);

    ddb.on(QueryCommand).rejects({ stack: { not: 'a string' } } as unknown as Error);
    const strange = await call({ path: '/api/comment', query: 'path=%2Fother' });
    expect(strange.statusCode).toBe(500);
    expect(strange.json).toEqual({ errno: 500, errmsg: 'Internal server error.' });
    expect(logged).toHaveBeenCalledTimes(2);
  });

  it('logs each failure as one JSON line carrying the request id of its invocation', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    ddb.on(GetCommand).resolves({});
    ddb.on(QueryCommand).rejects(new Error('table detail'));
    const handler = createCommentHandler(createCommentDependencies(testConfig({})), allRouteKeys);
    const event = buildEvent({ path: '/api/comment', query: 'path=%2Fp' });

    await handler(event, { ...testContext, awsRequestId: 'first-request' });
    await handler(event, { ...testContext, awsRequestId: 'second-request' });

    expect(logged.mock.calls.map(([line]) => JSON.parse(String(line)))).toEqual([
      expect.objectContaining({ level: 'error', message: 'request failed', requestId: 'first-request' }),
      expect.objectContaining({ level: 'error', message: 'request failed', requestId: 'second-request' }),
    ]);
  });

  it('treats an edit from an anonymous visitor as unauthorised, even with Bearer undefined', async () => {
    const response = await call({
      method: 'PUT',
      path: '/api/comment/01ARZ3NDEKTSV4RRFFQ69G5FAV',
      body: { like: true, comment: 'edited' },
      headers: { authorization: 'Bearer undefined' },
    });

    expect(response.statusCode).toBe(401);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('refuses a comment id that is not letters and digits with a 400 naming id', async () => {
    const response = await call({ method: 'PUT', path: '/api/comment/a%20b', body: { like: true } });

    expect(response.statusCode).toBe(400);
    expect(response.json.details).toHaveProperty('id');
  });

  it("words a broken rule in the request's language", async () => {
    const english = await call({ path: '/api/comment', query: 'path=%2Fp&pageSize=500' });
    const chinese = await call({ path: '/api/comment', query: 'path=%2Fp&pageSize=500&lang=zh-CN' });

    expect(english.statusCode).toBe(400);
    expect(english.json.details).toEqual({ pageSize: 'Too big: expected number to be <=100' });
    expect(chinese.statusCode).toBe(400);
    expect(chinese.json.details).toEqual({ pageSize: '数值过大：期望 number <=100' });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('refuses a list with path given twice, or an unknown sortBy, with a 400 naming the field, in either language', async () => {
    const twice = await call({ path: '/api/comment', query: 'path=%2Fa&path=%2Fb' });
    const twiceZh = await call({ path: '/comment', query: 'path=%2Fa&path=%2Fa&lang=zh-CN' });
    const sortBy = await call({ path: '/api/comment', query: 'path=%2Fa&sortBy=random' });
    const sortByZh = await call({ path: '/api/comment', query: 'path=%2Fa&sortBy=random&lang=zh-CN' });

    expect(twice).toMatchObject({
      statusCode: 400,
      json: {
        errno: 1001,
        errmsg: 'path: give it once; it was given 2 times.',
        details: { path: 'must be given once' },
      },
    });
    expect(twiceZh.json.errmsg).toBe('path：只能提供一次，实际提供了 2 次。');
    const allowed = /sortBy: .*"insertedAt_desc"\|"insertedAt_asc"\|"like_desc"\|"create_time"/;
    expect(sortBy.statusCode).toBe(400);
    expect(sortBy.json.errmsg).toMatch(allowed);
    expect(sortByZh.json.errmsg).toMatch(/^输入无效：sortBy: .*"insertedAt_desc"/);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('refuses a url longer than a partition key allows in UTF-8 bytes with a 400 naming it', async () => {
    const wide = `/${'中'.repeat(600)}`;

    const post = await call({ method: 'POST', path: '/api/comment', body: { comment: 'x', url: wide } });
    const count = await call({ path: '/api/comment', query: `type=count&url=${encodeURIComponent(wide)}` });
    const list = await call({ path: '/api/comment', query: `path=${encodeURIComponent(wide)}` });

    expect(post.statusCode).toBe(400);
    expect(post.json.details.url).toMatch(/bytes/);
    expect(count.json.details).toHaveProperty(['url.0']);
    expect(list.json.details).toHaveProperty('path');
    expect(ddb.calls()).toHaveLength(0);
  });

  it('refuses control characters that would hide a javascript: link', async () => {
    const response = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'x', url: '/p', link: 'java\tscript:alert(1)' },
    });
    const leading = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'x', url: '/p', link: '\u0001javascript:alert(1)' },
    });

    expect(response.statusCode).toBe(400);
    expect(response.json.details.link).toBe('must not contain control characters');
    expect(leading.statusCode).toBe(400);
    expect(ddb.calls()).toHaveLength(0);
  });
});
