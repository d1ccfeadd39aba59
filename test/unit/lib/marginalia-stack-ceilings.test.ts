import { App, type CfnResource } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MarginaliaFunction } from '../../../lib/marginalia-function.js';
import { MarginaliaStack, type MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import { linkRouteThrottles, routeKeys, sharedRouteKeys } from '../../../lib/route-throttles.js';
import { tableDefinition } from '../../../functions/shared/table/table-definition.js';
import { testSite } from './fixtures/site.js';

type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: string[] };
type RouteSetting = { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };

const indexNames = Object.values(tableDefinition.indexes).map((index) => index.name);

/** A stack built without bundling or CloudFormation validation: these tests read the template only. */
function synth(props: MarginaliaStackProps = {}): { stack: MarginaliaStack; template: Template } {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { 'aws:cdk:bundling-stacks': [] },
  });
  const stack = new MarginaliaStack(app, 'Ceilings', { ...testSite, ...props });
  return { stack, template: Template.fromStack(stack) };
}

function logicalId(stack: MarginaliaStack, construct: { node: { defaultChild?: unknown } }): string {
  return stack.getLogicalId(construct.node.defaultChild as CfnResource);
}

function only(template: Template, type: string): Resource {
  const found = Object.values(template.findResources(type)) as Resource[];
  expect(found, type).toHaveLength(1);
  return found[0] as Resource;
}

function routeSettings(template: Template): Record<string, RouteSetting> {
  return only(template, 'AWS::ApiGatewayV2::Stage').Properties.RouteSettings as Record<string, RouteSetting>;
}

function reservedConcurrency(stack: MarginaliaStack, template: Template, fn: MarginaliaFunction): unknown {
  const resource = template.findResources('AWS::Lambda::Function')[logicalId(stack, fn.function)];
  return resource?.Properties.ReservedConcurrentExecutions;
}

const customProps: MarginaliaStackProps = {
  allowedOrigins: ['https://blog.example.com'],
  throttleRateLimit: 10,
  throttleBurstLimit: 70,
  commentConcurrency: 3,
  articleConcurrency: 2,
  maxReadUnits: 40,
  maxWriteUnits: 10,
  accessLogRetention: RetentionDays.ONE_WEEK,
};

let stack: MarginaliaStack;
let template: Template;
let customStack: MarginaliaStack;
let custom: Template;

beforeAll(() => {
  ({ stack, template } = synth());
  ({ stack: customStack, template: custom } = synth(customProps));
});

