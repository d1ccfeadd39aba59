import { describe, expect, it } from 'vitest';
import type { ColdStart } from '../../../../scripts/bench/cold-start.js';
import type { LoadCase } from '../../../../scripts/bench/load-cases.js';
import type {
  CaseFigures,
  LoadOutcome,
  ProcessCost,
  WalineOutcome,
} from '../../../../scripts/bench/load-run.js';
import {
  failures,
  formatBareFloors,
  formatChecks,
  formatLoad,
  formatWalineLoad,
  walineBaseline,
} from '../../../../scripts/bench/report.js';

const cost = (cpuMsPerRequest: number): ProcessCost => ({
  cpuMsPerRequest,
  coresBusy: 0.5,
  peakRssBytes: 200 * 1024 ** 2,
});

const figures = (name: string, requestsPerSecond: number, more: Partial<CaseFigures> = {}): CaseFigures => ({
  name,
  requestsPerSecond,
  p50Ms: 20,
  p99Ms: 80,
  non2xx: 0,
  errors: 0,
  refused: 0,
  serverAnswered: 1000,
  serverStatuses: { '200': 1000 },
  loadGeneratorCores: 0.3,
  ...more,
});

const ours = (
  name: string,
  requestsPerSecond: number,
  nodeCpu: number,
  dynamodbCpu: number,
): LoadOutcome => ({
  ...figures(name, requestsPerSecond),
  node: cost(nodeCpu),
  dynamodb: cost(dynamodbCpu),
});

const theirs = (name: string, requestsPerSecond: number, cpu: number, more: Partial<CaseFigures> = {}) =>
  ({ ...figures(name, requestsPerSecond, more), waline: cost(cpu) }) satisfies WalineOutcome;

const cases = [
  { name: 'list-30', waline: { requestsPerSecond: 89, p50Ms: 493, p99Ms: 2693, cpuMsPerRequest: 22.7 } },
] as unknown as readonly LoadCase[];

describe('walineBaseline', () => {
  it('gives the fixed figures of the cases when Waline did not run in this run', () => {
    const baseline = walineBaseline(cases);

    expect(baseline.measured).toBeUndefined();
    expect(baseline.figures('list-30')).toEqual(cases[0]?.waline);
  });

  it("gives Waline's measured figures, its process tree's CPU included, when it ran in this run", () => {
    const baseline = walineBaseline(cases, [theirs('list-30', 150, 12.5)]);

    expect(baseline.figures('list-30')).toEqual({
      requestsPerSecond: 150,
      p50Ms: 20,
      p99Ms: 80,
      cpuMsPerRequest: 12.5,
    });
    expect(baseline.figures('count')).toBeUndefined();
  });
});

describe('failures', () => {
  it('counts 2xx answers refused with an errno beside non-2xx answers and errors', () => {
    expect(failures(figures('comment-post', 10, { non2xx: 2, errors: 1, refused: 40 }))).toBe(43);
  });
});

describe('formatLoad', () => {
  it("shows the fixed Waline column only when Waline's figures are not measured in this run", () => {
    const outcomes = [ours('list-30', 900, 1, 1)];

    expect(formatLoad(outcomes, walineBaseline(cases))).toContain('89 / 493 / 2693 / 22.7');
    expect(formatLoad(outcomes, walineBaseline(cases, [theirs('list-30', 150, 12)]))).not.toContain('Waline');
  });
});

describe('formatWalineLoad', () => {
  it("gives the ratios of Marginalia's server and DynamoDB Local over Waline's process tree, and its failures with its refusals", () => {
    const text = formatWalineLoad(
      [ours('comment-post', 300, 2, 1)],
      [theirs('comment-post', 100, 12, { refused: 5, non2xx: 3 })],
    );

    const row = text.split('\n')[2];
    expect(row).toBe('| comment-post | 100 | 20 | 80 | 8 (5 errno) | 12.00 | 0.50 | 200 | 0.25x | 3.00x |');
  });
});

