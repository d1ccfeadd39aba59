import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createLocalDynamoDbClient } from '../../../scripts/create-table.js';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../../scripts/dynamodb-local.js';
import { listTablesHeaders, rawRequest } from '../../support/raw-http.js';

/**
 * This machine's own addresses other than loopback: connecting to one stays on this machine, but goes
 * through the interface another host's connection would come in on. IPv6 link-local ones need a zone.
 */
function nonLoopbackAddresses(): string[] {
  return Object.entries(networkInterfaces()).flatMap(([name, addresses]) =>
    (addresses ?? [])
      .filter((address) => !address.internal)
      .map((address) =>
        address.address.startsWith('fe80:') ? `${address.address}%${name}` : address.address,
      ),
  );
}

/** `connected`, `refused`, or what else happened to a TCP connection to `host:port`. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolveOutcome) => {
    const socket = connect({ host, port, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolveOutcome('connected');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolveOutcome('timed out');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      resolveOutcome(error.code === 'ECONNREFUSED' ? 'refused' : (error.code ?? error.message));
    });
  });
}

async function listTables(endpoint: string): Promise<string[]> {
  const client = createLocalDynamoDbClient(endpoint, { maxAttempts: 1 });
  try {
    return (await client.send(new ListTablesCommand({}))).TableNames ?? [];
  } finally {
    client.destroy();
  }
}

const portOf = (engine: DynamoDbLocal) => Number(new URL(engine.endpoint).port);
const noOtherAddress =
  'this machine has no address but loopback, so there is no other interface to try (os.networkInterfaces())';

describe('startDynamoDbLocal, as npm start runs it', () => {
  let root: string;
  let engine: DynamoDbLocal;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'marginalia-loopback-'));
    // What scripts/start-local.ts does, with a data directory of its own.
    engine = await startDynamoDbLocal({ dataDir: join(root, 'dynamodb') });
  });
  afterAll(async () => {
    await engine?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('answers on 127.0.0.1 and says it listens there only', async () => {
    expect(engine.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(engine.loopbackOnly).toBe(true);
    expect(engine.exposure).toBeUndefined();

    expect(await listTables(engine.endpoint)).toEqual([]);
  });

  it('refuses with 403 a Host that is not a loopback name (DNS rebinding), and any Origin', async () => {
    const port = portOf(engine);
    const call = (headers: Record<string, string>) =>
      rawRequest(engine.endpoint, { method: 'POST', headers: listTablesHeaders(headers), body: '{}' });

    const refused = [
      await call({ Host: `evil.example:${port}` }),
      await call({ Host: 'evil.example' }),
      await call({ Origin: 'https://evil.example' }),
      await call({ Origin: `http://127.0.0.1:${port}` }),
    ];
    const preflight = await rawRequest(engine.endpoint, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    const loopback = [
      await call({}),
      await call({ Host: `localhost:${port}` }),
      await call({ Host: `[::1]:${port}` }),
      await call({ Host: 'LOCALHOST' }),
      // A loopback name with another port: what a test's proxy in front of the engine forwards.
      await call({ Host: `127.0.0.1:${port + 1}` }),
    ];

    expect(refused.map((reply) => reply.status)).toEqual([403, 403, 403, 403]);
    expect(refused[0]!.body).not.toContain('TableNames');
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(loopback.map((reply) => [reply.status, JSON.parse(reply.body)])).toEqual(
      Array.from({ length: 5 }, () => [200, { TableNames: [] }]),
    );
  });

  it("refuses connections on this machine's other addresses", async (context) => {
    const addresses = nonLoopbackAddresses();
    context.skip(addresses.length === 0, noOtherAddress);

    const outcomes = await Promise.all(addresses.map((host) => tryConnect(host, portOf(engine))));

    expect(Object.fromEntries(addresses.map((host, index) => [host, outcomes[index]]))).toEqual(
      Object.fromEntries(addresses.map((host) => [host, 'refused'])),
    );
  });
});

describe('startDynamoDbLocal on a Java runtime without the jdk.compiler module', () => {
  let root: string;
  let engine: DynamoDbLocal;
  let warn: MockInstance<typeof console.warn>;

  beforeAll(async () => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    root = await mkdtemp(join(tmpdir(), 'marginalia-no-compiler-'));
    // The same Java with jdk.compiler left out, as in a slimmed-down JRE: LoopbackServerRunner.java cannot run.
    const java = join(root, 'java-without-compiler');
    await writeFile(
      java,
      '#!/bin/sh\nexec java --limit-modules java.se,jdk.unsupported,jdk.crypto.ec "$@"\n',
    );
    await chmod(java, 0o755);
    engine = await startDynamoDbLocal({ javaCommand: java });
  });
  afterAll(async () => {
    warn?.mockRestore();
    await engine?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('falls back to listening on every interface, and warns that it does', async () => {
    expect(engine.loopbackOnly).toBe(false);
    expect(engine.exposure).toMatch(/no jdk\.compiler module/);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^WARNING: DynamoDB Local will listen on every/));

    expect(await listTables(engine.endpoint)).toEqual([]);
  });

  it("is then reached on this machine's other addresses too, which the check above would catch", async (context) => {
    // IPv4 first; an IPv6 link-local address (with its zone) cannot go into a URL.
    const addresses = nonLoopbackAddresses().filter((address) => !address.includes('%'));
    context.skip(addresses.length === 0, noOtherAddress);
    const host = addresses.find((address) => !address.includes(':')) ?? (addresses[0] as string);

    expect(await tryConnect(host, portOf(engine))).toBe('connected');
    const url = new URL(engine.endpoint);
    url.hostname = host.includes(':') ? `[${host}]` : host;
    expect(await listTables(url.origin)).toEqual([]);
  });
});
