/**
 * The real Waline server beside Marginalia in the load section: @waline/vercel as `npm run bench:waline`
 * (waline-install.ts) installed it in .bench/waline/, on SQLite, one worker, started through
 * waline-start.mjs on 127.0.0.1 with a fresh database in a temporary directory. It runs as a process group
 * (thinkjs's cluster master and its worker, SQLite inside the worker): its CPU is that of the whole tree,
 * and stopping it stops the group.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../../lib/bundle-options.js';
import type { LoadTarget } from './load-run.js';
import { findTree, sampleProcesses } from './process-stats.js';
import { type ServerStats, waitForIdle } from './server-process.js';

/** The Waline release Marginalia is measured against (the one load-cases.ts's fixed figures are of). */
export const walineVersion = '1.39.3';
/** Where `npm run bench:waline` installs it. */
export const walineDir = join(projectRoot, '.bench', 'waline');

/**
 * Waline's SQLite schema: the npm package ships none. From the Waline repository's
 * assets/waline.sqlite.sql (walinejs/waline), without its BEGIN/COMMIT.
 */
const schema = `
CREATE TABLE IF NOT EXISTS "wl_Comment" (
  "id" INTEGER, "user_id" INTEGER, "comment" TEXT,
  "insertedAt" DATETIME DEFAULT (datetime('now', 'localtime')),
  "ip" TEXT, "link" TEXT, "mail" TEXT, "nick" TEXT, "rid" INTEGER, "pid" INTEGER,
  "sticky" NUMERIC, "status" TEXT NOT NULL, "like" INTEGER, "ua" TEXT, "url" TEXT,
  "createdAt" DATETIME DEFAULT (datetime('now', 'localtime')),
  "updatedAt" DATETIME DEFAULT (datetime('now', 'localtime')),
  PRIMARY KEY("id" AUTOINCREMENT));
CREATE TABLE IF NOT EXISTS "wl_Counter" (
  "id" INTEGER, "time" INTEGER,
  "reaction0" INTEGER, "reaction1" INTEGER, "reaction2" INTEGER, "reaction3" INTEGER, "reaction4" INTEGER,
  "reaction5" INTEGER, "reaction6" INTEGER, "reaction7" INTEGER, "reaction8" INTEGER, "url" TEXT,
  "createdAt" DATETIME DEFAULT (datetime('now', 'localtime')),
  "updatedAt" DATETIME DEFAULT (datetime('now', 'localtime')),
  PRIMARY KEY("id" AUTOINCREMENT));
CREATE TABLE IF NOT EXISTS "wl_Users" (
  "id" INTEGER, "display_name" TEXT NOT NULL DEFAULT '', "email" TEXT NOT NULL DEFAULT '',
  "password" TEXT NOT NULL DEFAULT '', "type" TEXT NOT NULL DEFAULT '', "label" TEXT,
  "github" TEXT, "twitter" TEXT, "facebook" TEXT, "google" TEXT, "weibo" TEXT, "qq" TEXT,
  "oidc" TEXT, "huawei" TEXT, "2fa" TEXT, "avatar" TEXT, "url" TEXT,
  "createdAt" DATETIME DEFAULT (datetime('now', 'localtime')),
  "updatedAt" DATETIME DEFAULT (datetime('now', 'localtime')),
  PRIMARY KEY("id" AUTOINCREMENT));
`;

/** Loads the package at the pinned version and the native SQLite driver, in a process of its own. */
const loadCheck = `
  const { version } = require('@waline/vercel/package.json');
  if (version !== '${walineVersion}') throw new Error('@waline/vercel ' + version + ', not ${walineVersion}');
  require('sqlite3');
  require('@waline/vercel');
`;

/** Whether Waline is installed in `dir` and loads: its package at walineVersion, and sqlite3's addon. */
export function isWalineInstalled(dir = walineDir): boolean {
  return spawnSync(process.execPath, ['-e', loadCheck], { cwd: dir, stdio: 'ignore' }).status === 0;
}

/** A running Waline server; a load target whose one measured part is its process tree. */
export interface WalineServer extends LoadTarget<'waline'> {
  /** The pids of its process tree now: thinkjs's master and its worker. */
  pids(): Promise<number[]>;
  stats(): Promise<ServerStats>;
  /** Stops the whole process group and deletes the database; safe to call twice. */
  stop(): Promise<void>;
}

const entry = fileURLToPath(new URL('./waline-start.mjs', import.meta.url));
const startTimeoutMs = 60_000;

