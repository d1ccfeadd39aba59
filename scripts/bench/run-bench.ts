/**
 * `npm run bench`: bundle sizes and cold starts, the DynamoDB cost of each operation, then throughput,
 * latency, CPU and memory under load, beside the real Waline server's. Everything listens on 127.0.0.1;
 * every process it starts is stopped at the end, on Ctrl-C and on failure.
 *
 * Waline: once `npm run bench:waline` has installed it in .bench/waline/ (waline-install.ts), the load
 * section runs it too (waline-server.ts), seeded alike, each case right after Marginalia's with the same
 * settings, and holds Marginalia to the figures of this run. Without it, the load section compares with
 * fixed figures measured on another day (load-cases.ts) and says so; `--waline` makes Waline required.
 *
 * Then the scale case (scale-case.ts): an article of 10,000 comments beside one of 30, list cache off.
 *
 * Options: --duration=10 --warmup=2 --connections=50 --cold-runs=10 --jit-warmup=10 (seconds, connections,
 * rounds of fresh processes in each of the three cold-start runs, and seconds of each case in the first,
 * unmeasured pass that warms the JIT of Node and of the JVM);
 * --cost-rounds=40 (timed rounds of each piece of work of the cost section, after as many unmeasured ones);
 * --scale-duration=5 --scale-connections=10 --scale-jit-warmup=3 (the same for each request of the scale
 * case, which also takes --warmup); --only=cold-start,jvm,costs,cost,sdk,load,scale (the sections to run, all
 * but jvm by default: `npm run bench -- --only=scale` runs the scale case alone); --waline (fail unless Waline
 * is installed, rather than fall back to the fixed figures).
 *
 * The cost section (cost-run.ts, cost-summary.ts): the AWS cost of a million widget page loads and of a
 * thousand new comments with their notices, from the requests, units and Lambda milliseconds it measures at
 * the memory and architecture of the synthesized stack, and the stack's fixed monthly cost read from that
 * template (stack-fixed-costs.ts), at the dated list prices of prices.ts. `--only=cost` runs it alone.
 *
 * The jvm section (jvm-settings.ts): DynamoDB Local's CPU per storage call under each candidate set of JVM
 * options, which chose scripts/dynamodb-local.ts's engineJvmArgs.
 *
 * The sdk section (sdk-overhead.ts): the CPU of a GetItem, a BatchGetItem of 3 and a Query of 30 through the
 * functions' DynamoDB client against the same requests sent bare, on the project's Node.js and on Lambda's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatJvmFigures, type JvmFigures, jvmCandidates, measureJvm } from './jvm-settings.js';
import { projectRoot } from '../../lib/bundle-options.js';
import { createLocalDynamoDbClient, ensureTable } from '../create-table.js';
import { startDynamoDbLocal } from '../dynamodb-local.js';
import { type BareFloor, measureBareFloors } from './bare-floor.js';
import { startCapacityRecorder } from './capacity-recorder.js';
import { measureColdStarts } from './cold-start.js';
import { type LoadCase, loadCases, walineNotes } from './load-cases.js';
import {
  type LoadOutcome,
  type LoadSettings,
  measureLoad,
  readPageviews,
  runLoadCase,
  type WalineOutcome,
  warmUp,
} from './load-run.js';
import { describeMachine } from './machine.js';
import { measureOperationCosts, type OperationCost } from './operation-costs.js';
import { findChildren, type ProcessSample, sampleProcess, sampleProcesses } from './process-stats.js';
import {
  formatBareFloors,
  formatChecks,
  formatColdStarts,
  formatCores,
  formatAwsCost,
  formatAwsCostHeadline,
  formatCosts,
  formatLoad,
  formatMachine,
  formatScale,
  formatScaleChecks,
  formatSdkOverhead,
  formatSdkOverheadChecks,
  formatWalineLoad,
  walineBaseline,
  writeResults,
} from './report.js';
import { measureScale, type ScaleOutcome } from './scale-case.js';
import { measureAwsCost } from './cost-run.js';
import { type AwsCostSummary, summarizeCost } from './cost-summary.js';
import { prices, priceSource } from './prices.js';
import {
  functionNamed,
  readAccessLogFormat,
  readFixedCosts,
  readFunctionSettings,
} from './stack-fixed-costs.js';
import { sesNotifications, synthesizeStackTemplate } from './stack-template.js';
import { measureSdkOverheadOnRuntimes, type SdkOverhead } from './sdk-overhead.js';
import { seedData } from './seed.js';
import { startBenchServer } from './server-process.js';
import { isWalineInstalled, startWalineServer, walineDir, walineVersion } from './waline-server.js';

const tableName = 'marginalia-bench';
/** The parts of a run, in the order they run; `--only` picks some of them. */
const sections = ['cold-start', 'jvm', 'costs', 'cost', 'sdk', 'load', 'scale'] as const;
type Section = (typeof sections)[number];
/** What a run without `--only` runs: all but `jvm` (six engines, about a minute each: run it on purpose). */
const defaultSections = sections.filter((section) => section !== 'jvm');
const cleanups: (() => Promise<unknown>)[] = [];
let stopping = false;

