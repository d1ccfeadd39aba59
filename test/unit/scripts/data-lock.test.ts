import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataLock, DataFolderInUseError } from '../../../scripts/data-lock.js';

/** The PID of a process that has run and exited: no process has it now (PIDs are not reused this soon). */
function exitedPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

/** Runs a command and resolves with its standard output. */
function spawnAsync(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 60_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

describe('acquireDataLock', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'marginalia-lock-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const lockFile = () => join(dataDir, 'local.lock');
  const readLock = async () => JSON.parse(await readFile(lockFile(), 'utf8')) as Record<string, unknown>;

  it('writes this PID and the port into the lock, updates the port, and removes the lock on release', async () => {
    const lock = await acquireDataLock(dataDir, { command: 'npm start', port: 0 });
    expect(await readLock()).toEqual({ pid: process.pid, port: 0, command: 'npm start' });

    await lock.setPort(43_210);
    expect(await readLock()).toEqual({ pid: process.pid, port: 43_210, command: 'npm start' });

    await lock.release();
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('refuses a folder whose lock names a running process, with its PID and port, and leaves the lock', async () => {
    // The test runner's parent: running, and not this process.
    const holder = { pid: process.ppid, port: 8360, command: 'npm start' };
    await writeFile(lockFile(), JSON.stringify(holder));

    const attempt = acquireDataLock(dataDir, { command: 'npm start', port: 8361 });

    await expect(attempt).rejects.toBeInstanceOf(DataFolderInUseError);
    await expect(attempt).rejects.toThrow(`in use by npm start (PID ${process.ppid}, port 8360)`);
    expect(await readLock()).toEqual(holder);
    expect(await readdir(dataDir)).toEqual(['local.lock']);
  });

  it('takes over a stale lock, whose PID is no longer running', async () => {
    await writeFile(lockFile(), JSON.stringify({ pid: exitedPid(), port: 8360, command: 'npm start' }));

    const lock = await acquireDataLock(dataDir, { command: 'npm start', port: 9000 });

    expect(await readLock()).toEqual({ pid: process.pid, port: 9000, command: 'npm start' });
    expect(await readdir(dataDir)).toEqual(['local.lock']);
    await lock.release();
  });

  it('takes over a lock that is not one (empty or garbled)', async () => {
    await writeFile(lockFile(), '');

    const lock = await acquireDataLock(dataDir, { command: 'npm start' });

    expect(await readLock()).toEqual({ pid: process.pid, command: 'npm start' });
    await lock.release();
  });

  it('lets one of several processes racing for a stale lock have it, and refuses the others naming it', async () => {
    await writeFile(lockFile(), JSON.stringify({ pid: exitedPid(), port: 8360, command: 'npm start' }));
    const modulePath = new URL('../../../scripts/data-lock.ts', import.meta.url).href;
    // Each holds the lock it got for 5 s, long past the others' start-up.
    const code = `
      const { acquireDataLock } = await import(${JSON.stringify(modulePath)});
      try {
        const lock = await acquireDataLock(process.argv[1], { command: 'racer', port: 1 });
        console.log('won ' + process.pid);
        await new Promise((wake) => setTimeout(wake, 5000));
        await lock.release();
      } catch (error) {
        console.log('lost: ' + error.message);
      }`;
    const racers = Array.from({ length: 4 }, () =>
      spawnAsync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, dataDir]),
    );

    const outputs = (await Promise.all(racers)).map((output) => output.trim());

    const winners = outputs.filter((output) => output.startsWith('won '));
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.slice('won '.length);
    for (const output of outputs.filter((one) => !one.startsWith('won '))) {
      expect(output).toContain(`lost: ${dataDir} is in use by racer (PID ${winner}, port 1)`);
    }
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('does not remove a lock that another process has taken since', async () => {
    const lock = await acquireDataLock(dataDir, { command: 'npm start' });
    const other = { pid: process.ppid, command: 'npm start' };
    await writeFile(lockFile(), JSON.stringify(other));

    await lock.release();

    expect(await readLock()).toEqual(other);
  });
});
