import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { createArticleDependencies } from '../../../../../functions/article/dependencies.js';
import { createDocumentClient } from '../../../../../functions/shared/storage/client.js';
import { testConfig } from '../../../../support/test-config.js';

/** An HTTP server on 127.0.0.1 that reads every request and never answers one: a stalled DynamoDB. */
async function startStalledServer() {
  let requests = 0;
  const server: Server = createServer(() => {
    requests++;
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

describe('createDocumentClient', () => {
  let stalled: Awaited<ReturnType<typeof startStalledServer>> | undefined;
  afterEach(async () => {
    await stalled?.close();
    stalled = undefined;
  });

  it('leaves out the logger middleware, which copies every item for a logger nobody set', () => {
    const client = createDocumentClient({ endpoint: 'http://127.0.0.1:8000' });
    const middleware = client.middlewareStack.identify().join('\n');

    expect(middleware).not.toContain('loggerMiddleware');
    // Everything a request needs is still there.
    expect(middleware).toContain('httpSigningMiddleware');
    expect(middleware).toContain('retryMiddleware');
    expect(middleware).toContain('deserializerMiddleware');
    client.destroy();
  });

  it('fails a stalled request after its timeout, three attempts in all, instead of waiting for the socket', async () => {
    stalled = await startStalledServer();
    const client = createDocumentClient({
      endpoint: stalled.endpoint,
      timeouts: { connectMs: 100, requestMs: 200 },
    });
    const started = Date.now();

    await expect(
      client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } })),
    ).rejects.toMatchObject({ name: 'TimeoutError' });

    expect(stalled.requests()).toBe(3);
    expect(Date.now() - started).toBeLessThan(3000);
    client.destroy();
  });
});

describe("the functions' client", () => {
  let stalled: Awaited<ReturnType<typeof startStalledServer>> | undefined;
  afterEach(async () => {
    await stalled?.close();
    stalled = undefined;
  });

  it('gives the functions a client with the configured DynamoDB timeouts', async () => {
    stalled = await startStalledServer();
    const services = createArticleDependencies(
      testConfig({ DYNAMODB_ENDPOINT: stalled.endpoint, DYNAMODB_REQUEST_TIMEOUT_MS: '150' }),
    );

    await expect(services.counters.increment('/p', 'time')).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(stalled.requests()).toBe(3);
  });

  it('keeps three attempts of the default timeouts inside the functions 10 s', () => {
    const config = testConfig();

    expect(config.DYNAMODB_CONNECT_TIMEOUT_MS).toBe(1000);
    expect(config.DYNAMODB_REQUEST_TIMEOUT_MS).toBe(2500);
    // Three attempts and the SDK's backoff between them (under 1 s for two retries).
    expect(3 * config.DYNAMODB_REQUEST_TIMEOUT_MS + 1000).toBeLessThan(10_000);
  });
});
