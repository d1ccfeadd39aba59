/**
 * One load case against a server: a warm-up, then the measured run, each with autocannon in this process
 * (the server runs in its own), sampling the CPU and memory of the server's processes around the run:
 * Marginalia's server and DynamoDB Local apart, or Waline's process tree (waline-server.ts).
 */
import autocannon, { type RequestShape, type Result } from 'autocannon';
import type { LoadCase } from './load-cases.js';
import { type ProcessSample, sampleProcess } from './process-stats.js';
import { seeded } from './seed.js';
import type { BenchServer, ServerStats } from './server-process.js';

/** How hard and how long to push. */
export interface LoadSettings {
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
}

/** What one process spent during the measured run. */
export interface ProcessCost {
  readonly cpuMsPerRequest: number;
  /** CPU time over wall time of the run: 1 is one core kept busy the whole time. */
  readonly coresBusy: number;
  readonly peakRssBytes: number;
}

/** The figures of one case that any server has. */
export interface CaseFigures {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Answers autocannon saw that were not 2xx, plus errors and timeouts, in warm-up and run. */
  readonly non2xx: number;
  readonly errors: number;
  /** 2xx answers with a non-zero errno (Waline's refusals: ServerStats.refused), in warm-up and run. */
  readonly refused: number;
  /** Requests the server answered during the measured run (including those the client hung up on). */
  readonly serverAnswered: number;
  /** Those answers by HTTP status. */
  readonly serverStatuses: Record<string, number>;
  /** Cores the load generator (this process, autocannon) kept busy. */
  readonly loadGeneratorCores: number;
  /** The pageview case only: how the counter moved against the accepted POSTs. */
  readonly pageviews?: PageviewCheck;
}

/** The figures of one case against Marginalia: its server and DynamoDB Local measured apart. */
export interface LoadOutcome extends CaseFigures {
  readonly node: ProcessCost;
  readonly dynamodb: ProcessCost;
}

/** The figures of one case against the real Waline: its whole process tree (SQLite runs in its worker). */
export interface WalineOutcome extends CaseFigures {
  readonly waline: ProcessCost;
}

/** The lost-update check of the pageview case. */
export interface PageviewCheck {
  /** 2xx answers autocannon received, warm-up included. */
  readonly clientAccepted: number;
  /** 2xx answers the server gave; more than the client saw when it hung up on requests in flight. */
  readonly serverAccepted: number;
  readonly counterBefore: number;
  readonly counterAfter: number;
  /** serverAccepted - (counterAfter - counterBefore): 0 when no increment was lost. */
  readonly lost: number;
}

/** What a run sends: one request, again and again. */
export type LoadRequest = Pick<
  LoadCase,
  'name' | 'method' | 'target' | 'body' | 'pageviewCounter' | 'uniqueBody'
>;

/** The pids to sample. */
export interface Processes {
  readonly server: BenchServer;
  readonly dynamodbPid: number;
}

/** A server under load: where it listens, what it counted, and the parts whose cost is measured apart. */
export interface LoadTarget<Part extends string> {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** Resolves once no request is in flight, with the server's counts. */
  waitUntilIdle(): Promise<ServerStats>;
  /** Reads each part's CPU and memory (a process, or a process tree). */
  readonly parts: Readonly<Record<Part, () => Promise<ProcessSample>>>;
}

/** Runs `loadCase` against Marginalia's server and DynamoDB Local; `readCounter` reads the pageviews. */
export async function runLoadCase(
  loadCase: LoadRequest,
  settings: LoadSettings,
  processes: Processes,
  readCounter: () => Promise<number>,
): Promise<LoadOutcome> {
  const { server, dynamodbPid } = processes;
  const target: LoadTarget<'node' | 'dynamodb'> = {
    base: server.base,
    waitUntilIdle: () => server.waitUntilIdle(),
    parts: { node: () => sampleProcess(server.pid), dynamodb: () => sampleProcess(dynamodbPid) },
  };
  return measureLoad(loadCase, settings, target, readCounter);
}

/**
 * Runs `loadCase` against `target`: a warm-up, then the measured run, sampling each part before and after it.
 * `readCounter` reads the pageview counter (used by the pageview case).
 */
