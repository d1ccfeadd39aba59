/**
 * One local process at a time on a data folder (.data/): two DynamoDB Local processes on one database file,
 * or two notifiers on one stream checkpoint, would each overwrite what the other wrote. `npm start` (and a
 * tool that starts DynamoDB Local on .data/ itself) holds `<data folder>/local.lock`, which names its PID and
 * port; a second one stops with that PID and port in its message.
 *
 * The lock file is made whole, then linked into place (`link` fails when the name exists), so it never
 * exists half-written and two starts cannot both take it. A lock whose PID is no longer running (a crash,
 * a kill -9) is stale and taken over.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Who holds a data folder, as its lock file says. */
export interface DataLockHolder {
  readonly pid: number;
  /** The port it serves on, when it serves. */
  readonly port?: number;
  /** What it is, for the message: `npm start`. */
  readonly command: string;
}

/** A lock held by this process. */
export interface DataLock {
  /** The lock file's path. */
  readonly path: string;
  /** Writes the port it serves on into the lock (known only once it listens, when asked for port 0). */
  setPort(port: number): Promise<void>;
  /** Removes the lock file, if it is still this process's. */
  release(): Promise<void>;
}

/** The data folder is held by another running process. */
export class DataFolderInUseError extends Error {
  constructor(
    readonly holder: DataLockHolder,
    readonly lockPath: string,
    dataDir: string,
  ) {
    const where = holder.port === undefined ? '' : `, port ${holder.port}`;
    super(
      `${dataDir} is in use by ${holder.command} (PID ${holder.pid}${where}): stop that one first, or give this ` +
        `one another data folder (LOCAL_DATA_DIR). If PID ${holder.pid} is not Marginalia, delete ${lockPath}.`,
    );
    this.name = 'DataFolderInUseError';
  }
}

const lockName = 'local.lock';
const maxAttempts = 5;

/**
 * Takes the lock of `dataDir` (created if missing) for this process, or throws {@link DataFolderInUseError}
 * naming the running holder. A stale lock (its PID gone) is taken over.
 */
export async function acquireDataLock(
  dataDir: string,
  holder: Omit<DataLockHolder, 'pid'>,
): Promise<DataLock> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, lockName);
  let own: DataLockHolder = { pid: process.pid, ...holder };
  const draft = await writeDraft(path, own);
  try {
    let taken = false;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      taken = await linkExclusive(draft, path);
      if (taken) break;
      const text = await readIfPresent(path);
      // Gone between the link and the read: its holder released it; try again.
      if (text === undefined) continue;
      const found = parseHolder(text);
      if (found && found.pid !== process.pid && isRunning(found.pid)) {
        throw new DataFolderInUseError(found, path, dataDir);
      }
      await moveAsideIfStill(path, text);
    }
    if (!taken) throw new Error(`could not take ${path}: other processes keep replacing it`);
  } finally {
    await unlink(draft).catch(() => {});
  }
  return {
    path,
    async setPort(port) {
      own = { ...own, port };
      // Replaced whole (a draft renamed over it), so a reader never sees it half-written.
      await rename(await writeDraft(path, own), path);
    },
    async release() {
      const current = parseHolder((await readIfPresent(path)) ?? '');
      if (current?.pid === process.pid) await unlink(path).catch(() => {});
    },
  };
}

/** Whether a process with this PID is running (one of another user counts: we may not signal it). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock's holder, or undefined when the text is not a lock (then the lock is taken over as stale). */
function parseHolder(text: string): DataLockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<DataLockHolder>;
    if (!Number.isSafeInteger(value.pid) || (value.pid as number) <= 0) return undefined;
    return {
      pid: value.pid as number,
      ...(Number.isSafeInteger(value.port) ? { port: value.port as number } : {}),
      command: typeof value.command === 'string' ? value.command.slice(0, 80) : 'another process',
    };
  } catch {
    return undefined;
  }
}

async function writeDraft(path: string, holder: DataLockHolder): Promise<string> {
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  return draft;
}

/** Links `draft` to `path`; false when `path` exists. */
async function linkExclusive(draft: string, path: string): Promise<boolean> {
  try {
    await link(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Moves the stale lock out of the way, but only the one judged stale: another start may have taken it over
 * since it was read. The move is atomic; what was moved is then checked, and a fresh lock put back.
 */
async function moveAsideIfStill(path: string, staleText: string): Promise<void> {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((await readFile(aside, 'utf8')) !== staleText) await link(aside, path).catch(() => {});
  await unlink(aside);
}
