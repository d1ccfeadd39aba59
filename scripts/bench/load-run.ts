/**
 * One load case against the server: a warm-up, then the measured run, each with autocannon in this process
 * (the server runs in its own), sampling the server's and DynamoDB Local's CPU and memory around the run.
 */
import autocannon, { type RequestShape, type Result } from 'autocannon';
import type { LoadCase } from './load-cases.js';
import { type ProcessSample, sampleProcess } from './process-stats.js';
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

/** The figures of one case. */
export interface LoadOutcome {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Answers autocannon saw that were not 2xx, plus errors and timeouts, in warm-up and run. */
  readonly non2xx: number;
  readonly errors: number;
  /** Requests the server answered during the measured run (including those the client hung up on). */
  readonly serverAnswered: number;
  /** Those answers by HTTP status. */
  readonly serverStatuses: Record<string, number>;
  readonly node: ProcessCost;
  readonly dynamodb: ProcessCost;
  /** Cores the load generator (this process, autocannon) kept busy. */
  readonly loadGeneratorCores: number;
  /** The pageview case only: how the counter moved against the accepted POSTs. */
  readonly pageviews?: PageviewCheck;
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

/** Runs `loadCase`; `readCounter` reads the pageview counter (used by the POST case). */
export async function runLoadCase(
  loadCase: LoadRequest,
  settings: LoadSettings,
  processes: Processes,
  readCounter: () => Promise<number>,
): Promise<LoadOutcome> {
  const { server, dynamodbPid } = processes;
  const isPost = loadCase.pageviewCounter === true;
  const counterBefore = isPost ? await readCounter() : 0;
  const statsBefore = await server.waitUntilIdle();

  const warmup = await fire(server.base, loadCase, settings.connections, settings.warmupSeconds);
  const start = await snapshot(server, dynamodbPid);
  const ownCpu = process.cpuUsage();
  const run = await fire(server.base, loadCase, settings.connections, settings.durationSeconds);
  const ownCpuMs = cpuMs(process.cpuUsage(ownCpu));
  const end = await snapshot(server, dynamodbPid);

  const serverAnswered = end.stats.answered - start.stats.answered;
  const wallMs = run.duration * 1000;
  const perRequest = (before: ProcessSample, after: ProcessSample): ProcessCost => ({
    cpuMsPerRequest: serverAnswered > 0 ? (after.cpuMs - before.cpuMs) / serverAnswered : 0,
    coresBusy: (after.cpuMs - before.cpuMs) / wallMs,
    peakRssBytes: after.peakRssBytes,
  });
  const outcome: LoadOutcome = {
    name: loadCase.name,
    requestsPerSecond: run.requests.average,
    p50Ms: run.latency.p50,
    p99Ms: run.latency.p99,
    non2xx: warmup.non2xx + run.non2xx,
    errors: warmup.errors + run.errors,
    serverAnswered,
    serverStatuses: Object.fromEntries(
      Object.entries(end.stats.byStatus).map(([status, count]) => [
        status,
        count - (start.stats.byStatus[status] ?? 0),
      ]),
    ),
    node: perRequest(start.node, end.node),
    dynamodb: perRequest(start.dynamodb, end.dynamodb),
    loadGeneratorCores: ownCpuMs / wallMs,
  };
  if (!isPost) return outcome;

  const counterAfter = await readCounter();
  const serverAccepted = end.stats.acceptedPageviews - statsBefore.acceptedPageviews;
  return {
    ...outcome,
    pageviews: {
      clientAccepted: warmup['2xx'] + run['2xx'],
      serverAccepted,
      counterBefore,
      counterAfter,
      lost: serverAccepted - (counterAfter - counterBefore),
    },
  };
}

/**
 * Sends `loadCase` for `seconds` and discards the figures. A fresh JVM needs tens of seconds of load
 * before its JIT settles (DynamoDB Local's CPU per request falls about threefold), far more than the
 * 2 s warm-up of each case, so a first pass over every case warms both processes before any is measured.
 */
export async function warmUp(base: string, loadCase: LoadRequest, settings: LoadSettings, seconds: number) {
  await fire(base, loadCase, settings.connections, seconds);
}

/** Waits until the server is idle, then samples both processes and the server's counts together. */
async function snapshot(server: BenchServer, dynamodbPid: number) {
  const stats: ServerStats = await server.waitUntilIdle();
  const [node, dynamodb] = await Promise.all([sampleProcess(server.pid), sampleProcess(dynamodbPid)]);
  return { stats, node, dynamodb };
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
