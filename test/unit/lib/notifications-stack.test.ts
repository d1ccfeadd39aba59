import { App, type CfnResource } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { notifyIteratorAgeAlarm } from '../../../lib/marginalia-alarms.js';
import { sweepInterval } from '../../../lib/marginalia-notifier.js';
import { MarginaliaStack, type MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import type { NotificationVariables } from '../../../lib/notification-settings.js';
import { outboxFilterPattern, streamSettings } from '../../../functions/notify/stream-settings.js';
import { tableDefinition } from '../../../functions/shared/table/table-definition.js';
import { testSite } from './fixtures/site.js';

type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: string[] };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

/** A stack without bundling or CloudFormation validation (marginalia-stack.test.ts bundles for real). */
function synth(props: MarginaliaStackProps = {}, context: Record<string, unknown> = {}) {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { 'aws:cdk:bundling-stacks': [], ...context },
  });
  const stack = new MarginaliaStack(app, 'Notified', { ...testSite, ...props });
  const template = Template.fromStack(stack);
  return { app, stack, template, resources: template.toJSON().Resources as Record<string, Resource> };
}
type Synth = ReturnType<typeof synth>;

const idOf = (owner: Synth, construct: { node: { defaultChild?: unknown } }) =>
  owner.stack.getLogicalId(construct.node.defaultChild as CfnResource);
const notifyId = (owner: Synth) => idOf(owner, owner.stack.notifier.function.function);
const tableId = (owner: Synth) => idOf(owner, owner.stack.table);
const queueId = (owner: Synth) => idOf(owner, owner.stack.notifier.failureQueue);

/** The only resource of `type`. */
function only(owner: Synth, type: string): Resource {
  const found = Object.values(owner.resources).filter((resource) => resource.Type === type);
  expect(found, type).toHaveLength(1);
  return found[0] as Resource;
}

