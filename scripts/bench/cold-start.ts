/**
 * Bundle size and cold start of each Lambda function: the bundles are built with the settings the stack
 * deploys (lib/bundle-options.ts), then a fresh `node` imports one and answers its first event against
 * dynamodb-stub.ts, again and again; the time is from spawn to the answer's line on stdout. On the
 * project's Node.js and on Lambda's (tools/node22) when installed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { staticClosure } from '../../lib/bundle-closure.js';
import { lambdaBundleOptions, projectRoot, toEsbuildOptions } from '../../lib/bundle-options.js';
import { buildEvent, type EventSpec } from '../../test/support/http-event.js';
import { startDynamoDbStub } from './dynamodb-stub.js';
import { type BenchRuntime, benchRuntimes } from './lambda-node.js';
import { median } from './measure.js';

/**
 * The two functions of the stack; `sdk-alone`, the AWS SDK and nothing else (sdk-alone-handler.ts), the
 * reference; and three yardsticks: `sdk-list-requests`, the SDK alone sending the list's requests
 * (sdk-list-requests-handler.ts), `empty`, nothing at all (empty-handler.ts), and `renderer-alone`, one
 * comment rendered (renderer-alone-handler.ts): the difference of the last two is what a first render costs.
 */
export type FunctionName =
  'comment' | 'article' | 'sdk-alone' | 'sdk-list-requests' | 'empty' | 'renderer-alone';

/** Size of one bundle. */
export interface BundleSize {
  readonly function: FunctionName;
  /**
   * What every cold start reads: the entry, `index.mjs`, and the chunks it imports statically (code it shares with
   * a chunk loaded on use), summed (lib/bundle-closure.ts).
   */
  readonly minifiedBytes: number;
  /** The same files each gzipped, summed. */
  readonly gzipBytes: number;
  /** The packages (or source folders) that take the most room in what a cold start reads, largest first. */
  readonly largest: readonly { readonly name: string; readonly bytes: number }[];
  /** The other chunks, each read on its first `import()` only (lib/bundle-options.ts), largest first. */
  readonly chunks: readonly { readonly name: string; readonly bytes: number }[];
}

/** Cold starts of one function on one first event. */
export interface ColdStart {
  readonly name: string;
  readonly function: FunctionName;
  /** The Node.js it ran on: the project's (20) or Lambda's (22). */
  readonly runtime: BenchRuntime['runtime'];
  readonly nodeVersion: string;
  /** Spawn to answer of each fresh process, in milliseconds, over every run. */
  readonly runsMs: readonly number[];
  /** The median of each run (cold-start-targets.ts takes ratios run by run). */
  readonly runMediansMs: readonly number[];
  /** The median over every process. */
  readonly medianMs: number;
  /** Medians, from the process's own clock: import done, answer done. */
  readonly medianImportedMs: number;
  readonly medianAnsweredMs: number;
}

interface ColdStartCase {
  readonly name: string;
  readonly function: FunctionName;
  readonly event: EventSpec;
}

const runner = fileURLToPath(new URL('./cold-start-runner.ts', import.meta.url));
const functions: readonly FunctionName[] = [
  'comment',
  'article',
  'sdk-alone',
  'sdk-list-requests',
  'empty',
  'renderer-alone',
];
const entries: Record<FunctionName, string> = {
  comment: 'functions/comment/handler.ts',
  article: 'functions/article/handler.ts',
  'sdk-alone': 'scripts/bench/sdk-alone-handler.ts',
  'sdk-list-requests': 'scripts/bench/sdk-list-requests-handler.ts',
  empty: 'scripts/bench/empty-handler.ts',
  'renderer-alone': 'scripts/bench/renderer-alone-handler.ts',
};
const cases: readonly ColdStartCase[] = [
  {
    name: 'comment: list',
    function: 'comment',
    event: {
      path: '/api/comment',
      query: 'path=%2Fcold&pageSize=10&page=1&lang=en-US&sortBy=insertedAt_desc',
    },
  },
  {
    name: 'comment: submit',
    function: 'comment',
    event: {
      method: 'POST',
      path: '/api/comment',
      query: 'lang=en-US',
      body: { comment: 'Hello **world**, a [link](https://example.com).', url: '/cold', nick: 'Ann' },
    },
  },
  {
    name: 'article: reading counts',
    function: 'article',
    event: { path: '/api/article', query: 'path=%2Fa%2C%2Fb%2C%2Fc&type=time&lang=en-US' },
  },
  {
    name: 'AWS SDK alone: one BatchGetItem',
    function: 'sdk-alone',
    event: { path: '/' },
  },
  {
    name: "AWS SDK alone: the list's five requests",
    function: 'sdk-list-requests',
    event: { path: '/' },
  },
  { name: 'nothing: an empty handler', function: 'empty', event: { path: '/' } },
  { name: 'the markdown renderer alone: one first render', function: 'renderer-alone', event: { path: '/' } },
];

/**
 * Bundles both functions into `workDir` and measures `runs` runs of `rounds` cold starts of each case. In a round
 * every case starts once, the cases taking turns to go first, so that what slows the host slows them alike.
 */
