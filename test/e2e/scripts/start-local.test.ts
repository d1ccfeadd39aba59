import { type ChildProcess, spawn } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTablesHeaders, rawRequest } from '../../support/raw-http.js';

const startScript = new URL('../../../scripts/start-local.ts', import.meta.url).pathname;

/** A started `npm start` (scripts/start-local.ts, run by Node with tsx: its PID is the script's own). */
interface Start {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once it has exited. */
  readonly exited: Promise<number | null>;
}

/**
 * Runs `npm start` on `dataDir`, with no mail settings (so the local inbox starts) and a free port, and
 * `settings` on top.
 */
function start(dataDir: string, settings: NodeJS.ProcessEnv = {}): Start {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    LOCAL_DATA_DIR: dataDir,
    PORT: '0',
    ...settings,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', startScript], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Waits until `start` prints `pattern` (its first group is returned), or fails with what it printed. */
async function waitFor(begun: Start, pattern: RegExp, timeoutMs = 90_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(begun.output());
    if (match) return match[1] ?? match[0];
    if (begun.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`npm start did not print ${pattern}; it printed:\n${begun.output()}`);
    }
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

/** The PID of a process that has run and exited. */
function exitedPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout);
}

describe('npm start on a data folder', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'marginalia-start-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stops at start when WEBHOOK has no secret, naming WEBHOOK_SECRET and how to make one, and frees the folder', async () => {
    const dataDir = join(root, 'webhook');
    await mkdir(dataDir);

    const begun = start(dataDir, { WEBHOOK: 'http://127.0.0.1:9/hook' });

    expect(await begun.exited).toBe(1);
    expect(begun.output()).toContain('WEBHOOK: set WEBHOOK_SECRET too');
    expect(begun.output()).toContain('openssl rand -base64 32');
    expect(begun.output()).not.toContain('Marginalia is listening');
    await expect(readFile(join(dataDir, 'local.lock'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('stops before it opens anything when a running one holds the folder, naming its PID and port', async () => {
    const dataDir = join(root, 'held');
    await mkdir(dataDir);
    // This test process stands for the first npm start: it is running.
    const lock = JSON.stringify({ pid: process.pid, port: 45_678, command: 'npm start' });
    await writeFile(join(dataDir, 'local.lock'), lock);

    const second = start(dataDir);

    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is in use by npm start (PID ${process.pid}, port 45678)`);
    expect(second.output()).not.toContain('Starting DynamoDB Local');
    expect(await readFile(join(dataDir, 'local.lock'), 'utf8')).toBe(lock);
  });

  it('takes over a stale lock, refuses a second start and other origins while it runs, and frees the folder on exit', async () => {
    const dataDir = join(root, 'stale');
    await mkdir(dataDir);
    await writeFile(
      join(dataDir, 'local.lock'),
      JSON.stringify({ pid: exitedPid(), port: 8360, command: 'npm start' }),
    );
    const first = start(dataDir);
    try {
      const apiPort = Number(await waitFor(first, /Marginalia is listening on http:\/\/127\.0\.0\.1:(\d+)/));
      const inboxUrl = await waitFor(first, /read them at (http:\/\/127\.0\.0\.1:\d+)/);
      await waitFor(first, /Press Ctrl-C/);
      const endpoint = (await readFile(join(dataDir, 'dynamodb-endpoint'), 'utf8')).trim();
      const inboxPort = Number(new URL(inboxUrl).port);
      const enginePort = Number(new URL(endpoint).port);

      // The stale lock is now the running one's.
      expect(JSON.parse(await readFile(join(dataDir, 'local.lock'), 'utf8'))).toEqual({
        pid: first.child.pid,
        port: apiPort,
        command: 'npm start',
      });

      // A second start on the same folder stops, naming the first.
      const second = start(dataDir);
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`is in use by npm start (PID ${first.child.pid}, port ${apiPort})`);

      // The inbox: another page's origin and a rebound name are refused; its own origin reads it.
      const inboxApi = `${inboxUrl}/api/email`;
      const foreign = await rawRequest(inboxApi, { headers: { Origin: 'https://evil.example' } });
      const rebound = await rawRequest(inboxApi, { headers: { Host: `evil.example:${inboxPort}` } });
      const own = await rawRequest(inboxApi, { headers: { Origin: `http://127.0.0.1:${inboxPort}` } });
      expect([foreign.status, rebound.status, own.status]).toEqual([403, 403, 200]);
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
      expect(foreign.headers['access-control-allow-credentials']).toBeUndefined();

      // DynamoDB Local: a rebound name and a page's Origin are refused; the SDK's way in still works.
      const listTables = (headers: Record<string, string>) =>
        rawRequest(endpoint, { method: 'POST', headers: listTablesHeaders(headers), body: '{}' });
      const engineRebound = await listTables({ Host: `evil.example:${enginePort}` });
      const engineForeign = await listTables({ Origin: 'https://evil.example' });
      const engineLoopback = await listTables({});
      expect([engineRebound.status, engineForeign.status, engineLoopback.status]).toEqual([403, 403, 200]);
      expect(JSON.parse(engineLoopback.body).TableNames).toContain('marginalia');

      // Writes from another site's page are refused; the demo's own origin may post (ALLOWED_ORIGINS unset).
      const post = (origin: string) =>
        rawRequest(`http://127.0.0.1:${apiPort}/api/comment`, {
          method: 'POST',
          headers: { Origin: origin, 'Content-Type': 'application/json' },
          body: JSON.stringify({ url: '/local-origins', comment: 'from the demo', nick: 'Demo' }),
        });
      const fromElsewhere = await post('https://evil.example');
      const fromDemo = await post(`http://127.0.0.1:${apiPort}`);
      expect(fromElsewhere.status).toBe(403);
      expect(JSON.parse(fromElsewhere.body).errmsg).toContain('https://evil.example');
      expect(fromDemo.status).toBe(200);

      // The API itself answers a rebound name with 421 (scripts/local-server.ts).
      const api = await rawRequest(`http://127.0.0.1:${apiPort}/api/comment?type=count&url=/`, {
        headers: { Host: `evil.example:${apiPort}` },
      });
      expect(api.status).toBe(421);

      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      await expect(readFile(join(dataDir, 'local.lock'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      first.child.kill('SIGKILL');
    }
  }, 180_000);
});