/** Runs the registered cleanups, newest first; each failure is reported and the rest still run. */
async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop();
    await cleanup?.().catch((error: unknown) => console.error('bench: cleanup failed:', error));
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    console.error(`\nbench: ${signal}, stopping everything...`);
    void cleanUp().finally(() => process.exit(130));
  });
}

try {
  await main();
  await cleanUp();
  process.exit(0);
} catch (error) {
  console.error('bench failed:', error);
  await cleanUp();
  process.exit(1);
}

async function main(): Promise<void> {
  const options = parseSettings();
  const runs = (section: Section) => options.only.includes(section);
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
  const sideBySide = runs('load') && isWalineInstalled();
  if (options.waline && !sideBySide) {
    throw new Error(
      runs('load')
        ? `--waline: Waline is not installed in ${walineDir} (or does not load): run \`npm run bench:waline\` first`
        : '--waline needs the load section (--only=...,load)',
    );
  }
  const startedAt = new Date();
  const machine = describeMachine();
  console.log(`# Marginalia benchmark, ${startedAt.toISOString()}\n\n${formatMachine(machine)}\n`);

  // Cold starts first, while nothing else runs on the machine.
  let coldStart: Awaited<ReturnType<typeof measureColdStarts>> | undefined;
  if (runs('cold-start')) {
    const workDir = await mkdtemp(join(tmpdir(), 'marginalia-bench-'));
    cleanups.push(() => rm(workDir, { recursive: true, force: true }));
    console.log(`## Bundles and cold starts (three runs of ${options.coldRuns} rounds of fresh processes)\n`);
    coldStart = await measureColdStarts(workDir, options.coldRuns);
    console.log(`${formatColdStarts(coldStart.sizes, coldStart.starts)}\n`);
  }

  if (runs('jvm')) {
    console.log('## DynamoDB Local: CPU per call under each set of JVM options (median of 3 rounds)\n');
    const figures: JvmFigures[] = [];
    for (const candidate of jvmCandidates) figures.push(await measureJvm(candidate));
    console.log(`${formatJvmFigures(figures)}\n`);
  }

  console.log('Starting DynamoDB Local (in memory)...');
  const dynamodb = await startDynamoDbLocal();
  cleanups.push(() => dynamodb.stop());
  const [dynamodbPid] = await findChildren(process.pid, 'java');
  if (dynamodbPid === undefined) throw new Error('cannot find the DynamoDB Local process');
  const admin = createLocalDynamoDbClient(dynamodb.endpoint);
  try {
    await ensureTable(admin, tableName);
  } finally {
    admin.destroy();
  }
  const server = await startBenchServer({ endpoint: dynamodb.endpoint, tableName });
  cleanups.push(() => server.stop());
  // The same handlers with the list cache off, for the cases that measure a DynamoDB read per request.
  const uncachedServer = await startBenchServer({ endpoint: dynamodb.endpoint, tableName, listCacheMs: 0 });
  cleanups.push(() => uncachedServer.stop());
  const serverFor = (loadCase: LoadCase) => (loadCase.server === 'uncached' ? uncachedServer : server);
  console.log(`Serving on ${server.base} (and ${uncachedServer.base}, list cache off); seeding...`);
  const ids = await seedData(server.base);

  const recorder = await startCapacityRecorder(dynamodb.endpoint);
  cleanups.push(() => recorder.close());
  let costs: OperationCost[] | undefined;
  if (runs('costs')) {
    costs = await measureOperationCosts({
      recorderEndpoint: recorder.endpoint,
      tableName,
      ids,
      take: () => recorder.take(),
    });
    console.log('\n## DynamoDB requests and capacity per operation (as DynamoDB Local reports them)\n');
    console.log(`${formatCosts(costs)}\n`);
  }

  let awsCost: AwsCostSummary | undefined;
  if (runs('cost')) {
    console.log('Synthesizing the stack (defaults, and with SES mail) for its settings and fixed costs...');
    const template = synthesizeStackTemplate();
    const withMail = readFixedCosts(synthesizeStackTemplate({ notifications: sesNotifications }), prices);
    const deployed = readFunctionSettings(template);
    const functions = {
      comment: functionNamed(deployed, 'CommentFunction'),
      article: functionNamed(deployed, 'ArticleFunction'),
      notify: functionNamed(deployed, 'NotifierFunction'),
    };
    const measurement = await measureAwsCost({
      endpoint: dynamodb.endpoint,
      recorderEndpoint: recorder.endpoint,
      take: () => recorder.take(),
      tableName,
      accessLogFormat: readAccessLogFormat(template),
      functions,
      rounds: options.costRounds,
    });
    awsCost = summarizeCost(measurement, functions, readFixedCosts(template, prices), prices);
    console.log(
      `\n## What it costs on AWS (${priceSource.region} list prices; ${options.costRounds} timed rounds of each, ` +
        'the list cache off)\n',
    );
    console.log(`${formatAwsCost(awsCost, withMail)}\n`);
  }

  let sdk: SdkOverhead[] | undefined;
  if (runs('sdk')) {
    console.log(
      "## The DynamoDB call: CPU through the functions' client against the bare exchange (median of rounds)\n",
    );
    sdk = await measureSdkOverheadOnRuntimes(dynamodb.endpoint);
    console.log(`${formatSdkOverhead(sdk)}\n`);
  }

  const settings: LoadSettings = {
    connections: options.connections,
    warmupSeconds: options.warmup,
    durationSeconds: options.duration,
  };
  let idle: { node: ProcessSample; dynamodb: ProcessSample; waline?: ProcessSample } | undefined;
  let floors: BareFloor[] = [];
  const outcomes: LoadOutcome[] = [];
  const walineOutcomes: WalineOutcome[] = [];
  if (runs('load')) {
    const waline = sideBySide ? await startWalineServer() : undefined;
    if (waline) {
      cleanups.push(() => waline.stop());
      console.log(`Waline ${walineVersion} (SQLite, one worker) on ${waline.base}; seeding it alike...`);
      await seedData(waline.base);
    }
    // Before the load: what the uncached cases' answers ask of DynamoDB, sent bare (bare-floor.ts).
    floors = await measureBareFloors(
      {
        recorderEndpoint: recorder.endpoint,
        take: () => recorder.take(),
        endpoint: dynamodb.endpoint,
        tableName,
      },
      loadCases.filter((loadCase) => loadCase.server === 'uncached'),
    );
    await Promise.all([server.waitUntilIdle(), waline?.waitUntilIdle()]);
    idle = {
      node: await sampleProcess(server.pid),
      dynamodb: await sampleProcess(dynamodbPid),
      ...(waline && { waline: await sampleProcesses(await waline.pids()) }),
    };
    console.log(
      `Idle RSS after seeding: Node ${mib(idle.node.rssBytes)} MiB, DynamoDB Local ${mib(idle.dynamodb.rssBytes)} MiB ` +
        `(Waline: ${idle.waline ? `${mib(idle.waline.rssBytes)} MiB, its process tree` : `${walineNotes.idleMemoryMiB} MiB`}).\n`,
    );
    console.log(
      `## Load: autocannon, ${settings.connections} connections, ${settings.durationSeconds} s after a ` +
        `${settings.warmupSeconds} s warm-up, one case at a time${waline ? ', Marginalia then Waline on each' : ''}, ` +
        `after a first unmeasured pass of ${options.jitWarmup} s a case\n`,
    );
    if (!waline) {
      console.log(
        "Waline's figures here are fixed ones, measured on another day (load-cases.ts), not in this run: " +
          '`npm run bench:waline` installs Waline once, and this section then runs it side by side.\n',
      );
    }
    if (options.jitWarmup > 0) {
      console.log(`Warming up: every case for ${options.jitWarmup} s, not measured...`);
      for (const loadCase of loadCases) {
        await warmUp(serverFor(loadCase).base, loadCase, settings, options.jitWarmup);
        if (waline) await warmUp(waline.base, loadCase, settings, options.jitWarmup);
      }
    }
    for (const loadCase of loadCases) {
      process.stdout.write(`  ${loadCase.name}... `);
      const outcome = await runLoadCase(
        loadCase,
        settings,
        { server: serverFor(loadCase), dynamodbPid },
        () => readPageviews(server.base),
      );
      outcomes.push(outcome);
      process.stdout.write(`${outcome.requestsPerSecond.toFixed(0)} req/s`);
      if (waline) {
        const theirs = await measureLoad(loadCase, settings, waline, () => readPageviews(waline.base));
        walineOutcomes.push(theirs);
        process.stdout.write(`; Waline ${theirs.requestsPerSecond.toFixed(0)} req/s`);
      }
      console.log();
    }
    console.log(`\n${formatLoad(outcomes, walineBaseline(loadCases, waline && walineOutcomes))}\n`);
    if (waline) {
      console.log(
        `Waline ${walineVersion}, measured in this run, each case right after Marginalia's. It has no list ` +
          'cache: its "uncached" rows are the same request again. errno: answers of HTTP 200 that carry an ' +
          'error, such as "Comment too fast!" (its per-IP check, turned off as Marginalia\'s is: ' +
          `waline-server.ts).\n\n${formatWalineLoad(outcomes, walineOutcomes)}\n`,
      );
      await waline.stop();
    }
    console.log(`CPU cores kept busy during each run:\n\n${formatCores(outcomes, machine.cpus)}\n`);
    console.log(
      '## The floor: the DynamoDB requests of one uncached answer, sent bare (signed, node:http, ' +
        `JSON.parse; median of rounds)\n\n${formatBareFloors(floors, outcomes, walineBaseline(loadCases, waline && walineOutcomes))}\n`,
    );
  }

  // Last: its 10,000 comments would otherwise be the site's recent ones in the recent case.
  let scale: ScaleOutcome | undefined;
  if (runs('scale')) {
    const scaleSettings: LoadSettings = {
      ...settings,
      connections: options.scaleConnections,
      durationSeconds: options.scaleDuration,
    };
    console.log(
      `## Scale: an article of 10,000 comments beside one of 30, list cache off; autocannon, ` +
        `${scaleSettings.connections} connections, ${scaleSettings.durationSeconds} s after a ` +
        `${scaleSettings.warmupSeconds} s warm-up, after a first unmeasured pass of ${options.scaleJitWarmup} s a request\n`,
    );
    scale = await measureScale({
      endpoint: dynamodb.endpoint,
      recorder,
      tableName,
      server: uncachedServer,
      dynamodbPid,
      load: scaleSettings,
      jitWarmupSeconds: options.scaleJitWarmup,
      log: (text) => process.stdout.write(text),
    });
    console.log(`\n${formatScale(scale)}\n`);
  }

  const checks = [
    ...(coldStart || outcomes.length > 0
      ? formatChecks(
          walineBaseline(loadCases, sideBySide ? walineOutcomes : undefined),
          outcomes,
          coldStart?.sizes ?? [],
          coldStart?.starts ?? [],
          floors,
        )
      : []),
    ...(scale ? formatScaleChecks(scale) : []),
    ...(sdk ? formatSdkOverheadChecks(sdk) : []),
    ...(awsCost ? [formatAwsCostHeadline(awsCost)] : []),
  ];
  console.log(`## Targets\n\n${checks.map((line) => `- ${line}`).join('\n')}\n`);

  const file = await writeResults(join(projectRoot, '.bench'), startedAt, {
    startedAt,
    machine,
    settings: {
      ...settings,
      only: options.only,
      coldRuns: options.coldRuns,
      jitWarmupSeconds: options.jitWarmup,
      scaleDurationSeconds: options.scaleDuration,
      scaleConnections: options.scaleConnections,
      scaleJitWarmupSeconds: options.scaleJitWarmup,
      waline: sideBySide ? walineVersion : 'fixed figures (load-cases.ts)',
    },
    coldStart,
    costs,
    awsCost: awsCost && {
      ...awsCost,
      // The figures without every invocation's time (rounds x functions of them).
      work: awsCost.work.map(({ usage, ...work }) => ({
        ...work,
        usage: { ...usage, invocations: usage.invocations.length },
      })),
    },
    sdk,
    idle,
    load: outcomes,
    floors,
    waline: sideBySide ? walineOutcomes : undefined,
    scale,
    checks,
  });
  console.log(`Results: ${file}`);
}

