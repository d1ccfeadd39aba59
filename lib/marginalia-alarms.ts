import { Duration, Validations } from 'aws-cdk-lib';
import type { IHttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** What the alarms watch and when they fire. */
export interface MarginaliaAlarmsProps {
  /** The API stage: its 5xx answers. */
  readonly stage: IHttpStage;
  /** The functions by name (`Comment`, `Article`): errors and throttles of each. */
  readonly functions: Readonly<Record<string, IFunction>>;
  /**
   * The reserved concurrency of each function, by the same names; a function missing or undefined
   * reserves none (runs from the account's unreserved pool). Only the throttle alarms' text depends on it.
   */
  readonly reservedConcurrency?: Readonly<Record<string, number | undefined>>;
  /** The table: throttled requests and consumed units. */
  readonly table: TableV2;
  /** The table's GSIs: each has its own consumed units and its own maximums. */
  readonly indexNames: readonly string[];
  /** The read request units per second the table and each index may consume. */
  readonly maxReadUnits: number;
  /** The write request units per second the table and each index may consume. */
  readonly maxWriteUnits: number;
  /** API 5xx answers, or errors of one function, in 5 minutes that raise an alarm. */
  readonly errorThreshold: number;
  /** Percentage of its maximum that the busiest of the table and its indexes may use for 15 minutes. */
  readonly capacityPercent: number;
  /** Where alarms and the budget send mail; none: alarms only show in the console (and on the topic). */
  readonly email?: string;
  /** A monthly AWS cost budget for the whole account, in US dollars; needs `email`. Default none. */
  readonly monthlyBudgetUsd?: number;
  /** The notifier (lib/marginalia-notifier.ts): its errors, its lag behind the stream, its failure queue. */
  readonly notifier?: {
    readonly function: IFunction;
    readonly failureQueue: IQueue;
  };
}

/**
 * How far behind the stream the notifier may fall. A healthy record is read within seconds; a batch that
 * fails is retried a few times (each up to the function's 60 s) before it goes to the failure queue, so a
 * quarter of an hour means a shard is stuck, not busy.
 */
export const notifyIteratorAgeAlarm = Duration.minutes(15);

/** The operations the functions send: any throttled one raises the table's alarm. */
const tableOperations = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
];

const fiveMinutes = Duration.minutes(5);

/**
 * CloudWatch alarms on every ceiling of the stack (API 5xx, function errors and throttles, table
 * throttles and consumed units) and on the notifier (errors, lag, failure queue), an SNS topic they notify, an optional mail subscription and an optional
 * monthly AWS budget.
 */
export class MarginaliaAlarms extends Construct {
  /** The topic every alarm notifies (subscribe a chat or pager to it if mail is not enough). */
  readonly topic: Topic;
  /** Every alarm, by construct id. */
  readonly alarms: Readonly<Record<string, Alarm>>;

