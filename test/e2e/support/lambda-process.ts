/**
 * A deployed bundle running in its own process under Lambda's Node.js major version, driven through
 * lambda-runtime.mjs: the closest this machine gets to a Lambda instance without AWS.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HttpEvent, HttpResult } from '../../../functions/shared/http/http-types.js';

/** Where `npm ci` (the root postinstall) puts Node.js 22, outside node_modules/.bin on purpose. */
const installedNode = fileURLToPath(new URL('../../../tools/node22/node_modules/.bin/node', import.meta.url));
const runtimeScript = fileURLToPath(new URL('./lambda-runtime.mjs', import.meta.url));
const startTimeoutMs = 20_000;
const outputTailChars = 16_000;

/**
 * The Node.js binary that plays Lambda's runtime: `LAMBDA_NODE_BINARY` when set (for a platform the npm
 * registry has no Node.js 22 package for, such as macOS on Apple silicon), else tools/node22's.
 */
export function lambdaNodeBinary(): string {
  const binary = process.env.LAMBDA_NODE_BINARY || installedNode;
  if (!existsSync(binary)) {
    throw new Error(
      `No Node.js for the deployed bundles at ${binary}: run \`npm ci\` at the root (its postinstall runs ` +
        '`npm ci --prefix tools/node22`), or set LAMBDA_NODE_BINARY to a Node.js 22 binary.',
    );
  }
  return binary;
}

/** What starts one function. */
export interface LambdaProcessOptions {
  /** The Node.js binary (lambdaNodeBinary()). */
  readonly node: string;
  /** The function's code folder: what Lambda unpacks into its task root. */
  readonly codeDir: string;
  /** The function's Handler setting, e.g. `index.handler`. */
  readonly handler: string;
  readonly timeoutSeconds: number;
  /** The whole environment of the process: nothing is inherited from the test's. */
  readonly environment: Readonly<Record<string, string>>;
}

/** One running function. */
export interface LambdaProcess {
  /** `process.version` inside the function's process. */
  readonly nodeVersion: string;
  /** Hands the function one event and resolves with its answer; rejects when the handler throws. */
  invoke(event: HttpEvent): Promise<HttpResult>;
  /** What the function wrote to stdout and stderr so far (its logs), the latest 16 000 characters. */
  logs(): string;
  /** Ends the process and resolves once it has exited. */
  stop(): Promise<void>;
}

type RuntimeMessage =
  | { ready: { version: string } }
  | { failed: string }
  | { id: number; result: HttpResult }
  | { id: number; error: string };

/** Starts the function and resolves once its module is loaded (its cold start done). */
export async function startLambdaProcess(options: LambdaProcessOptions): Promise<LambdaProcess> {
  const child = spawn(
    options.node,
    [runtimeScript, options.codeDir, options.handler, String(options.timeoutSeconds)],
    {
      cwd: options.codeDir,
      env: { ...options.environment },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-outputTailChars);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const pending = new Map<
    number,
    { resolve: (result: HttpResult) => void; reject: (error: Error) => void }
  >();
  let nextId = 1;
  const exited = new Promise<string>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit(`exit code ${code}, signal ${signal}`));
  });
  void exited.then((how) => {
    for (const { reject } of pending.values())
      reject(new Error(`the function's process ended (${how}):\n${output}`));
    pending.clear();
  });

  const nodeVersion = await new Promise<string>((resolveReady, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the function did not load within ${startTimeoutMs} ms:\n${output}`));
    }, startTimeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the function's process ended before loading (${how}):\n${output}`));
    });
    child.on('message', (message: RuntimeMessage) => {
      if ('ready' in message) {
        clearTimeout(timer);
        resolveReady(message.ready.version);
      } else if ('failed' in message) {
        clearTimeout(timer);
        reject(new Error(`the function failed to load: ${message.failed}`));
      } else {
        const call = pending.get(message.id);
        pending.delete(message.id);
        if ('result' in message) call?.resolve(message.result);
        else call?.reject(new Error(`the handler threw: ${message.error}`));
      }
    });
  }).catch(async (error: unknown) => {
    await stopChild(child, exited);
    throw error;
  });

  return {
    nodeVersion,
    invoke: (event) =>
      new Promise((resolveCall, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolveCall, reject });
        child.send({ id, event });
      }),
    logs: () => output,
    stop: () => stopChild(child, exited),
  };
}

async function stopChild(child: ChildProcess, exited: Promise<string>): Promise<void> {
  // No pid: it never started (the 'error' event said why), and no 'exit' will come.
  if (child.pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited;
}