function parseSettings() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      'cold-runs': { type: 'string', default: '10' },
      'jit-warmup': { type: 'string', default: '10' },
      'scale-duration': { type: 'string', default: '5' },
      'scale-connections': { type: 'string', default: '10' },
      'scale-jit-warmup': { type: 'string', default: '3' },
      'cost-rounds': { type: 'string', default: '40' },
      only: { type: 'string', default: defaultSections.join(',') },
      waline: { type: 'boolean', default: false },
    },
  });
  const whole = (name: string, value: string, minimum: number) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < minimum) {
      throw new Error(`--${name} must be a whole number of at least ${minimum}`);
    }
    return number;
  };
  const positive = (name: string, value: string) => whole(name, value, 1);
  return {
    duration: positive('duration', values.duration),
    warmup: positive('warmup', values.warmup),
    connections: positive('connections', values.connections),
    coldRuns: positive('cold-runs', values['cold-runs']),
    jitWarmup: whole('jit-warmup', values['jit-warmup'], 0),
    scaleDuration: positive('scale-duration', values['scale-duration']),
    scaleConnections: positive('scale-connections', values['scale-connections']),
    costRounds: positive('cost-rounds', values['cost-rounds']),
    scaleJitWarmup: whole('scale-jit-warmup', values['scale-jit-warmup'], 0),
    only: parseSections(values.only),
    waline: values.waline,
  };
}

/** The sections `--only` names, comma-separated; each must be one of `sections`. */
function parseSections(value: string): Section[] {
  const named = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = named.filter((name) => !(sections as readonly string[]).includes(name));
  if (named.length === 0 || unknown.length > 0) {
    throw new Error(
      `--only takes a comma-separated list of ${sections.join(', ')}; got ${JSON.stringify(value)}`,
    );
  }
  return sections.filter((section) => named.includes(section));
}

function mib(bytes: number): string {
  return (bytes / 1024 ** 2).toFixed(0);
}