/** Every IAM statement attached to the role of the function with logical id `fnId`. */
function statementsOf(owner: Synth, fnId: string): Statement[] {
  const roleRef = (owner.resources[fnId]?.Properties.Role as { 'Fn::GetAtt': [string, string] })[
    'Fn::GetAtt'
  ][0];
  return Object.values(owner.template.findResources('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleRef }]))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

/** The statements, of every policy in the stack, granting an action starting with `prefix`. */
function grantsOf(statements: readonly Statement[], prefix: string): Statement[] {
  return statements.filter((statement) =>
    [statement.Action].flat().some((action) => action.startsWith(prefix)),
  );
}

const environmentOf = (owner: Synth): Record<string, unknown> =>
  (owner.resources[notifyId(owner)]?.Properties.Environment as { Variables: Record<string, unknown> })
    .Variables;

const ses: NotificationVariables = {
  SES_IDENTITY: 'example.com',
  SENDER_EMAIL: 'blog@example.com',
  SENDER_NAME: 'Example Blog',
  AUTHOR_EMAIL: 'owner@example.com',
  AUTHOR_LANG: 'zh-CN',
};
const everyChannel: NotificationVariables = {
  ...ses,
  WEBHOOK: 'https://hooks.example.net/marginalia',
  WEBHOOK_SECRET_PARAMETER: '/marginalia/webhook-secret',
  TG_CHAT_ID: '-100123',
  TG_BOT_TOKEN_PARAMETER: '/marginalia/tg-bot-token',
  NOTIFY_CAP_PER_HOUR: '3',
  NOTIFY_SITE_CAP_PER_HOUR: '40',
  AUTHOR_NOTIFY_CAP_PER_HOUR: '7',
  REPLY_MAIL: 'all',
  MAIL_SUBJECT: '{{parent.nick}}, {{self.nick}} replied on {{site.name}}',
};
const smtp: NotificationVariables = {
  SMTP_HOST: 'smtp.example.com',
  SMTP_PORT: '465',
  SMTP_SECURE: 'true',
  SMTP_USER: 'blog@example.com',
  SMTP_PASS_PARAMETER: '/marginalia/smtp-pass',
  SENDER_EMAIL: 'blog@example.com',
  AUTHOR_EMAIL: 'owner@example.com',
};

let plain: Synth;
let withSes: Synth;
let withSmtp: Synth;

beforeAll(() => {
  plain = synth();
  withSes = synth({ notifications: everyChannel, alarmEmail: 'ops@example.com' });
  withSmtp = synth({ notifications: smtp });
}, 60_000);

describe('MarginaliaStack notifications', () => {
  it("gives the table a stream of new images, the local table's view", () => {
    expect(tableDefinition.streamView).toBe('NEW_IMAGE');
    expect(only(plain, 'AWS::DynamoDB::GlobalTable').Properties.StreamSpecification).toEqual({
      StreamViewType: tableDefinition.streamView,
    });
  });

  it('maps the stream to the notify function with the shared stream settings and the outbox filter', () => {
    const mapping = only(plain, 'AWS::Lambda::EventSourceMapping').Properties;

    expect(mapping).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [tableId(plain), 'StreamArn'] },
      FunctionName: { Ref: notifyId(plain) },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: streamSettings.batchSize,
      MaximumBatchingWindowInSeconds: streamSettings.maxBatchingWindowSeconds,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: streamSettings.retryAttempts,
      MaximumRecordAgeInSeconds: streamSettings.maxRecordAgeSeconds,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    // Bounded, unlike Lambda's defaults (-1: retried and kept for the stream's whole 24 h).
    expect(streamSettings.retryAttempts).toBeGreaterThan(0);
    expect(streamSettings.maxRecordAgeSeconds).toBeLessThan(24 * 3600);
    const filters = (mapping.FilterCriteria as { Filters: Array<{ Pattern: string }> }).Filters;
    expect(filters.map((filter) => JSON.parse(filter.Pattern))).toEqual([outboxFilterPattern]);
  });

  it('sends what fails to one encrypted queue: the mapping on failure, and failed asynchronous invocations', () => {
    const mapping = only(plain, 'AWS::Lambda::EventSourceMapping').Properties;
    const queue = only(plain, 'AWS::SQS::Queue').Properties;
    const queueArn = { 'Fn::GetAtt': [queueId(plain), 'Arn'] };

    expect(mapping.DestinationConfig).toEqual({ OnFailure: { Destination: queueArn } });
    expect(plain.resources[notifyId(plain)]?.Properties.DeadLetterConfig).toEqual({ TargetArn: queueArn });
    expect(queue.SqsManagedSseEnabled === true || queue.KmsMasterKeyId !== undefined).toBe(true);
    expect(queue.SqsManagedSseEnabled).not.toBe(false);
    plain.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId(plain) }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    plain.template.hasOutput('NotifyFailureQueueUrl', { Value: { Ref: queueId(plain) } });
  });

  it('never retries an asynchronous invocation of the notify function: the next sweep replaces a failed one', () => {
    const config = only(plain, 'AWS::Lambda::EventInvokeConfig').Properties;

    expect(config).toMatchObject({
      FunctionName: { Ref: notifyId(plain) },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 0,
    });
  });

  it('sweeps every 10 minutes by invoking the notify function from a schedule', () => {
    const rule = only(plain, 'AWS::Events::Rule').Properties;
    const notifyArn = { 'Fn::GetAtt': [notifyId(plain), 'Arn'] };

    expect(sweepInterval.toMinutes()).toBe(10);
    expect(rule.ScheduleExpression).toBe('rate(10 minutes)');
    expect(rule.Targets).toEqual([expect.objectContaining({ Arn: notifyArn })]);
    // The default scheduled event (no Input): the function tells a sweep by `source` and `detail-type`.
    expect((rule.Targets as Array<Record<string, unknown>>)[0]).not.toHaveProperty('Input');
    plain.template.hasResourceProperties('AWS::Lambda::Permission', {
      Principal: 'events.amazonaws.com',
      FunctionName: notifyArn,
      SourceArn: { 'Fn::GetAtt': [idOf(plain, plain.stack.notifier.sweep), 'Arn'] },
    });
  });

  it('grants the notify function its item actions on the table and stream reads on its stream only', () => {
    const statements = statementsOf(plain, notifyId(plain));
    const dynamodb = grantsOf(statements, 'dynamodb:');
    const onTable = dynamodb.filter(
      (statement) =>
        JSON.stringify(statement.Resource) === JSON.stringify({ 'Fn::GetAtt': [tableId(plain), 'Arn'] }),
    );
    const onStream = dynamodb.filter(
      (statement) =>
        JSON.stringify(statement.Resource) ===
        JSON.stringify({ 'Fn::GetAtt': [tableId(plain), 'StreamArn'] }),
    );

    expect(onTable.flatMap((statement) => statement.Action).sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    expect(onStream.flatMap((statement) => statement.Action).sort()).toEqual([
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      'dynamodb:ListStreams',
    ]);
    expect(onTable.length + onStream.length).toBe(dynamodb.length);
    expect(statements.every((statement) => statement.Effect === 'Allow')).toBe(true);
    for (const statement of statements) {
      expect([statement.Action].flat().filter((action) => action.includes('*'))).toEqual([]);
      expect(JSON.stringify(statement.Resource)).not.toMatch(/^"\*"$|index/);
    }
  });

  it('grants no SES action and creates no SES resource when SES is not chosen', () => {
    for (const owner of [plain, withSmtp]) {
      const every = Object.values(owner.template.findResources('AWS::IAM::Policy')).flatMap(
        (policy) => policy.Properties.PolicyDocument.Statement as Statement[],
      );

      expect(grantsOf(every, 'ses:')).toEqual([]);
      for (const type of [
        'AWS::SES::ConfigurationSet',
        'AWS::SES::ConfigurationSetEventDestination',
        'AWS::SNS::Subscription',
        'AWS::KMS::Key',
      ]) {
        owner.template.resourceCountIs(type, 0);
      }
      expect(environmentOf(owner)).not.toHaveProperty('SES_CONFIGURATION_SET');
    }
    expect(environmentOf(plain)).not.toHaveProperty('MAIL_TRANSPORT');
    expect(environmentOf(withSmtp)).toMatchObject({ MAIL_TRANSPORT: 'smtp', SMTP_HOST: 'smtp.example.com' });
  });

  it('lets only the notify function send with SES, as the sender identity and with the configuration set', () => {
    const every = Object.values(withSes.template.findResources('AWS::IAM::Policy')).flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as Statement[],
    );
    const sends = grantsOf(statementsOf(withSes, notifyId(withSes)), 'ses:');
    const configurationSetId = idOf(withSes, withSes.stack.notifier.configurationSet as never);

    expect(grantsOf(every, 'ses:')).toEqual(sends);
    expect(sends).toHaveLength(1);
    expect([sends[0]?.Action].flat().sort()).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
    const resources = [sends[0]?.Resource].flat().map((arn) => JSON.stringify(arn));
    expect(resources).toHaveLength(2);
    expect(resources.filter((arn) => arn.includes(':identity/example.com"'))).toHaveLength(1);
    expect(
      resources.filter((arn) => arn.includes(':configuration-set/') && arn.includes(configurationSetId)),
    ).toHaveLength(1);
    expect(resources.join()).not.toMatch(/\*/);
    expect(environmentOf(withSes)).toMatchObject({
      MAIL_TRANSPORT: 'ses',
      SENDER_EMAIL: 'blog@example.com',
      SES_CONFIGURATION_SET: { Ref: configurationSetId },
    });
    expect(environmentOf(withSes)).not.toHaveProperty('SES_IDENTITY');
  });

  it('lets the notify function read only the link key and the secrets its settings name, never the sign-in key', () => {
    const parameterArns = (owner: Synth) => {
      const reads = grantsOf(statementsOf(owner, notifyId(owner)), 'ssm:');
      expect(reads.flatMap((statement) => statement.Action)).toEqual(reads.map(() => 'ssm:GetParameter'));
      return reads.flatMap((statement) => [statement.Resource].flat()).map((arn) => JSON.stringify(arn));
    };
    const names = (arns: string[]) => arns.map((arn) => /:parameter\/([^"]+)"/.exec(arn)?.[1]).sort();

    expect(names(parameterArns(plain))).toEqual(['marginalia/link-secret']);
    expect(names(parameterArns(withSes))).toEqual([
      'marginalia/link-secret',
      'marginalia/tg-bot-token',
      'marginalia/webhook-secret',
    ]);
    expect(names(parameterArns(withSmtp))).toEqual(['marginalia/link-secret', 'marginalia/smtp-pass']);
    expect(environmentOf(withSmtp)).toMatchObject({
      SMTP_PASS_PARAMETER: '/marginalia/smtp-pass',
      LINK_SECRET_PARAMETER: '/marginalia/link-secret',
      PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: '2773',
    });
    expect(JSON.stringify(withSes.resources[notifyId(withSes)]?.Properties.Layers)).toMatch(
      /Paramsandsecretslayer.*arm64/i,
    );
    for (const owner of [plain, withSes, withSmtp]) {
      const environment = environmentOf(owner);
      for (const secret of ['SMTP_PASS', 'TG_BOT_TOKEN', 'WEBHOOK_SECRET', 'JWT_TOKEN', 'LINK_SECRET']) {
        expect(environment).not.toHaveProperty(secret);
      }
      // Not even where the sign-in key is: the notifier cannot sign a sign-in token.
      expect(environment).not.toHaveProperty('JWT_SECRET_PARAMETER');
      expect(JSON.stringify(statementsOf(owner, notifyId(owner)))).not.toContain('jwt-secret');
    }
  });

  it('gives the comment function the link key too, beside the sign-in key, and names another parameter when told', () => {
    const commentId = (owner: Synth) => idOf(owner, owner.stack.commentFunction.function);
    const commentEnvironment = (owner: Synth) =>
      (owner.resources[commentId(owner)]?.Properties.Environment as { Variables: Record<string, unknown> })
        .Variables;
    const reads = (owner: Synth, fnId: string) =>
      JSON.stringify(grantsOf(statementsOf(owner, fnId), 'ssm:').map((statement) => statement.Resource));

    expect(commentEnvironment(plain)).toMatchObject({
      LINK_SECRET_PARAMETER: '/marginalia/link-secret',
      JWT_SECRET_PARAMETER: '/marginalia/jwt-secret',
    });
    expect(reads(plain, commentId(plain))).toContain(':parameter/marginalia/link-secret"');
    expect(reads(plain, commentId(plain))).toContain(':parameter/marginalia/jwt-secret"');

    const named = synth({ linkSecretParameterName: '/blog/links' });
    expect(environmentOf(named)).toMatchObject({ LINK_SECRET_PARAMETER: '/blog/links' });
    expect(commentEnvironment(named)).toMatchObject({ LINK_SECRET_PARAMETER: '/blog/links' });
    expect(reads(named, notifyId(named))).toContain(':parameter/blog/links"');
    expect(reads(named, commentId(named))).toContain(':parameter/blog/links"');
    expect(reads(named, notifyId(named))).not.toContain('link-secret');
    // The article function signs and reads no link.
    const articleId = idOf(named, named.stack.articleFunction.function);
    expect(reads(named, articleId)).not.toContain('links');
  });

  it('routes SES bounces and complaints through an encrypted topic to the notify function', () => {
    const topicId = idOf(withSes, withSes.stack.notifier.feedbackTopic as never);
    const configurationSetId = idOf(withSes, withSes.stack.notifier.configurationSet as never);
    const topic = withSes.resources[topicId]?.Properties as {
      KmsMasterKeyId: { 'Fn::GetAtt': [string, string] };
    };
    const key = withSes.resources[topic.KmsMasterKeyId['Fn::GetAtt'][0]];

    expect(key?.Type).toBe('AWS::KMS::Key');
    expect(key?.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(key?.Properties.KeyPolicy)).toContain('ses.amazonaws.com');
    withSes.template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: configurationSetId },
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['bounce', 'complaint'],
        SnsDestination: { TopicARN: { Ref: topicId } },
      },
    });
    withSes.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: topicId },
      Endpoint: { 'Fn::GetAtt': [notifyId(withSes), 'Arn'] },
    });
    withSes.template.hasResourceProperties('AWS::Lambda::Permission', {
      Principal: 'sns.amazonaws.com',
      SourceArn: { Ref: topicId },
    });
    const publishers = JSON.stringify(
      Object.values(withSes.template.findResources('AWS::SNS::TopicPolicy'))
        .filter((policy) => JSON.stringify(policy.Properties.Topics) === JSON.stringify([{ Ref: topicId }]))
        .map((policy) => policy.Properties.PolicyDocument),
    );
    expect(publishers).toContain('ses.amazonaws.com');
    expect(publishers).toContain(':configuration-set/');
    expect(only(withSes, 'AWS::SES::ConfigurationSet').Properties.SuppressionOptions).toEqual({
      SuppressedReasons: ['BOUNCE', 'COMPLAINT'],
    });
  });

  it("gives the notify function the API's address, the table and the settings, with no cycle", () => {
    const apiId = idOf(plain, plain.stack.api);

    expect(environmentOf(plain)).toMatchObject({
      TABLE_NAME: { Ref: tableId(plain) },
      SERVER_URL: { 'Fn::GetAtt': [apiId, 'ApiEndpoint'] },
    });
    expect(environmentOf(withSes)).toMatchObject({
      AUTHOR_EMAIL: 'owner@example.com',
      AUTHOR_LANG: 'zh-CN',
      SENDER_NAME: 'Example Blog',
      WEBHOOK: 'https://hooks.example.net/marginalia',
      TG_CHAT_ID: '-100123',
      NOTIFY_CAP_PER_HOUR: '3',
      NOTIFY_SITE_CAP_PER_HOUR: '40',
      AUTHOR_NOTIFY_CAP_PER_HOUR: '7',
      REPLY_MAIL: 'all',
      MAIL_SUBJECT: everyChannel.MAIL_SUBJECT,
    });
    // No route of the API invokes the notify function.
    const integrations = JSON.stringify(plain.template.findResources('AWS::ApiGatewayV2::Integration'));
    expect(integrations).not.toContain(notifyId(plain));
    const custom = synth({ notifications: { SERVER_URL: 'https://comments.example.com/' } });
    expect(environmentOf(custom).SERVER_URL).toBe('https://comments.example.com');
  });

  it('alarms on the failure queue, the lag behind the stream and the notify errors', () => {
    const alarms = withSes.stack.alarms.alarms;
    const alarm = (id: string) => {
      const construct = alarms[id];
      if (!construct) throw new Error(`no alarm ${id}`);
      return withSes.resources[idOf(withSes, construct)]?.Properties ?? {};
    };
    const alarmTopic = { Ref: idOf(withSes, withSes.stack.alarms.topic) };

    expect(alarm('NotifyFailures')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId(withSes), 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [alarmTopic],
    });
    expect(alarm('NotifyIteratorAge')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Statistic: 'Maximum',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: notifyId(withSes) } }],
      Threshold: notifyIteratorAgeAlarm.toMilliseconds(),
      AlarmActions: [alarmTopic],
    });
    expect(alarm('NotifyErrors')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: notifyId(withSes) } }],
      AlarmActions: [alarmTopic],
    });
  });

  it('finds no unacknowledged cdk-nag AwsSolutions finding with every channel set', () => {
    const findings = new AwsSolutionsChecks()
      .validateScope(withSes.app)
      .violations.flatMap((violation) =>
        violation.violatingResources.map((resource) => `${violation.ruleName} ${resource.constructPath}`),
      );

    expect(findings).toEqual([]);
  });

  it('accepts a sender on a subdomain of the SES domain, and an address identity sending as itself', () => {
    expect(() =>
      synth({ notifications: { SES_IDENTITY: 'example.com', SENDER_EMAIL: 'blog@mail.example.com' } }),
    ).not.toThrow();
    const single = synth({
      notifications: { SES_IDENTITY: 'Blog@Example.com', SENDER_EMAIL: 'blog@example.com' },
    });
    const sends = grantsOf(statementsOf(single, notifyId(single)), 'ses:');
    expect(JSON.stringify(sends)).toContain(':identity/Blog@Example.com"');
  });

  it.each([
    [
      'SES is chosen without an identity',
      { MAIL_TRANSPORT: 'ses', SENDER_EMAIL: 'a@example.com' },
      /SES_IDENTITY/,
    ],
    ['SES has no sender', { SES_IDENTITY: 'example.com' }, /SENDER_EMAIL: SES needs/],
    [
      'the sender is outside the SES domain',
      { SES_IDENTITY: 'example.com', SENDER_EMAIL: 'a@badexample.com' },
      /SENDER_EMAIL.*example\.com/,
    ],
    [
      'the sender is not the SES address',
      { SES_IDENTITY: 'a@example.com', SENDER_EMAIL: 'b@example.com' },
      /SENDER_EMAIL/,
    ],
    [
      'the SES identity is no domain',
      { SES_IDENTITY: 'example', SENDER_EMAIL: 'a@example' },
      /SES_IDENTITY|SENDER_EMAIL/,
    ],
    [
      'SES and SMTP are both set',
      { ...ses, SMTP_HOST: 'smtp.example.com' },
      /SMTP_HOST: mail goes through SES/,
    ],
    [
      'SMTP is chosen with an SES identity',
      { ...ses, MAIL_TRANSPORT: 'smtp', SMTP_HOST: 'smtp.example.com' },
      /SES_IDENTITY/,
    ],
    ['SMTP is chosen without a server', { MAIL_TRANSPORT: 'smtp' }, /SMTP_HOST/],
    [
      'the owner is two addresses',
      { AUTHOR_EMAIL: 'a@example.com, b@example.com' },
      /AUTHOR_EMAIL: must be one plain address/,
    ],
    ['the transport is unknown', { MAIL_TRANSPORT: 'sendmail' }, /MAIL_TRANSPORT/],
    [
      'the SMTP user has no password parameter',
      { SMTP_HOST: 'smtp.example.com', SMTP_USER: 'u' },
      /SMTP_USER.*SMTP_PASS_PARAMETER/,
    ],
    [
      'a password parameter has no user',
      { SMTP_HOST: 'smtp.example.com', SMTP_PASS_PARAMETER: '/p' },
      /SMTP_PASS_PARAMETER: set SMTP_USER/,
    ],
    [
      'the webhook is plain http',
      { WEBHOOK: 'http://hooks.example.net/x', WEBHOOK_SECRET_PARAMETER: '/w' },
      /WEBHOOK.*https/,
    ],
    [
      'the webhook has no secret',
      { WEBHOOK: 'https://hooks.example.net/x' },
      /WEBHOOK: set WEBHOOK_SECRET too \(on AWS WEBHOOK_SECRET_PARAMETER.*echo "whsec_\$\(openssl rand -base64 32\)"/,
    ],
    ['Telegram has a chat but no token', { TG_CHAT_ID: '1' }, /TG_BOT_TOKEN_PARAMETER/],
    ['Telegram has a token but no chat', { TG_BOT_TOKEN_PARAMETER: '/t' }, /TG_CHAT_ID/],
    [
      'a parameter name has a space',
      { TG_CHAT_ID: '1', TG_BOT_TOKEN_PARAMETER: '/my token' },
      /TG_BOT_TOKEN_PARAMETER.*parameter name/,
    ],
    ['a cap is 0', { NOTIFY_CAP_PER_HOUR: '0' }, /NOTIFY_CAP_PER_HOUR/],
    ['a site-wide cap is 0', { NOTIFY_DOMAIN_CAP_PER_HOUR: '0' }, /NOTIFY_DOMAIN_CAP_PER_HOUR/],
    ['the owner cap is 0', { AUTHOR_NOTIFY_CAP_PER_HOUR: '0' }, /AUTHOR_NOTIFY_CAP_PER_HOUR/],
    ['reader mail is neither confirmed, all nor off', { REPLY_MAIL: 'yes' }, /REPLY_MAIL/],
    ['the server address is plain http', { SERVER_URL: 'http://comments.example.com' }, /SERVER_URL.*https/],
    [
      'the templates overflow the 4 KB environment',
      { MAIL_TEMPLATE: 'x'.repeat(3000), MAIL_TEMPLATE_ADMIN: 'y'.repeat(1000) },
      /4096.*MAIL_TEMPLATE/,
    ],
  ])('throws at synth when %s', (_case, notifications: NotificationVariables, message) => {
    expect(() => synth({ notifications })).toThrow(message);
  });

  it.each(['SMTP_PASS', 'TG_BOT_TOKEN', 'WEBHOOK_SECRET'])(
    'refuses %s as context, which would publish it, and names the parameter to use',
    (secret) => {
      expect(() => synth({}, { [secret]: 'hunter2hunter2' })).toThrow(
        new RegExp(`${secret}: secrets are not taken from context.*${secret}_PARAMETER`),
      );
    },
  );
});
