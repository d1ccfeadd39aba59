import { App, type CfnResource } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MarginaliaStack, type MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import { tableDefinition } from '../../../functions/shared/table/table-definition.js';
import { testSite } from './fixtures/site.js';

type Alarm = { Properties: Record<string, unknown> };
type MathMetric = {
  Id: string;
  Expression?: string;
  MetricStat?: { Metric: { MetricName: string; Dimensions: Array<{ Name: string; Value: unknown }> } };
};

/** A stack built without bundling or CloudFormation validation: these tests read the template only. */
function synth(props: MarginaliaStackProps = {}): { stack: MarginaliaStack; template: Template } {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { 'aws:cdk:bundling-stacks': [] },
  });
  const stack = new MarginaliaStack(app, 'Alarmed', { ...testSite, ...props });
  return { stack, template: Template.fromStack(stack) };
}

/** The alarm the construct created under `id` (ServerErrors, CommentThrottles, ...). */
function alarm(stack: MarginaliaStack, template: Template, id: string): Alarm {
  const construct = stack.alarms.alarms[id];
  if (!construct) throw new Error(`no alarm ${id}`);
  const found =
    template.findResources('AWS::CloudWatch::Alarm')[
      stack.getLogicalId(construct.node.defaultChild as CfnResource)
    ];
  if (!found) throw new Error(`alarm ${id} is not in the template`);
  return found as Alarm;
}

let stack: MarginaliaStack;
let template: Template;
let mailed: MarginaliaStack;
let mailedTemplate: Template;

beforeAll(() => {
  ({ stack, template } = synth());
  ({ stack: mailed, template: mailedTemplate } = synth({
    alarmEmail: 'owner@example.com',
    monthlyBudgetUsd: 25,
    alarmErrorThreshold: 2,
    alarmCapacityPercent: 50,
    maxReadUnits: 40,
    maxWriteUnits: 10,
  }));
});