describe('MarginaliaStack ceilings', () => {
  it('shares 50 requests/s and 100 burst between the routes, the costly ones smallest, when no limits are given', () => {
    const settings = routeSettings(template);

    expect(Object.keys(settings).sort()).toEqual(routeKeys().sort());
    expect(settings['GET /api/comment']).toEqual({ ThrottlingRateLimit: 7.5, ThrottlingBurstLimit: 11 });
    expect(settings['POST /api/comment']).toEqual({ ThrottlingRateLimit: 1, ThrottlingBurstLimit: 2 });
    expect(settings['PUT /api/comment/{id}']).toEqual({ ThrottlingRateLimit: 1, ThrottlingBurstLimit: 2 });
    expect(settings['GET /api/article']).toEqual({ ThrottlingRateLimit: 8.5, ThrottlingBurstLimit: 11 });
    expect(settings.$default).toEqual({ ThrottlingRateLimit: 0.5, ThrottlingBurstLimit: 1 });
    // A route missing from the route settings would get the smallest share, not the account's limit.
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 0.12, ThrottlingBurstLimit: 1 },
    });
  });

  it('gives each mail link route its own fixed limit, the one-click unsubscribe 5 requests/s, at any ceiling', () => {
    for (const settings of [routeSettings(template), routeSettings(custom)]) {
      // One route key each in the stage's route settings: one token bucket each, so a flood on the link
      // pages or the moderation links leaves the one-click POST's requests alone.
      expect(settings['POST /api/notification/unsubscribe']).toEqual({
        ThrottlingRateLimit: 5,
        ThrottlingBurstLimit: 10,
      });
      for (const [key, limit] of Object.entries(linkRouteThrottles)) {
        expect(settings[key], key).toEqual({
          ThrottlingRateLimit: limit.rateLimit,
          ThrottlingBurstLimit: limit.burstLimit,
        });
      }
    }
  });

  it('creates the stage after every route when its route settings name them', () => {
    const stage = only(template, 'AWS::ApiGatewayV2::Stage');
    const routeIds = Object.keys(template.findResources('AWS::ApiGatewayV2::Route'));

    expect(routeIds).toHaveLength(routeKeys().length);
    expect(stage.DependsOn).toEqual(expect.arrayContaining(routeIds));
  });

  it('reserves no concurrency on any function when none is asked for', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')) as Resource[];

    // The comment, article and notify functions: a new account (quota 10) can deploy them.
    expect(functions).toHaveLength(3);
    for (const fn of functions) expect(fn.Properties).not.toHaveProperty('ReservedConcurrentExecutions');
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('unreserved'))).toEqual([]);
  });

  it('reserves only the function asked for when one concurrency is given', () => {
    const { stack: one, template: oneTemplate } = synth({ commentConcurrency: 4 });

    expect(reservedConcurrency(one, oneTemplate, one.commentFunction)).toBe(4);
    expect(reservedConcurrency(one, oneTemplate, one.articleFunction)).toBeUndefined();
    expect(reservedConcurrency(one, oneTemplate, one.notifier.function)).toBeUndefined();
  });

  it('warns at synth that a reservation must leave 100 unreserved when concurrency is asked for', () => {
    Annotations.fromStack(customStack).hasWarning(
      '/Ceilings',
      Match.stringLikeRegexp(
        'commentConcurrency=3 and articleConcurrency=2 reserves 5 .*fewer than 100 unreserved.*at least 105',
      ),
    );
  });

  it('caps the table and each index at 100 read and 25 write units per second when no maximums are given', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: 25 },
      GlobalSecondaryIndexes: indexNames.map((name) =>
        Match.objectLike({ IndexName: name, WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: 25 } }),
      ),
      Replicas: [
        Match.objectLike({
          ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 100 },
          GlobalSecondaryIndexes: indexNames.map((name) => ({
            IndexName: name,
            ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 100 },
          })),
        }),
      ],
    });
  });

  it('protects the table from deletion when synthesized', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [Match.objectLike({ DeletionProtectionEnabled: true })],
    });
  });

  it('logs API access as JSON without the IP, user agent or query string, kept a month', () => {
    const settings = only(template, 'AWS::ApiGatewayV2::Stage').Properties.AccessLogSettings as {
      DestinationArn: { 'Fn::GetAtt': [string, string] };
      Format: string;
    };
    const fields = JSON.parse(settings.Format) as Record<string, string>;
    const logGroupId = logicalId(stack, stack.accessLogs);

    expect(settings.DestinationArn).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
    expect(fields).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
    });
    expect(settings.Format).not.toMatch(/sourceIp|userAgent|identity|querystring|requestOverride/i);
    expect(template.findResources('AWS::Logs::LogGroup')[logGroupId]?.Properties.RetentionInDays).toBe(30);
  });

  it('lets each function write only to its own log group, without the managed basic execution role', () => {
    for (const fn of [stack.commentFunction, stack.articleFunction]) {
      const fnResource = template.findResources('AWS::Lambda::Function')[logicalId(stack, fn.function)];
      const roleId = (fnResource?.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const statements = Object.values(template.findResources('AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>);
      const logs = statements.filter((statement) => JSON.stringify(statement.Action).includes('logs:'));

      expect(template.findResources('AWS::IAM::Role')[roleId]?.Properties).not.toHaveProperty(
        'ManagedPolicyArns',
      );
      expect(logs).toEqual([
        expect.objectContaining({
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [logicalId(stack, fn.logGroup), 'Arn'] },
        }),
      ]);
    }
  });

  it('uses the configured ceilings when props are given', () => {
    const all = routeSettings(custom);
    const settings = sharedRouteKeys().flatMap((key) => all[key] ?? []);

    expect(settings.reduce((sum, setting) => sum + Math.round(setting.ThrottlingRateLimit * 100), 0)).toBe(
      1000,
    );
    expect(settings.reduce((sum, setting) => sum + setting.ThrottlingBurstLimit, 0)).toBe(70);
    expect(reservedConcurrency(customStack, custom, customStack.commentFunction)).toBe(3);
    expect(reservedConcurrency(customStack, custom, customStack.articleFunction)).toBe(2);
    custom.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: 10 },
      Replicas: [Match.objectLike({ ReadOnDemandThroughputSettings: { MaxReadRequestUnits: 40 } })],
    });
    const accessLogs =
      custom.findResources('AWS::Logs::LogGroup')[logicalId(customStack, customStack.accessLogs)];
    expect(accessLogs?.Properties.RetentionInDays).toBe(7);
  });

  it.each([
    ['the comment concurrency is 0', { commentConcurrency: 0 }, /commentConcurrency/],
    ['the article concurrency is fractional', { articleConcurrency: 1.5 }, /articleConcurrency/],
    ['the comment concurrency is not a number', { commentConcurrency: Number.NaN }, /commentConcurrency/],
    ['the read maximum is 0', { maxReadUnits: 0 }, /maxReadUnits/],
    ['the write maximum is negative', { maxWriteUnits: -1 }, /maxWriteUnits/],
    ['the capacity alarm is above 100%', { alarmCapacityPercent: 120 }, /alarmCapacityPercent/],
    ['the error threshold is 0', { alarmErrorThreshold: 0 }, /alarmErrorThreshold/],
    ['the alarm mail is not an address', { alarmEmail: 'owner' }, /alarmEmail/],
    ['the budget is 0', { monthlyBudgetUsd: 0, alarmEmail: 'owner@example.com' }, /monthlyBudgetUsd/],
    ['a budget has no mail to send to', { monthlyBudgetUsd: 20 }, /set alarmEmail/],
  ])('throws when %s', (_case, bad: MarginaliaStackProps, message) => {
    expect(() => synth(bad)).toThrow(message);
  });
});