export async function measureLoad<Part extends string>(
  loadCase: LoadRequest,
  settings: LoadSettings,
  target: LoadTarget<Part>,
  readCounter: () => Promise<number>,
): Promise<CaseFigures & Record<Part, ProcessCost>> {
  const isPost = loadCase.pageviewCounter === true;
  const counterBefore = isPost ? await readCounter() : 0;
  const statsBefore = await target.waitUntilIdle();

  const warmup = await fire(target.base, loadCase, settings.connections, settings.warmupSeconds);
  const start = await snapshot(target);
  const ownCpu = process.cpuUsage();
  const run = await fire(target.base, loadCase, settings.connections, settings.durationSeconds);
  const ownCpuMs = cpuMs(process.cpuUsage(ownCpu));
  const end = await snapshot(target);

  const serverAnswered = end.stats.answered - start.stats.answered;
  const wallMs = run.duration * 1000;
  const costs = Object.fromEntries(
    Object.entries<ProcessSample>(start.samples).map(([part, before]) => {
      const after = end.samples[part as Part];
      const cost: ProcessCost = {
        cpuMsPerRequest: serverAnswered > 0 ? (after.cpuMs - before.cpuMs) / serverAnswered : 0,
        coresBusy: (after.cpuMs - before.cpuMs) / wallMs,
        peakRssBytes: after.peakRssBytes,
      };
      return [part, cost];
    }),
  ) as Record<Part, ProcessCost>;
  const figures: CaseFigures = {
    name: loadCase.name,
    requestsPerSecond: run.requests.average,
    p50Ms: run.latency.p50,
    p99Ms: run.latency.p99,
    non2xx: warmup.non2xx + run.non2xx,
    errors: warmup.errors + run.errors,
    refused: (end.stats.refused ?? 0) - (statsBefore.refused ?? 0),
    serverAnswered,
    serverStatuses: Object.fromEntries(
      Object.entries(end.stats.byStatus).map(([status, count]) => [
        status,
        count - (start.stats.byStatus[status] ?? 0),
      ]),
    ),
    loadGeneratorCores: ownCpuMs / wallMs,
  };
  if (!isPost) return { ...figures, ...costs };

  const counterAfter = await readCounter();
  const serverAccepted = end.stats.acceptedPageviews - statsBefore.acceptedPageviews;
  const pageviews: PageviewCheck = {
    clientAccepted: warmup['2xx'] + run['2xx'],
    serverAccepted,
    counterBefore,
    counterAfter,
    lost: serverAccepted - (counterAfter - counterBefore),
  };
  return { ...figures, pageviews, ...costs };
}

/** Reads the pageview counter of seeded.pageviewPath at `base` (Waline's API: either server). */
export async function readPageviews(base: string): Promise<number> {
  const query = new URLSearchParams({ path: seeded.pageviewPath, type: 'time' });
  const response = await fetch(`${base}/api/article?${query}`);
  const body = (await response.json()) as { data?: { time?: number }[] };
  return body.data?.[0]?.time ?? 0;
}

/**
 * Sends `loadCase` for `seconds` and discards the figures. A fresh JVM needs tens of seconds of load
 * before its JIT settles (DynamoDB Local's CPU per request falls about threefold), far more than the
 * 2 s warm-up of each case, so a first pass over every case warms both processes before any is measured.
 */
export async function warmUp(base: string, loadCase: LoadRequest, settings: LoadSettings, seconds: number) {
  await fire(base, loadCase, settings.connections, seconds);
}

/** Waits until the server is idle, then samples every part and the server's counts together. */
async function snapshot<Part extends string>(target: LoadTarget<Part>) {
  const stats = await target.waitUntilIdle();
  const entries = Object.entries<() => Promise<ProcessSample>>(target.parts);
  const samples = await Promise.all(entries.map(async ([part, sample]) => [part, await sample()] as const));
  return { stats, samples: Object.fromEntries(samples) as Record<Part, ProcessSample> };
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

let sentBodies = 0;
/** The request with `[<id>]` in its body replaced by an id no other request of this process had. */
const uniqueBody = (request: RequestShape): RequestShape => ({
  ...request,
  body: request.body?.replace('[<id>]', `${process.pid}-${Date.now()}-${++sentBodies}`),
});

function fire(base: string, loadCase: LoadRequest, connections: number, seconds: number): Promise<Result> {
  return autocannon({
    url: `${base}${loadCase.target}`,
    method: loadCase.method,
    connections,
    duration: seconds,
    ...(loadCase.body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(loadCase.body) }),
    // `[<id>]` in the body becomes a new id on each request, and the request its own Content-Length.
    ...(loadCase.uniqueBody ? { requests: [{ setupRequest: uniqueBody }] } : {}),
  });
}