describe('MarginaliaAlarms', () => {
  it('creates eleven alarms (three on the notifier) that all notify one topic refusing plain HTTP', () => {
    const topicId = stack.getLogicalId(stack.alarms.topic.node.defaultChild as CfnResource);

    template.resourceCountIs('AWS::CloudWatch::Alarm', 11);
    template.allResourcesProperties('AWS::CloudWatch::Alarm', {
      AlarmActions: [{ Ref: topicId }],
      TreatMissingData: 'notBreaching',
    });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('alarms on 5 or more API 5xx in 5 minutes when no threshold is given', () => {
    expect(alarm(stack, template, 'ServerErrors').Properties).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 5,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Dimensions: expect.arrayContaining([{ Name: 'Stage', Value: '$default' }]),
    });
  });

  it.each(['Comment', 'Article'])('alarms on errors and on any throttle of the %s function', (name) => {
    const fn = name === 'Comment' ? stack.commentFunction : stack.articleFunction;
    const dimensions = [
      {
        Name: 'FunctionName',
        Value: { Ref: stack.getLogicalId(fn.function.node.defaultChild as CfnResource) },
      },
    ];

    expect(alarm(stack, template, `${name}Errors`).Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: dimensions,
      Threshold: 5,
    });
    expect(alarm(stack, template, `${name}Throttles`).Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Throttles',
      Dimensions: dimensions,
      Threshold: 1,
    });
  });

  it.each(['Comment', 'Article'])(
    'says the account pool throttled the %s function when it reserves no concurrency',
    (name) => {
      const description = alarm(stack, template, `${name}Throttles`).Properties.AlarmDescription;

      expect(description).toMatch(/reserves no concurrency.*unreserved Lambda concurrency.*was all in use/);
      expect(description).not.toMatch(/reached its reserved concurrency/);
      expect(alarm(stack, template, 'ServerErrors').Properties.AlarmDescription).not.toMatch(
        /the reserved concurrency is reached/,
      );
    },
  );

  it('says a throttled function reached its reservation when concurrency is asked for', () => {
    const { stack: reserved, template: reservedTemplate } = synth({ commentConcurrency: 3 });

    expect(alarm(reserved, reservedTemplate, 'CommentThrottles').Properties.AlarmDescription).toMatch(
      /reached its reserved concurrency \(3 instances at once\)/,
    );
    expect(alarm(reserved, reservedTemplate, 'ArticleThrottles').Properties.AlarmDescription).toMatch(
      /reserves no concurrency/,
    );
  });

  it('alarms on any throttled table request of the operations the functions send', () => {
    const metrics = alarm(stack, template, 'TableThrottles').Properties.Metrics as MathMetric[];
    const operations = metrics.flatMap(
      (metric) => metric.MetricStat?.Metric.Dimensions.filter((d) => d.Name === 'Operation') ?? [],
    );

    expect(operations.map((dimension) => dimension.Value).sort()).toEqual(
      ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'TransactWriteItems', 'UpdateItem'].sort(),
    );
    expect(
      metrics.every(
        (metric) => metric.Expression || metric.MetricStat?.Metric.MetricName === 'ThrottledRequests',
      ),
    ).toBe(true);
    expect(alarm(stack, template, 'TableThrottles').Properties.Threshold).toBe(1);
  });

  it.each([
    ['ReadCapacity', 'ConsumedReadCapacityUnits', 80],
    ['WriteCapacity', 'ConsumedWriteCapacityUnits', 20],
  ])(
    'alarms %s when the busiest of the table and its indexes uses 80%% of its maximum for 15 minutes',
    (id, metricName, threshold) => {
      const properties = alarm(stack, template, id).Properties;
      const metrics = properties.Metrics as MathMetric[];
      const indexes = metrics.flatMap(
        (metric) =>
          metric.MetricStat?.Metric.Dimensions.filter((d) => d.Name === 'GlobalSecondaryIndexName').map(
            (d) => d.Value,
          ) ?? [],
      );

      expect(properties).toMatchObject({ Threshold: threshold, EvaluationPeriods: 3 });
      expect(metrics.find((metric) => metric.Expression)?.Expression).toBe(
        'MAX([m0, m1, m2, m3, m4, m5]) / PERIOD(m0)',
      );
      expect(metrics.filter((metric) => metric.MetricStat?.Metric.MetricName === metricName)).toHaveLength(6);
      expect(indexes.sort()).toEqual(
        Object.values(tableDefinition.indexes)
          .map((index) => index.name)
          .sort(),
      );
    },
  );

  it('subscribes no one and creates no budget when no alarm mail is given', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    template.resourceCountIs('AWS::Budgets::Budget', 0);
  });

  it('mails the alarms and budgets the month when alarmEmail and monthlyBudgetUsd are given', () => {
    mailedTemplate.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'owner@example.com',
    });
    const subscribers = [{ SubscriptionType: 'EMAIL', Address: 'owner@example.com' }];
    mailedTemplate.hasResourceProperties('AWS::Budgets::Budget', {
      Budget: { BudgetType: 'COST', TimeUnit: 'MONTHLY', BudgetLimit: { Amount: 25, Unit: 'USD' } },
      NotificationsWithSubscribers: [
        {
          Notification: Match.objectLike({ NotificationType: 'ACTUAL', Threshold: 80 }),
          Subscribers: subscribers,
        },
        {
          Notification: Match.objectLike({ NotificationType: 'FORECASTED', Threshold: 100 }),
          Subscribers: subscribers,
        },
      ],
    });
  });

  it('uses the configured thresholds and maximums when props are given', () => {
    expect(alarm(mailed, mailedTemplate, 'ServerErrors').Properties.Threshold).toBe(2);
    expect(alarm(mailed, mailedTemplate, 'CommentErrors').Properties.Threshold).toBe(2);
    expect(alarm(mailed, mailedTemplate, 'ReadCapacity').Properties.Threshold).toBe(20);
    expect(alarm(mailed, mailedTemplate, 'WriteCapacity').Properties.Threshold).toBe(5);
  });
});
