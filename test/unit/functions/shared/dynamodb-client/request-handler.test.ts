import { afterEach, describe, expect, it } from 'vitest';
import {
  createRequestHandler,
  type RequestHandler,
  type SignedRequest,
} from '../../../../../functions/shared/dynamodb-client/request-handler.js';
import { type RecordingServer, startRecordingServer } from '../../../../support/recording-server.js';

/** A request to `endpoint` as the SDK hands it over, signed. */
function requestTo(endpoint: string, extra: Partial<SignedRequest> = {}): SignedRequest {
  const url = new URL(endpoint);
  return {
    method: 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    port: Number(url.port),
    path: '/',
    headers: { host: url.host, 'content-type': 'application/x-amz-json-1.0' },
    body: '{"TableName":"t"}',
    ...extra,
  };
}

describe('createRequestHandler', () => {
  let server: RecordingServer | undefined;
  let handler: RequestHandler | undefined;
  afterEach(async () => {
    handler?.destroy();
    await server?.close();
    server = handler = undefined;
  });

  it('sends the request as given and hands back the whole answer as bytes', async () => {
    server = await startRecordingServer(() => ({
      status: 200,
      headers: { 'set-cookie': ['a=1', 'b=2'] },
      body: '{"Item":{}}',
    }));
    handler = createRequestHandler();

    const { response } = await handler.handle(
      requestTo(server.endpoint, { query: { b: ['2', '1'], 'a b': "it's", flag: null } }),
    );

    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/?b=2&b=1&a%20b=it%27s&flag',
      body: '{"TableName":"t"}',
    });
    expect(server.requests[0]!.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBe('a=1,b=2');
    expect(response.headers['x-amzn-requestid']).toBe('request-1');
    expect(Buffer.isBuffer(response.body)).toBe(true);
    expect(response.body.toString()).toBe('{"Item":{}}');
  });

  it('fails a request over its timeout with a TimeoutError the SDK retries, the call option first', async () => {
    server = await startRecordingServer(() => undefined);
    handler = createRequestHandler({ connectMs: 1000, requestMs: 5000 });
    const started = Date.now();

    await expect(handler.handle(requestTo(server.endpoint), { requestTimeout: 100 })).rejects.toMatchObject({
      name: 'TimeoutError',
      code: 'ETIMEDOUT',
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reports a dropped connection as a TimeoutError, as the SDK handler does', async () => {
    server = await startRecordingServer(() => 'reset');
    handler = createRequestHandler();

    await expect(handler.handle(requestTo(server.endpoint))).rejects.toMatchObject({
      name: 'TimeoutError',
      code: 'ECONNRESET',
    });
  });

  it('sends nothing when the signal has already aborted', async () => {
    server = await startRecordingServer();
    handler = createRequestHandler();
    const abort = new AbortController();
    abort.abort();

    await expect(
      handler.handle(requestTo(server.endpoint), { abortSignal: abort.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('stops a request when an SDK abort signal without addEventListener fires', async () => {
    server = await startRecordingServer(() => undefined);
    handler = createRequestHandler();
    const signal: { aborted: boolean; onabort?: () => void } = { aborted: false };
    setTimeout(() => signal.onabort?.(), 50);

    await expect(handler.handle(requestTo(server.endpoint), { abortSignal: signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
