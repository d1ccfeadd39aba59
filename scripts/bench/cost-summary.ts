/**
 * The cost section's figures, from what it measured and the stack's template: a million widget page loads,
 * a thousand new comments with their notices (root comments and replies apart), and the stack's fixed
 * monthly cost with its schedules' invocations. Pure: measurements, settings and prices in, dollars out.
 */
import { type CostBreakdown, costOf, meanBilledMs, scaleCost, type WorkUsage } from './aws-cost.js';
import type { BenchFunction, CostMeasurement } from './cost-run.js';
import type { Prices } from './prices.js';
import type { FunctionSettings, StackFixedCosts } from './stack-fixed-costs.js';

/** One piece of work, billed per `per` of it. */
export interface WorkCost {
  readonly work: string;
  /** How many of it the breakdown is for: 1,000,000 page loads, 1,000 comments. */
  readonly per: number;
  /** The measured usage of one piece (totals over `usage.count`). */
  readonly usage: WorkUsage;
  /** Mean billed ms of each function it invoked, at its deployed memory. */
  readonly billedMs: Readonly<Partial<Record<BenchFunction, number>>>;
  readonly cost: CostBreakdown;
}

/** A schedule of the stack, priced by the measured cost of one run of its target. */
export interface ScheduleCost {
  readonly logicalId: string;
  readonly expression: string;
  readonly invocationsPerMonth: number;
  readonly monthlyUsd: number;
}

/** Everything the cost section reports. */
export interface AwsCostSummary {
  readonly work: readonly WorkCost[];
  readonly fixed: StackFixedCosts;
  readonly schedules: readonly ScheduleCost[];
  /** The template's monthly items and the schedules' invocations. */
  readonly fixedMonthlyUsd: number;
  readonly functions: Readonly<Record<BenchFunction, FunctionSettings>>;
}

const benchFunctions: readonly BenchFunction[] = ['comment', 'article', 'notify'];

/** Bills `measurement` at `functions`' settings and `prices`, beside the stack's fixed costs. */
export function summarizeCost(
  measurement: CostMeasurement,
  functions: Readonly<Record<BenchFunction, FunctionSettings>>,
  fixed: StackFixedCosts,
  prices: Prices,
): AwsCostSummary {
  const bill = (work: string, usage: WorkUsage, per: number): WorkCost => ({
    work,
    per,
    usage,
    billedMs: Object.fromEntries(
      benchFunctions
        .filter((name) => usage.invocations.some((invocation) => invocation.function === name))
        .map((name) => [name, meanBilledMs(usage, name, functions)]),
    ),
    cost: scaleCost(costOf(usage, functions, prices), per),
  });
  const sweep = costOf(measurement.sweep, functions, prices).total;
  const schedules = fixed.schedules.map((schedule) => {
    const runsSweep = schedule.target === functions.notify.logicalId;
    if (!runsSweep || schedule.invocationsPerMonth === undefined) {
      throw new Error(
        `cost: the schedule ${schedule.logicalId} (${schedule.expression}) is not the notifier's sweep at a rate ` +
          'the bench can count; measure what it runs before pricing it',
      );
    }
    return {
      logicalId: schedule.logicalId,
      expression: schedule.expression,
      invocationsPerMonth: schedule.invocationsPerMonth,
      monthlyUsd: schedule.invocationsPerMonth * sweep,
    };
  });
  return {
    work: [
      bill(
        'widget page load (list page 1, count, pageview +1 and its preflight)',
        measurement.pageLoad,
        1_000_000,
      ),
      bill('new root comment, the owner mailed', measurement.rootComment, 1000),
      bill('new reply, the owner and the parent author mailed', measurement.reply, 1000),
    ],
    fixed,
    schedules,
    fixedMonthlyUsd: fixed.monthlyUsd + schedules.reduce((sum, schedule) => sum + schedule.monthlyUsd, 0),
    functions,
  };
}