/** Starts Waline from `dir` on a fresh SQLite database; resolves once it answers. */
export async function startWalineServer(dir = walineDir): Promise<WalineServer> {
  const workDir = await mkdtemp(join(tmpdir(), 'marginalia-bench-waline-'));
  const log = join(workDir, 'waline.log');
  let child: ChildProcess | undefined;
  const stop = async () => {
    if (child) await stopGroup(child);
    await rm(workDir, { recursive: true, force: true });
  };
  try {
    await createDatabase(dir, join(workDir, 'waline.sqlite'));
    // It logs every SQL statement: to a file, read only to explain a failed start.
    const logFile = await open(log, 'w');
    try {
      child = spawn(process.execPath, [entry], {
        // Its own process group, to stop master and worker together; stdin stays a pipe from this process,
        // whose end (even when this process is killed) makes waline-start.mjs exit.
        detached: true,
        stdio: ['pipe', logFile.fd, logFile.fd],
        env: {
          PATH: process.env.PATH,
          WALINE_DIR: dir,
          WALINE_RUNTIME: workDir,
          SQLITE_PATH: workDir,
          SQLITE_DB: 'waline',
          JWT_TOKEN: 'marginalia-bench-waline',
          AKISMET_KEY: 'false',
          // Else it fetches the OAuth service's list on every request, and answers 500 offline.
          OAUTH_URL: 'data:application/json,{"services":[]}',
          // Every request comes from 127.0.0.1: its per-IP limit (HTTP 200, errno 1000) off, as Marginalia's
          // is in the bench. It looks for the IP's comments inserted after now - IPQPS s, compared in whole
          // seconds: 0 still refuses a second post within the same second, a negative window none. Its
          // query still runs on every post. waline-start.mjs counts any refusal that remains.
          IPQPS: '-3600',
        },
      });
    } finally {
      await logFile.close();
    }
    const base = `http://127.0.0.1:${await waitForPort(child, workDir, log)}`;
    await waitUntilAnswering(base, child, log);
    return connect(child, base, stop);
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Creates the database file with Waline's schema, through the install's own sqlite3 module. */
async function createDatabase(dir: string, file: string): Promise<void> {
  interface Database {
    exec(sql: string, callback: (error: Error | null) => void): void;
    close(callback: (error: Error | null) => void): void;
  }
  const sqlite3 = createRequire(join(dir, 'package.json'))('sqlite3') as {
    Database: new (file: string, callback: (error: Error | null) => void) => Database;
  };
  const done = (resolveStep: () => void, reject: (error: Error) => void) => (error: Error | null) =>
    error ? reject(error) : resolveStep();
  const database = await new Promise<Database>((resolveOpen, reject) => {
    const opened: Database = new sqlite3.Database(
      file,
      done(() => resolveOpen(opened), reject),
    );
  });
  await new Promise<void>((resolveExec, reject) => database.exec(schema, done(resolveExec, reject)));
  await new Promise<void>((resolveClose, reject) => database.close(done(resolveClose, reject)));
}

/** Waits for waline-start.mjs to write the port its worker listens on. */
async function waitForPort(child: ChildProcess, workDir: string, log: string): Promise<number> {
  return poll(child, log, async () => Number(await readFile(join(workDir, 'port'), 'utf8')) || undefined);
}

/** Waits until Waline answers a count request with its envelope. */
async function waitUntilAnswering(base: string, child: ChildProcess, log: string): Promise<void> {
  await poll(child, log, async () => {
    const response = await fetch(`${base}/api/comment?type=count&url=/&lang=en-US`);
    const body = (await response.json()) as { errno?: number };
    return response.ok && body.errno === 0 ? true : undefined;
  });
}

/** Calls `attempt` until it gives a value; fails if Waline exits or takes longer than startTimeoutMs. */
async function poll<T>(child: ChildProcess, log: string, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Waline exited during start-up; the end of its log:\n${await tail(log)}`);
    }
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `Waline did not start in ${startTimeoutMs / 1000} s; the end of its log:\n${await tail(log)}`,
      );
    }
    await new Promise((wake) => setTimeout(wake, 200));
  }
}

async function tail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-20).join('\n');
}

/** SIGTERM to the group, SIGKILL to whatever is left of it after 5 s; resolves once the group is gone. */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  /** Sends `name` to every process of the group; false once none is left (signal 0 only asks). */
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      return process.kill(-pid, name);
    } catch {
      return false;
    }
  };
  const goneWithin = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (signal(0)) {
      if (Date.now() > deadline) return false;
      await new Promise((wake) => setTimeout(wake, 50));
    }
    return true;
  };
  child.stdin?.destroy();
  signal('SIGTERM');
  if (await goneWithin(5000)) return;
  signal('SIGKILL');
  if (!(await goneWithin(5000))) throw new Error(`Waline's process group ${pid} survived SIGKILL`);
}

function connect(child: ChildProcess, base: string, stop: () => Promise<void>): WalineServer {
  const pid = child.pid;
  if (pid === undefined) throw new Error('Waline has no pid');
  const pids = () => findTree(pid);
  const stats = async () => {
    const response = await fetch(`${base}/__bench/stats`);
    return (await response.json()) as ServerStats;
  };
  let stopped: Promise<void> | undefined;
  return {
    base,
    pids,
    stats,
    parts: { waline: async () => sampleProcesses(await pids()) },
    waitUntilIdle: () => waitForIdle(stats),
    stop: () => (stopped ??= stop()),
  };
}
