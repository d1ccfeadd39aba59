/**
 * The AWS bill of a piece of work as the bench measured it (a widget page load; a new comment with its
 * notices; a run of the notifier's sweep): API Gateway requests, Lambda requests and billed duration at each
 * function's deployed memory and architecture, DynamoDB on-demand read and write units, SES mails and
 * CloudWatch Logs ingestion. Pure: figures in, dollars out.
 */
import type { Prices } from './prices.js';
import type { FunctionSettings } from './stack-fixed-costs.js';

/** One Lambda invocation as measured in-process. */
export interface MeasuredInvocation {
  /** The function it ran in: a key of the settings the usage is billed with. */
  readonly function: string;
  /** From the event to the answer. */
  readonly wallMs: number;
  /** This process's CPU time during it. */
  readonly cpuMs: number;
}

/** What `count` pieces of the same work asked of AWS, in total. */
export interface WorkUsage {
  readonly count: number;
  readonly apiRequests: number;
  readonly invocations: readonly MeasuredInvocation[];
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly mails: number;
  /** CloudWatch Logs bytes: the API's access-log lines and each invocation's platform lines. */
  readonly logBytes: number;
}

/** Dollars of one piece of work, by line of the bill. */
export interface CostBreakdown {
  readonly apiGateway: number;
  readonly lambdaRequests: number;
  readonly lambdaDuration: number;
  readonly dynamodbReads: number;
  readonly dynamodbWrites: number;
  readonly ses: number;
  readonly logs: number;
  readonly total: number;
}

/** Lambda gives a function one vCPU's worth of CPU at this much memory, and a share in proportion below it. */
export const vcpuMemoryMb = 1769;

/**
 * The duration Lambda would bill for `invocation` at `settings`' memory, in whole milliseconds (Lambda rounds
 * each invocation up to 1 ms): the wall time measured here, with its CPU time stretched by the share of a
 * vCPU that memory buys (at 512 MB, 512/1769 of one: CPU work takes 3.46 times as long), waits unchanged.
 */
export function billedMs(invocation: MeasuredInvocation, settings: FunctionSettings): number {
  const stretch = Math.max(0, vcpuMemoryMb / settings.memoryMb - 1);
  return Math.max(1, Math.ceil(invocation.wallMs + invocation.cpuMs * stretch));
}

/** The settings of the function `name`; throws for a function the stack does not have. */
function settingsOf(functions: Readonly<Record<string, FunctionSettings>>, name: string): FunctionSettings {
  const settings = functions[name];
  if (!settings) throw new Error(`no deployed settings for the function "${name}"`);
  return settings;
}

/** The mean billed milliseconds of `usage`'s invocations of `name` (0 if none). */
export function meanBilledMs(
  usage: WorkUsage,
  name: string,
  functions: Readonly<Record<string, FunctionSettings>>,
): number {
  const runs = usage.invocations.filter((invocation) => invocation.function === name);
  if (runs.length === 0) return 0;
  const settings = settingsOf(functions, name);
  return runs.reduce((sum, run) => sum + billedMs(run, settings), 0) / runs.length;
}

/** The bill of one piece of `usage`'s work (its totals over `usage.count`). */
export function costOf(
  usage: WorkUsage,
  functions: Readonly<Record<string, FunctionSettings>>,
  prices: Prices,
): CostBreakdown {
  if (!(usage.count > 0)) throw new Error(`a usage of ${usage.count} pieces of work has no cost per piece`);
  const gbSeconds = usage.invocations.map((invocation) => {
    const settings = settingsOf(functions, invocation.function);
    const seconds = billedMs(invocation, settings) / 1000;
    return seconds * (settings.memoryMb / 1024) * prices.lambda.perGbSecond[settings.architecture];
  });
  const lines = {
    apiGateway: usage.apiRequests * prices.apiGateway.httpPerRequest,
    lambdaRequests: usage.invocations.length * prices.lambda.perRequest,
    lambdaDuration: gbSeconds.reduce((sum, dollars) => sum + dollars, 0),
    dynamodbReads: usage.readUnits * prices.dynamodb.perReadUnit,
    dynamodbWrites: usage.writeUnits * prices.dynamodb.perWriteUnit,
    ses: usage.mails * prices.ses.perMail,
    logs: (usage.logBytes / 1024 ** 3) * prices.cloudWatch.logsPerGbIngested,
  };
  const perPiece = Object.fromEntries(
    Object.entries(lines).map(([line, dollars]) => [line, dollars / usage.count]),
  ) as Omit<CostBreakdown, 'total'>;
  return { ...perPiece, total: Object.values(perPiece).reduce((sum, dollars) => sum + dollars, 0) };
}

/** `breakdown` times `factor`: the bill of a million page loads, of a thousand comments. */
export function scaleCost(breakdown: CostBreakdown, factor: number): CostBreakdown {
  return Object.fromEntries(
    Object.entries(breakdown).map(([line, dollars]) => [line, dollars * factor]),
  ) as unknown as CostBreakdown;
}
