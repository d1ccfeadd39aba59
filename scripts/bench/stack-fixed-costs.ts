/**
 * What the stack costs by the month whatever its traffic, read from its synthesized CloudFormation template
 * by resource type (so a new alarm, secret or key changes the figure without a change here): CloudWatch
 * alarms by the metrics they read, Secrets Manager secrets, KMS keys, Advanced SSM parameters, and the
 * invocations of each schedule (priced by the bench from the measured cost of one run). Also each Lambda
 * function's memory and architecture, which the per-request figures are billed at. Pure: template in,
 * figures out.
 */
import type { Prices } from './prices.js';

/** The part of a CloudFormation template this reads. */
export interface CfnTemplate {
  readonly Resources?: Readonly<Record<string, CfnResource>>;
}

/** One resource of a template. */
export interface CfnResource {
  readonly Type: string;
  readonly Properties?: Readonly<Record<string, unknown>>;
}

/** How a Lambda function is billed per GB-second. */
export interface FunctionSettings {
  readonly logicalId: string;
  readonly memoryMb: number;
  readonly architecture: 'arm64' | 'x86_64';
}

/** One line of the fixed monthly cost. */
export interface MonthlyItem {
  readonly item: string;
  readonly resourceType: string;
  /** Resources of the type. */
  readonly resources: number;
  /** What is billed: alarm metrics for alarms, else the resources themselves. */
  readonly billedUnits: number;
  readonly monthlyUsd: number;
}

/** A schedule that invokes a function, and how often a month. */
export interface Schedule {
  readonly logicalId: string;
  readonly expression: string;
  /** The logical id of the function it invokes; undefined when its target is not a function of the template. */
  readonly target?: string;
  /** Undefined for an expression this reader cannot count (a cron). */
  readonly invocationsPerMonth?: number;
}

/** The stack's fixed monthly cost, as far as the template says. */
export interface StackFixedCosts {
  readonly items: readonly MonthlyItem[];
  /** Sum of `items` (the schedules' invocations are priced apart, from a measured run). */
  readonly monthlyUsd: number;
  readonly schedules: readonly Schedule[];
  /** Resource types present that cost nothing while idle: billed by use (requests, GB) or free. */
  readonly usageOnly: readonly string[];
  /** Resource types present that this reader does not know: their cost, if any, is not counted. */
  readonly unpriced: readonly string[];
}

/** The hours of a month on AWS's pricing pages. */
export const hoursPerMonth = 730;

/**
 * Types that cost nothing while nothing uses them: billed per request, per GB stored or ingested, or free
 * (IAM, API Gateway's routes and stages, SNS topics, SES configuration sets, EventBridge rules, budgets
 * without actions). Their use is what the per-request figures count.
 */
const usageOnlyTypes: ReadonlySet<string> = new Set([
  'AWS::ApiGatewayV2::Api',
  'AWS::ApiGatewayV2::Integration',
  'AWS::ApiGatewayV2::Route',
  'AWS::ApiGatewayV2::Stage',
  'AWS::Budgets::Budget',
  'AWS::DynamoDB::GlobalTable',
  'AWS::DynamoDB::Table',
  'AWS::Events::Rule',
  'AWS::IAM::Policy',
  'AWS::IAM::Role',
  'AWS::Lambda::EventInvokeConfig',
  'AWS::Lambda::EventSourceMapping',
  'AWS::Lambda::Function',
  'AWS::Lambda::Permission',
  'AWS::Logs::LogGroup',
  'AWS::SES::ConfigurationSet',
  'AWS::SES::ConfigurationSetEventDestination',
  'AWS::SNS::Subscription',
  'AWS::SNS::Topic',
  'AWS::SNS::TopicPolicy',
  'AWS::SQS::Queue',
  'AWS::SQS::QueuePolicy',
  'AWS::Scheduler::Schedule',
]);

/** Types billed by the month, with what one resource bills. */
const monthlyTypes: Readonly<
  Record<string, { item: string; units: (resource: CfnResource) => number; price: (p: Prices) => number }>
> = {
  'AWS::CloudWatch::Alarm': {
    item: 'CloudWatch alarms (per alarm metric)',
    units: alarmMetrics,
    price: (p) => p.cloudWatch.perAlarmMetricMonth,
  },
  'AWS::SecretsManager::Secret': {
    item: 'Secrets Manager secrets',
    units: () => 1,
    price: (p) => p.secretsManager.perSecretMonth,
  },
  'AWS::KMS::Key': { item: 'KMS customer managed keys', units: () => 1, price: (p) => p.kms.perKeyMonth },
  'AWS::SSM::Parameter': {
    item: 'SSM parameters (Advanced ones; Standard ones are free)',
    units: (resource) => (resource.Properties?.Tier === 'Advanced' ? 1 : 0),
    price: (p) => p.ssm.advancedParameterMonth,
  },
};

/**
 * The metrics an alarm reads, each billed as one alarm metric: one for an alarm on a metric, one per
 * `MetricStat` of a metric-math alarm (its expressions are not metrics).
 */
