/**
 * The cold-start targets, from the figures of cold-start.ts: each measured in runs of its own (every case once per
 * round, in turns), each run's ratio taken within that run, and the median of the runs' ratios kept, so that a
 * host that slows during one run moves the reference with the function instead of deciding the verdict.
 */
import type { ColdStart } from './cold-start.js';
import { median } from './measure.js';

/** The targets of issue 25, on Lambda's Node.js. */
export const coldStartTargets = {
  /** The comment list and the article count: at most this many times the SDK alone. */
  sdkFactor: 1.15,
  /** The first submit: at most this many times the renderer alone plus what the list adds. */
  submitFactor: 1.15,
} as const;

/** The cases held to the SDK-alone factor. */
export const sdkFactorCases: readonly string[] = ['comment: list', 'article: reading counts'];

/** One target's ratio: its median over the runs, and each run's. */
export interface RunRatio {
  readonly median: number;
  readonly runs: readonly number[];
}

/** The ratio of each run's median of `start` to that of `base`, and their median; undefined without both. */
function ratioByRun(start: ColdStart | undefined, base: readonly number[] | undefined): RunRatio | undefined {
  if (!start || !base || base.length !== start.runMediansMs.length || base.some((value) => value <= 0)) {
    return undefined;
  }
  const runs = start.runMediansMs.map((value, run) => value / base[run]!);
  return { median: median(runs), runs };
}

/** The starts of one runtime, by case name. */
function startsOf(starts: readonly ColdStart[], runtime: ColdStart['runtime']) {
  return (name: string) => starts.find((start) => start.runtime === runtime && start.name === name);
}

/** `start`'s cold start over the SDK alone's on the same Node.js, run by run. */
export function sdkFactor(start: ColdStart, starts: readonly ColdStart[]): RunRatio | undefined {
  const reference = starts.find(
    (candidate) => candidate.function === 'sdk-alone' && candidate.runtime === start.runtime,
  );
  return ratioByRun(start, reference?.runMediansMs);
}

/**
 * The first submit's yardstick, run by run: the renderer alone (a process that loads the renderer and renders one
 * comment) plus what the list adds to an empty function (the SDK, the function's code, one read): the least a
 * function that reads the table and renders can take, in ms.
 */
export function submitYardstickMs(
  starts: readonly ColdStart[],
  runtime: ColdStart['runtime'],
): number[] | undefined {
  const of = startsOf(starts, runtime);
  const [renderer, list, empty] = [
    of('the markdown renderer alone: one first render'),
    of('comment: list'),
    of('nothing: an empty handler'),
  ];
  if (!renderer || !list || !empty) return undefined;
  return renderer.runMediansMs.map(
    (value, run) => value + list.runMediansMs[run]! - empty.runMediansMs[run]!,
  );
}

/** The first submit over its yardstick, run by run. */
export function submitFactor(
  starts: readonly ColdStart[],
  runtime: ColdStart['runtime'],
): RunRatio | undefined {
  return ratioByRun(startsOf(starts, runtime)('comment: submit'), submitYardstickMs(starts, runtime));
}

/**
 * What the list's target leaves for the list's own code, run by run: 1.15x the SDK alone less the SDK alone
 * sending the list's requests (sdk-list-requests-handler.ts), in ms; undefined without both.
 */
export function listRoomMs(
  starts: readonly ColdStart[],
  runtime: ColdStart['runtime'],
): number[] | undefined {
  const of = (fn: ColdStart['function']) =>
    starts.find((start) => start.runtime === runtime && start.function === fn);
  const [reference, requests] = [of('sdk-alone'), of('sdk-list-requests')];
  if (!reference || !requests) return undefined;
  return reference.runMediansMs.map(
    (value, run) => coldStartTargets.sdkFactor * value - requests.runMediansMs[run]!,
  );
}