export async function measureColdStarts(
  workDir: string,
  rounds: number,
  runs = 3,
): Promise<{ sizes: BundleSize[]; starts: ColdStart[] }> {
  const sizes: BundleSize[] = [];
  for (const name of functions) sizes.push(await bundleFunction(name, workDir));
  const runnerFile = join(workDir, 'runner.mjs');
  await build({
    entryPoints: [runner],
    outfile: runnerFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });

  const stub = await startDynamoDbStub();
  try {
    const starts: ColdStart[] = [];
    for (const { runtime, node } of benchRuntimes()) {
      const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
      const events = cases.map((coldCase) => JSON.stringify(buildEvent(coldCase.event)));
      // samples[case][run]: the fresh processes of that case in that run.
      const samples: RunSample[][][] = cases.map(() => Array.from({ length: runs }, () => []));
      for (let run = 0; run < runs; run++) {
        for (let round = 0; round < rounds; round++) {
          for (let turn = 0; turn < cases.length; turn++) {
            const index = (round + turn) % cases.length;
            const bundle = join(workDir, cases[index]!.function, 'index.mjs');
            samples[index]![run]!.push(
              await runOnce(node, runnerFile, bundle, events[index]!, stub.endpoint),
            );
          }
        }
      }
      cases.forEach((coldCase, index) => {
        const all = samples[index]!.flat();
        starts.push({
          name: coldCase.name,
          function: coldCase.function,
          runtime,
          nodeVersion,
          runsMs: all.map((sample) => sample.totalMs),
          runMediansMs: samples[index]!.map((run) => median(run.map((sample) => sample.totalMs))),
          medianMs: median(all.map((sample) => sample.totalMs)),
          medianImportedMs: median(all.map((sample) => sample.importedMs)),
          medianAnsweredMs: median(all.map((sample) => sample.answeredMs)),
        });
      });
    }
    return { sizes, starts };
  } finally {
    await stub.close();
  }
}

async function bundleFunction(name: FunctionName, workDir: string): Promise<BundleSize> {
  const outdir = join(workDir, name);
  const outfile = join(outdir, 'index.mjs');
  const entry = join(projectRoot, entries[name]);
  const { metafile } = await build({
    ...toEsbuildOptions(lambdaBundleOptions(), { entry, outdir }),
    metafile: true,
    logLevel: 'warning',
  });
  // Metafile paths are relative to the working directory esbuild ran in.
  const entryPath = Object.keys(metafile.outputs).find((file) => resolve(projectRoot, file) === outfile);
  if (entryPath === undefined) throw new Error(`esbuild wrote no ${outfile}`);
  const loaded = staticClosure(metafile.outputs, entryPath);
  const codes = await Promise.all([...loaded].map((file) => readFile(resolve(projectRoot, file))));
  const chunks = Object.entries(metafile.outputs)
    .filter(([file]) => file.endsWith('.mjs') && !loaded.has(file))
    .map(([file, output]) => ({ name: basename(file), bytes: output.bytes }))
    .sort((a, b) => b.bytes - a.bytes);
  return {
    function: name,
    minifiedBytes: codes.reduce((sum, code) => sum + code.length, 0),
    gzipBytes: codes.reduce((sum, code) => sum + gzipSync(code, { level: 9 }).length, 0),
    largest: largestParts(metafile, loaded),
    chunks,
  };
}

/** Output bytes of the `loaded` outputs by npm package (or by source folder for our code), from esbuild's metafile. */
function largestParts(metafile: Metafile, loaded: ReadonlySet<string>): { name: string; bytes: number }[] {
  const byPart = new Map<string, number>();
  for (const file of loaded) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[file]?.inputs ?? {})) {
      const name =
        /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.split('/').slice(0, 2).join('/');
      byPart.set(name, (byPart.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...byPart]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 8);
}

interface RunSample {
  readonly totalMs: number;
  readonly importedMs: number;
  readonly answeredMs: number;
}

/** One fresh process: spawn, import, answer. Its environment is what Lambda would give it, and no more. */
function runOnce(
  node: string,
  runnerFile: string,
  bundle: string,
  event: string,
  endpoint: string,
): Promise<RunSample> {
  return new Promise((resolveRun, reject) => {
    const startedAt = performance.now();
    const child = spawn(node, [runnerFile, bundle, event], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        TABLE_NAME: 'marginalia',
        IP_HASH_SALT: 'marginalia-cold-start-salt-0123456789',
        DYNAMODB_ENDPOINT: endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'AKIDCOLDSTART',
        AWS_SECRET_ACCESS_KEY: 'cold-start',
        AWS_SESSION_TOKEN: 'cold-start',
        // Node 20 runs the bench; the functions run on Node 22, where the SDK has nothing to warn about.
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
    let stdout = '';
    let stderr = '';
    let answered: RunSample | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (answered || !stdout.includes('\n')) return;
      const totalMs = performance.now() - startedAt;
      const line = JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as {
        statusCode: number;
        importedMs: number;
        answeredMs: number;
      };
      if (line.statusCode !== 200) {
        reject(new Error(`cold start answered ${line.statusCode}: ${stderr}`));
        return;
      }
      answered = { totalMs, importedMs: line.importedMs, answeredMs: line.answeredMs };
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (answered) resolveRun(answered);
      else reject(new Error(`the cold-start runner exited (code ${code}) without answering:\n${stderr}`));
    });
  });
}