export function alarmMetrics(alarm: CfnResource): number {
  const metrics = alarm.Properties?.Metrics;
  if (!Array.isArray(metrics)) return 1;
  return metrics.filter((metric) => typeof metric === 'object' && metric !== null && 'MetricStat' in metric)
    .length;
}

/** Invocations a month of `rate(N minute|minutes|hour|hours|day|days)`; undefined for anything else. */
export function invocationsPerMonth(expression: string): number | undefined {
  const rate = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression.trim());
  if (!rate) return undefined;
  const minutes = { minute: 1, hour: 60, day: 1440 }[rate[2] as 'minute' | 'hour' | 'day'];
  return (hoursPerMonth * 60) / (Number(rate[1]) * minutes);
}

/** Each Lambda function's memory (CloudFormation's default 128 MB) and architecture (default x86_64). */
export function readFunctionSettings(template: CfnTemplate): FunctionSettings[] {
  return Object.entries(template.Resources ?? {})
    .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
    .map(([logicalId, resource]) => {
      const properties = resource.Properties ?? {};
      const architectures = properties.Architectures;
      return {
        logicalId,
        memoryMb: typeof properties.MemorySize === 'number' ? properties.MemorySize : 128,
        architecture:
          Array.isArray(architectures) && architectures[0] === 'arm64'
            ? ('arm64' as const)
            : ('x86_64' as const),
      };
    });
}

/** The function of the template whose logical id begins with `prefix` (a construct id); throws unless one. */
export function functionNamed(functions: readonly FunctionSettings[], prefix: string): FunctionSettings {
  const found = functions.filter((settings) => settings.logicalId.startsWith(prefix));
  if (found.length !== 1 || !found[0]) {
    throw new Error(`the template has ${found.length} Lambda functions named ${prefix}*, not one`);
  }
  return found[0];
}

/** The logical id an `Fn::GetAtt [id, Arn]` or a `Ref` points at. */
function referencedId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const getAtt = (value as { 'Fn::GetAtt'?: unknown })['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
  const ref = (value as { Ref?: unknown }).Ref;
  return typeof ref === 'string' ? ref : undefined;
}

/** The schedules of EventBridge rules and EventBridge Scheduler, with the function each invokes. */
function readSchedules(template: CfnTemplate): Schedule[] {
  const resources = template.Resources ?? {};
  const isFunction = (id: string | undefined) =>
    id !== undefined && resources[id]?.Type === 'AWS::Lambda::Function';
  const schedules: Schedule[] = [];
  for (const [logicalId, resource] of Object.entries(resources)) {
    const properties = resource.Properties ?? {};
    const expression = properties.ScheduleExpression;
    if (typeof expression !== 'string') continue;
    if (resource.Type === 'AWS::Events::Rule' && properties.State === 'DISABLED') continue;
    const targets =
      resource.Type === 'AWS::Events::Rule' && Array.isArray(properties.Targets)
        ? (properties.Targets as { Arn?: unknown }[])
        : [properties.Target as { Arn?: unknown } | undefined];
    const perMonth = invocationsPerMonth(expression);
    for (const target of targets) {
      const id = referencedId(target?.Arn);
      schedules.push({
        logicalId,
        expression,
        ...(isFunction(id) ? { target: id } : {}),
        ...(perMonth === undefined ? {} : { invocationsPerMonth: perMonth }),
      });
    }
  }
  return schedules;
}

/** The stack's fixed monthly cost from its template, at `prices`. */
export function readFixedCosts(template: CfnTemplate, prices: Prices): StackFixedCosts {
  const byType = new Map<string, CfnResource[]>();
  for (const resource of Object.values(template.Resources ?? {})) {
    byType.set(resource.Type, [...(byType.get(resource.Type) ?? []), resource]);
  }
  const items: MonthlyItem[] = [];
  for (const [resourceType, pricing] of Object.entries(monthlyTypes)) {
    const resources = byType.get(resourceType) ?? [];
    if (resources.length === 0) continue;
    const billedUnits = resources.reduce((sum, resource) => sum + pricing.units(resource), 0);
    items.push({
      item: pricing.item,
      resourceType,
      resources: resources.length,
      billedUnits,
      monthlyUsd: billedUnits * pricing.price(prices),
    });
  }
  const types = [...byType.keys()].sort();
  return {
    items,
    monthlyUsd: items.reduce((sum, item) => sum + item.monthlyUsd, 0),
    schedules: readSchedules(template),
    usageOnly: types.filter((type) => usageOnlyTypes.has(type)),
    unpriced: types.filter((type) => !usageOnlyTypes.has(type) && !(type in monthlyTypes)),
  };
}

/** The access-log format of the template's one HTTP API stage (its `$context` variables). */
export function readAccessLogFormat(template: CfnTemplate): string {
  const formats = Object.values(template.Resources ?? {})
    .filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Stage')
    .map((resource) => (resource.Properties?.AccessLogSettings as { Format?: unknown } | undefined)?.Format);
  const [format] = formats;
  if (formats.length !== 1 || typeof format !== 'string') {
    throw new Error(`the template has ${formats.length} HTTP API stages, not one with an access-log format`);
  }
  return format;
}
