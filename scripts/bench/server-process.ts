/**
 * Starts bench-server.ts as a child process and talks to it: where it listens, how many requests it
 * answered, and when it is idle. Its pid is what process-stats.ts samples.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../../lib/bundle-options.js';

/** What the server counted since it started. */
export interface ServerStats {
  /** Requests the handlers answered (API routes only). */
  readonly answered: number;
  /** Requests the handlers are working on now. */
  readonly inFlight: number;
  /** Answers by HTTP status. */
  readonly byStatus: Record<string, number>;
  /** Pageview POSTs answered with a 2xx: what the counter must have risen by. */
  readonly acceptedPageviews: number;
  /**
   * Waline only (waline-start.mjs): 2xx answers whose body carried a non-zero errno, as its rate limit and
   * its duplicate check answer. Marginalia's errors have an HTTP status of their own.
   */
  readonly refused?: number;
}

/** Messages from the parent to the server. */
export type ParentMessage = { type: 'stats' };
/** Messages from the server to the parent. */
export type ServerMessage = { type: 'listening'; port: number } | { type: 'stats'; stats: ServerStats };

/** A running bench server. */
export interface BenchServer {
  readonly pid: number;
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  stats(): Promise<ServerStats>;
  /** Resolves once no request is in flight (the load generator hangs up on requests still running). */
  waitUntilIdle(): Promise<ServerStats>;
  stop(): Promise<void>;
}

const entry = fileURLToPath(new URL('./bench-server.ts', import.meta.url));
const startTimeoutMs = 60_000;

/** Starts the server on DynamoDB Local at `endpoint`, table `tableName`; `listCacheMs` as LIST_CACHE_MS. */
export async function startBenchServer(settings: {
  readonly endpoint: string;
  readonly tableName: string;
  readonly listCacheMs?: number;
}): Promise<BenchServer> {
  // `node --import tsx` rather than the tsx CLI: the pid we get is the server itself, not a wrapper.
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: projectRoot,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      TABLE_NAME: settings.tableName,
      DYNAMODB_ENDPOINT: settings.endpoint,
      ...(settings.listCacheMs === undefined ? {} : { LIST_CACHE_MS: String(settings.listCacheMs) }),
      IP_HASH_SALT: 'marginalia-bench-salt-0123456789',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  try {
    const port = await waitForListening(child);
    return connect(child, port, exited);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

function waitForListening(child: ChildProcess): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the bench server did not start in time')),
      startTimeoutMs,
    );
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`the bench server exited during start-up (code ${code}, signal ${signal})`)),
    );
    child.on('message', (message: ServerMessage) => {
      if (message.type !== 'listening') return;
      clearTimeout(timer);
      resolvePort(message.port);
    });
  });
}

/** Polls `stats` until no request is in flight; returns the last reading. */
export async function waitForIdle(stats: () => Promise<ServerStats>): Promise<ServerStats> {
  for (;;) {
    const current = await stats();
    if (current.inFlight === 0) return current;
    await new Promise((wake) => setTimeout(wake, 20));
  }
}

function connect(child: ChildProcess, port: number, exited: Promise<void>): BenchServer {
  const pid = child.pid;
  if (pid === undefined) throw new Error('the bench server has no pid');
  const stats = () =>
    new Promise<ServerStats>((resolveStats, reject) => {
      const onMessage = (message: ServerMessage) => {
        if (message.type !== 'stats') return;
        child.off('message', onMessage);
        resolveStats(message.stats);
      };
      child.on('message', onMessage);
      child.send({ type: 'stats' } satisfies ParentMessage, (error) => {
        if (error) {
          child.off('message', onMessage);
          reject(error);
        }
      });
    });
  return {
    pid,
    base: `http://127.0.0.1:${port}`,
    stats,
    waitUntilIdle: () => waitForIdle(stats),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
