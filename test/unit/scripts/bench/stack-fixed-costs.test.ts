import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { prices } from '../../../../scripts/bench/prices.js';
import {
  alarmMetrics,
  type CfnResource,
  type CfnTemplate,
  functionNamed,
  invocationsPerMonth,
  readAccessLogFormat,
  readFixedCosts,
  readFunctionSettings,
} from '../../../../scripts/bench/stack-fixed-costs.js';
import { sesNotifications, synthesizeStackTemplate } from '../../../../scripts/bench/stack-template.js';
import { roundPrices } from './round-prices.js';

const alarm = (metrics?: number): CfnResource => ({
  Type: 'AWS::CloudWatch::Alarm',
  Properties:
    metrics === undefined
      ? { MetricName: 'Errors' }
      : {
          Metrics: [
            { Id: 'expr', Expression: 'MAX([m0, m1])' },
            ...Array.from({ length: metrics }, (_, index) => ({ Id: `m${index}`, MetricStat: {} })),
          ],
        },
});

describe('alarmMetrics', () => {
  it('bills an alarm on one metric as one alarm metric, a metric-math alarm as each metric it reads', () => {
    expect(alarmMetrics(alarm())).toBe(1);
    expect(alarmMetrics(alarm(5))).toBe(5);
  });
});

describe('invocationsPerMonth', () => {
  it('counts the runs of a rate a month of 730 hours, and none of a cron', () => {
    expect(invocationsPerMonth('rate(10 minutes)')).toBe(4380);
    expect(invocationsPerMonth('rate(1 hour)')).toBe(730);
    expect(invocationsPerMonth('rate(2 days)')).toBe(365 / 24);
    expect(invocationsPerMonth('cron(0 12 * * ? *)')).toBeUndefined();
  });
});

describe('readFixedCosts', () => {
  it('prices each resource type billed by the month, lists the idle-free ones, and names the unknown ones', () => {
    const template: CfnTemplate = {
      Resources: {
        Errors: alarm(),
        Busiest: alarm(3),
        Salt: { Type: 'AWS::SecretsManager::Secret' },
        Key: { Type: 'AWS::KMS::Key' },
        Plain: { Type: 'AWS::SSM::Parameter', Properties: { Tier: 'Standard' } },
        Big: { Type: 'AWS::SSM::Parameter', Properties: { Tier: 'Advanced' } },
        Worker: { Type: 'AWS::Lambda::Function', Properties: { MemorySize: 256 } },
        Tick: {
          Type: 'AWS::Events::Rule',
          Properties: {
            ScheduleExpression: 'rate(1 hour)',
            Targets: [{ Arn: { 'Fn::GetAtt': ['Worker', 'Arn'] } }],
          },
        },
        Gateway: { Type: 'AWS::EC2::NatGateway' },
      },
    };

    const costs = readFixedCosts(template, roundPrices);

    expect(costs.items).toEqual([
      {
        item: 'CloudWatch alarms (per alarm metric)',
        resourceType: 'AWS::CloudWatch::Alarm',
        resources: 2,
        billedUnits: 4,
        monthlyUsd: 0.4,
      },
      expect.objectContaining({
        resourceType: 'AWS::SecretsManager::Secret',
        billedUnits: 1,
        monthlyUsd: 0.4,
      }),
      expect.objectContaining({ resourceType: 'AWS::KMS::Key', billedUnits: 1, monthlyUsd: 1 }),
      expect.objectContaining({
        resourceType: 'AWS::SSM::Parameter',
        resources: 2,
        billedUnits: 1,
        monthlyUsd: 0.05,
      }),
    ]);
    expect(costs.monthlyUsd).toBeCloseTo(1.85, 10);
    expect(costs.schedules).toEqual([
      { logicalId: 'Tick', expression: 'rate(1 hour)', target: 'Worker', invocationsPerMonth: 730 },
    ]);
    expect(costs.usageOnly).toEqual(['AWS::Events::Rule', 'AWS::Lambda::Function']);
    expect(costs.unpriced).toEqual(['AWS::EC2::NatGateway']);
  });

  it("reads each function's memory and architecture, with CloudFormation's defaults", () => {
    const functions = readFunctionSettings({
      Resources: {
        ApiFunction1: {
          Type: 'AWS::Lambda::Function',
          Properties: { MemorySize: 512, Architectures: ['arm64'] },
        },
        Plain: { Type: 'AWS::Lambda::Function', Properties: {} },
      },
    });

    expect(functions).toEqual([
      { logicalId: 'ApiFunction1', memoryMb: 512, architecture: 'arm64' },
      { logicalId: 'Plain', memoryMb: 128, architecture: 'x86_64' },
    ]);
    expect(functionNamed(functions, 'ApiFunction').memoryMb).toBe(512);
    expect(() => functionNamed(functions, 'Missing')).toThrow('0 Lambda functions named Missing*');
  });
});

describe("the stack's fixed monthly cost", () => {
  let template: CfnTemplate;
  let withMail: CfnTemplate;
  beforeAll(() => {
    template = synthesizeStackTemplate();
    withMail = synthesizeStackTemplate({ notifications: sesNotifications });
  }, 180_000);

  it('counts every alarm and secret of the synthesized template, by type', () => {
    const costs = readFixedCosts(template, prices);
    const resources = Template.fromJSON(template as Record<string, unknown>);
    const count = (type: string) => Object.keys(resources.findResources(type)).length;

    const alarms = costs.items.find((item) => item.resourceType === 'AWS::CloudWatch::Alarm');
    expect(alarms?.resources).toBe(count('AWS::CloudWatch::Alarm'));
    // Pinned: a new alarm, or a new metric in the table's busiest-of alarms, changes the figure here.
    expect(alarms?.resources).toBe(11);
    // 8 alarms on one metric; TableThrottles reads 6 operations, Read- and WriteCapacity the table and 5 indexes.
    expect(alarms?.billedUnits).toBe(26);
    const secrets = costs.items.find((item) => item.resourceType === 'AWS::SecretsManager::Secret');
    expect(secrets?.resources).toBe(count('AWS::SecretsManager::Secret'));
    expect(secrets?.resources).toBe(1);
    expect(costs.items.map((item) => item.resourceType)).not.toContain('AWS::KMS::Key');
    expect(costs.monthlyUsd).toBeCloseTo(26 * 0.1 + 0.4, 10);
    expect(costs.unpriced).toEqual([]);
  });

  it("adds SES feedback's key with SES mail", () => {
    const costs = readFixedCosts(withMail, prices);

    expect(costs.items.find((item) => item.resourceType === 'AWS::KMS::Key')?.resources).toBe(1);
    expect(costs.monthlyUsd - readFixedCosts(template, prices).monthlyUsd).toBeCloseTo(1, 10);
    expect(costs.unpriced).toEqual([]);
  });

  it("names the notifier's sweep with its rate, and each function's deployed memory and architecture", () => {
    const costs = readFixedCosts(template, prices);
    const notify = functionNamed(readFunctionSettings(template), 'NotifierFunction');

    expect(costs.schedules).toEqual([
      expect.objectContaining({
        expression: 'rate(10 minutes)',
        target: notify.logicalId,
        invocationsPerMonth: 4380,
      }),
    ]);
    for (const prefix of ['CommentFunction', 'ArticleFunction', 'NotifierFunction']) {
      expect(functionNamed(readFunctionSettings(template), prefix)).toMatchObject({
        memoryMb: 512,
        architecture: 'arm64',
      });
    }
    expect(readAccessLogFormat(template)).toContain('"status":"$context.status"');
  });
});