  constructor(scope: Construct, id: string, props: MarginaliaAlarmsProps) {
    super(scope, id);

    this.topic = new Topic(this, 'Topic', {
      displayName: 'Marginalia alarms',
      // Refuses publishing over plain HTTP (AwsSolutions-SNS3).
      enforceSSL: true,
    });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'Alarm notifications carry alarm names and numbers, nothing secret. CloudWatch cannot publish to a ' +
        'topic under the AWS managed SNS key, and a customer managed key would cost $1 a month for this.',
    });
    if (props.email !== undefined) this.topic.addSubscription(new EmailSubscription(props.email));

    const alarms: Record<string, Alarm> = {};
    const add = (
      alarmId: string,
      description: string,
      metric: IMetric,
      threshold: number,
      evaluationPeriods = 1,
    ): void => {
      const alarm = new Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        // No data means no traffic: nothing is wrong.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(new SnsAction(this.topic));
      alarms[alarmId] = alarm;
    };

    add(
      'ServerErrors',
      `The API answered ${props.errorThreshold} or more 5xx in 5 minutes: function errors (502) or ` +
        "function throttles (500: no concurrency left, the account's or a function's reservation).",
      props.stage.metricServerError({ period: fiveMinutes }),
      props.errorThreshold,
    );
    for (const [name, fn] of Object.entries(props.functions)) {
      add(
        `${name}Errors`,
        `The ${name.toLowerCase()} function failed ${props.errorThreshold} or more times in 5 minutes.`,
        fn.metricErrors({ period: fiveMinutes }),
        props.errorThreshold,
      );
      // One throttle is enough to say: a concurrency ceiling was reached. Lambda counts a throttle whether
      // the function's reservation or, without one, the account's unreserved pool ran out.
      add(
        `${name}Throttles`,
        throttleDescription(name.toLowerCase(), props.reservedConcurrency?.[name]),
        fn.metricThrottles({ period: fiveMinutes }),
        1,
      );
    }
    add(
      'TableThrottles',
      'DynamoDB throttled requests: the table or an index reached its on-demand maximum (or a hot partition).',
      props.table.metricThrottledRequestsForOperations({ operations: tableOperations, period: fiveMinutes }),
      1,
    );
    add(
      'ReadCapacity',
      `The table or one of its indexes read more than ${props.capacityPercent}% of its maximum ` +
        `(${props.maxReadUnits} units/s) for 15 minutes.`,
      busiest(props.table, props.indexNames, 'ConsumedReadCapacityUnits'),
      (props.maxReadUnits * props.capacityPercent) / 100,
      3,
    );
    add(
      'WriteCapacity',
      `The table or one of its indexes wrote more than ${props.capacityPercent}% of its maximum ` +
        `(${props.maxWriteUnits} units/s) for 15 minutes.`,
      busiest(props.table, props.indexNames, 'ConsumedWriteCapacityUnits'),
      (props.maxWriteUnits * props.capacityPercent) / 100,
      3,
    );
    if (props.notifier !== undefined) {
      const { function: notify, failureQueue } = props.notifier;
      add(
        'NotifyErrors',
        `The notify function failed ${props.errorThreshold} or more times in 5 minutes (a failed send is ` +
          'recorded on its outbox event and retried: these are crashes of whole invocations).',
        notify.metricErrors({ period: fiveMinutes }),
        props.errorThreshold,
      );
      // One message is enough: it is a notice that failed every retry (its event shows the error in /ui).
      add(
        'NotifyFailures',
        'Notifications failed every retry and reached the failure queue: see the notification log in /ui ' +
          '(failed events are re-driven by the sweep or from /ui) and the notify function logs.',
        failureQueue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum' }),
        1,
      );
      add(
        'NotifyIteratorAge',
        `The notify function is more than ${notifyIteratorAgeAlarm.toMinutes()} minutes behind the table's ` +
          'stream: a batch keeps failing, or the function is throttled.',
        notify.metric('IteratorAge', { period: fiveMinutes, statistic: 'Maximum' }),
        notifyIteratorAgeAlarm.toMilliseconds(),
      );
    }
    this.alarms = alarms;

    if (props.monthlyBudgetUsd !== undefined && props.email !== undefined) {
      const subscribers = [{ subscriptionType: 'EMAIL', address: props.email }];
      // A cost budget without filters watches the whole account's bill, not only this stack: cost
      // allocation tags would have to be activated by hand in the Billing console before a filter works.
      new CfnBudget(this, 'MonthlyBudget', {
        budget: {
          budgetType: 'COST',
          timeUnit: 'MONTHLY',
          budgetLimit: { amount: props.monthlyBudgetUsd, unit: 'USD' },
        },
        notificationsWithSubscribers: [
          {
            notification: {
              notificationType: 'ACTUAL',
              comparisonOperator: 'GREATER_THAN',
              threshold: 80,
              thresholdType: 'PERCENTAGE',
            },
            subscribers,
          },
          {
            notification: {
              notificationType: 'FORECASTED',
              comparisonOperator: 'GREATER_THAN',
              threshold: 100,
              thresholdType: 'PERCENTAGE',
            },
            subscribers,
          },
        ],
      });
    }
  }
}

/** What a function's throttle alarm means: its own reservation ran out, or the account's shared pool did. */
function throttleDescription(name: string, reserved: number | undefined): string {
  if (reserved !== undefined) {
    return `The ${name} function reached its reserved concurrency (${reserved} instances at once): requests were refused (500).`;
  }
  return (
    `The ${name} function was throttled: it reserves no concurrency, and the region's unreserved Lambda ` +
    "concurrency, shared by every function in the account, was all in use (the account's quota: 1,000 " +
    'usually, 10 on some new accounts). Requests were refused (500).'
  );
}

/**
 * The units per second consumed by the busiest of the table and its indexes (each has the same maximum):
 * a 5-minute sum of each, the largest of them at each point, divided by the period's seconds.
 */
function busiest(table: TableV2, indexNames: readonly string[], metricName: string): IMetric {
  const metric = (indexName?: string) =>
    new Metric({
      namespace: 'AWS/DynamoDB',
      metricName,
      dimensionsMap: {
        TableName: table.tableName,
        ...(indexName === undefined ? {} : { GlobalSecondaryIndexName: indexName }),
      },
      statistic: 'Sum',
      period: fiveMinutes,
    });
  const metrics = [metric(), ...indexNames.map(metric)];
  const usingMetrics = Object.fromEntries(metrics.map((m, i) => [`m${i}`, m]));
  return new MathExpression({
    expression: `MAX([${Object.keys(usingMetrics).join(', ')}]) / PERIOD(m0)`,
    usingMetrics,
    label: `${metricName} per second, busiest of the table and its indexes`,
    period: fiveMinutes,
  });
}