describe('formatChecks', () => {
  it("holds Marginalia to Waline's figures of this run and says they were measured in this run", () => {
    const lines = formatChecks(
      walineBaseline(cases, [theirs('list-30', 150, 12.345)]),
      [ours('list-30', 900, 1, 1)],
      [],
      [],
    );

    expect(lines).toContain(
      "list-30: Node CPU 1.00 ms/req, 12.3x below Waline's 12.35, measured in this run (target 10x): met",
    );
    expect(lines).toContain(
      "list-30: Node + DynamoDB Local CPU 2.00 ms/req against Waline's 12.35, 900 req/s against 150, measured in this run: ahead",
    );
    expect(lines).toContain('Waline: no non-2xx, error or refusal in any case');
  });

  it("says how far below Waline's CPU the case's requests, sent bare, leave room for", () => {
    const floor = { name: 'list-30', requests: ['Query roots-by-time', 'Query'], bareCpuMs: 4 };
    const lines = formatChecks(
      walineBaseline(cases, [theirs('list-30', 150, 30)]),
      [ours('list-30', 900, 6, 1)],
      [],
      [],
      [floor],
    );

    expect(lines).toContain(
      "list-30: Node CPU 6.00 ms/req, 5.0x below Waline's 30, measured in this run (target 10x): NOT met; " +
        'its DynamoDB requests alone, sent bare, cost 4.00 ms: no server that sends them can be more than 7.5x ' +
        'below Waline',
    );
  });

  it('reports the cases Waline failed, and its lost pageview updates', () => {
    const pageviews = {
      clientAccepted: 90,
      serverAccepted: 100,
      counterBefore: 0,
      counterAfter: 100,
      lost: 0,
    };
    const lines = formatChecks(
      walineBaseline(cases, [
        theirs('article-post', 200, 2, {
          refused: 7,
          pageviews: { ...pageviews, serverAccepted: 2504, counterAfter: 114, lost: 2390 },
        }),
      ]),
      [{ ...ours('article-post', 800, 0.5, 0.5), pageviews }],
      [],
      [],
    );

    expect(lines).toContain('Waline: non-2xx, errors or refusals (2xx with an errno) in: article-post (7)');
    expect(lines.find((line) => line.startsWith('article-post: the server'))).toMatch(
      /no update lost \(Waline, measured in this run: 2504 accepted, \+114: 2390 LOST\)$/,
    );
    expect(lines.find((line) => line.startsWith('article-post: Node'))).toMatch(
      /ahead \(Waline failed 7 requests\)$/,
    );
  });
});

describe('formatBareFloors', () => {
  it('sets each floor beside the server under load and Waline', () => {
    const text = formatBareFloors(
      [{ name: 'list-30', requests: ['Query roots-by-time', 'GetItem'], bareCpuMs: 2.5 }],
      [ours('list-30', 900, 5, 1)],
      walineBaseline(cases, [theirs('list-30', 150, 25)]),
    );

    expect(text).toContain('| list-30 | Query roots-by-time, GetItem | 2.50 | 5.00 | 2.00x | 25 | 10.0x |');
  });
});

describe('the cold-start yardsticks', () => {
  const start = (name: string, fn: ColdStart['function'], medianMs: number): ColdStart => ({
    name,
    function: fn,
    runtime: 'project',
    nodeVersion: 'v20.0.0',
    runsMs: [medianMs],
    medianMs,
    medianImportedMs: medianMs / 2,
    medianAnsweredMs: medianMs,
  });

  it('holds the yardsticks to no target, and sets a first render against what the target leaves', () => {
    const starts = [
      start('AWS SDK alone', 'sdk-alone', 160),
      start('nothing', 'empty', 60),
      start('renderer', 'renderer-alone', 116),
    ];

    const lines = formatChecks(walineBaseline(cases), [], [], starts);

    expect(lines.filter((line) => line.startsWith('cold start'))).toEqual([
      'cold start of the AWS SDK alone (the least a function on it can do here), Node v20.0.0: 160 ms',
    ]);
    expect(lines).toContain(
      'first render alone (markdown-it, its plugins, sanitize-html), Node v20.0.0: 56 ms on top of an empty ' +
        "function's cold start; the 1.15x target leaves 24 ms above the SDK alone for all a function adds: a " +
        'first submit CANNOT meet it while it renders',
    );
  });
});
