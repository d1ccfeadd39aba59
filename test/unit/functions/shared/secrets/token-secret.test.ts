import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenSecret } from '../../../../../functions/shared/secrets/token-secret.js';
import { testConfig } from '../../../../support/test-config.js';

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/** A stand-in for the Parameters and Secrets extension on 127.0.0.1, answering with `answers` in turn. */
async function startExtension(...answers: Answer[]) {
  const requests: { url: string; token: string | undefined }[] = [];
  const server: Server = createServer((request, response) => {
    const token = request.headers['x-aws-parameters-secrets-token'];
    requests.push({ url: request.url ?? '', token: typeof token === 'string' ? token : undefined });
    const answer = answers[Math.min(requests.length, answers.length) - 1];
    answer?.(request, response);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    requests,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

const value =
  (text: string): Answer =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ Parameter: { Name: '/marginalia/jwt-secret', Type: 'SecureString', Value: text } }),
    );
  };
const status =
  (code: number, body: string): Answer =>
  (_request, response) => {
    response.writeHead(code);
    response.end(body);
  };

describe('createTokenSecret', () => {
  let extension: Awaited<ReturnType<typeof startExtension>> | undefined;
  const fromParameter = (port: number) =>
    createTokenSecret(testConfig({ JWT_SECRET_PARAMETER: '/marginalia/jwt-secret' }), {
      host: '127.0.0.1',
      port,
      sessionToken: 'session-token',
    });

  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await extension?.close();
    extension = undefined;
  });

  it('reads the SecureString once, decrypted, through the extension, when JWT_TOKEN is not set', async () => {
    extension = await startExtension(value('s'.repeat(40)));
    const secret = fromParameter(extension.port);

    expect(await secret()).toBe('s'.repeat(40));
    expect(await secret()).toBe('s'.repeat(40));
    expect(extension.requests).toEqual([
      {
        url: '/systemsmanager/parameters/get?name=%2Fmarginalia%2Fjwt-secret&withDecryption=true',
        token: 'session-token',
      },
    ]);
  });

  it('turns sign-in off, without asking again within the cache time, when the parameter does not exist', async () => {
    extension = await startExtension(status(400, 'ParameterNotFound: /marginalia/jwt-secret'));
    const secret = fromParameter(extension.port);

    expect(await secret()).toBeUndefined();
    expect(await secret()).toBeUndefined();
    expect(extension.requests).toHaveLength(1);
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('does not exist: sign-in is off'));
  });

  it('refuses a key shorter than 32 characters', async () => {
    extension = await startExtension(value('short'));
    expect(await fromParameter(extension.port)()).toBeUndefined();
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('shorter than 32 characters'));
  });

  it('fails the request and asks again after any other failure', async () => {
    extension = await startExtension(status(500, 'throttled'), value('k'.repeat(32)));
    const secret = fromParameter(extension.port);

    await expect(secret()).rejects.toThrow('the secrets extension answered 500: throttled');
    expect(await secret()).toBe('k'.repeat(32));
    expect(extension.requests).toHaveLength(2);
  });

  it('rejects an answer that is not a GetParameter output', async () => {
    extension = await startExtension(status(200, '<html>proxy</html>'));
    await expect(fromParameter(extension.port)()).rejects.toThrow('answered without a value');
  });

  it('rejects an oversized answer instead of buffering it', async () => {
    extension = await startExtension(status(200, 'x'.repeat(100 * 1024)));
    await expect(fromParameter(extension.port)()).rejects.toThrow('more than 65536 bytes');
  });

  it('gives up on an extension that starts an answer and never finishes it', async () => {
    extension = await startExtension((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"Parameter":');
    });
    const secret = createTokenSecret(testConfig({ JWT_SECRET_PARAMETER: '/marginalia/jwt-secret' }), {
      host: '127.0.0.1',
      port: extension.port,
      sessionToken: 'session-token',
      timeoutMs: 200,
    });

    await expect(secret()).rejects.toThrow(/did not answer in time|hung up/);
  });

  it('treats any other client error as a failure to retry, not as a missing parameter', async () => {
    extension = await startExtension(status(404, 'no such route'), value('k'.repeat(32)));
    const secret = fromParameter(extension.port);

    await expect(secret()).rejects.toThrow('answered 404');
    expect(await secret()).toBe('k'.repeat(32));
  });

  describe('when the key is rotated', () => {
    let time = 0;
    const cached = (port: number) =>
      createTokenSecret(
        testConfig({ JWT_SECRET_PARAMETER: '/marginalia/jwt-secret', SECRETS_CACHE_SECONDS: '120' }),
        { host: '127.0.0.1', port, sessionToken: 'session-token' },
        { now: () => time },
      );
    beforeEach(() => {
      time = 1_000_000;
    });

    it('reads the key again once the cache time has passed, and not before', async () => {
      extension = await startExtension(value('a'.repeat(32)), value('b'.repeat(32)));
      const secret = cached(extension.port);

      expect(await secret()).toBe('a'.repeat(32));
      time += 119_000;
      expect(await secret()).toBe('a'.repeat(32));
      time += 1000;
      expect(await secret()).toBe('b'.repeat(32));
      expect(extension.requests).toHaveLength(2);
    });

    it('reads the key again at once when asked to refresh, then at most once per 30 s', async () => {
      extension = await startExtension(value('a'.repeat(32)), value('b'.repeat(32)), value('c'.repeat(32)));
      const secret = cached(extension.port);

      expect(await secret()).toBe('a'.repeat(32));
      time += 1000;
      expect(await secret({ refresh: true })).toBe('b'.repeat(32));
      time += 29_000;
      expect(await secret({ refresh: true })).toBe('b'.repeat(32));
      expect(extension.requests).toHaveLength(2);
      time += 1000;
      expect(await secret({ refresh: true })).toBe('c'.repeat(32));
    });

    it('picks up a parameter created after it was found missing, once the cache time has passed', async () => {
      extension = await startExtension(status(400, 'ParameterNotFound'), value('k'.repeat(32)));
      const secret = cached(extension.port);

      expect(await secret()).toBeUndefined();
      time += 120_000;
      expect(await secret()).toBe('k'.repeat(32));
    });

    it('says once, not at every read, that the parameter does not exist', async () => {
      extension = await startExtension(status(400, 'ParameterNotFound'));
      const secret = cached(extension.port);

      for (let i = 0; i < 3; i++) {
        expect(await secret()).toBeUndefined();
        time += 120_000;
      }
      expect(extension.requests).toHaveLength(3);
      expect(console.error).toHaveBeenCalledTimes(1);
    });

    it('keeps the key read before, and logs, when a later read fails', async () => {
      extension = await startExtension(
        value('a'.repeat(32)),
        status(500, 'throttled'),
        value('b'.repeat(32)),
      );
      const secret = cached(extension.port);

      expect(await secret()).toBe('a'.repeat(32));
      time += 120_000;
      expect(await secret()).toBe('a'.repeat(32));
      expect(console.error).toHaveBeenCalledWith(expect.stringContaining('could not be read again'));
      // Tried again after 30 s, not at the next request.
      expect(await secret()).toBe('a'.repeat(32));
      expect(extension.requests).toHaveLength(2);
      time += 30_000;
      expect(await secret()).toBe('b'.repeat(32));
    });

    it('asks the extension once for requests that need the key at the same time', async () => {
      extension = await startExtension(value('a'.repeat(32)));
      const secret = cached(extension.port);

      expect(await Promise.all([secret(), secret({ refresh: true }), secret()])).toEqual(
        Array(3).fill('a'.repeat(32)),
      );
      expect(extension.requests).toHaveLength(1);
    });
  });

  it('uses JWT_TOKEN without calling the extension when it is set', async () => {
    extension = await startExtension(value('never'));
    const secret = createTokenSecret(testConfig({ JWT_TOKEN: 'j'.repeat(32) }), {
      host: '127.0.0.1',
      port: extension.port,
      sessionToken: undefined,
    });
    expect(await secret()).toBe('j'.repeat(32));
    expect(extension.requests).toHaveLength(0);
  });

  it('is off when neither JWT_TOKEN nor a parameter is set', async () => {
    const secret = createTokenSecret(testConfig(), { port: 2773, sessionToken: undefined });
    expect(await secret()).toBeUndefined();
  });
});
