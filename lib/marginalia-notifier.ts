import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  ConfigurationSet,
  EmailSendingEvent,
  EventDestination,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  notifierSchedule,
  outboxFilterPattern,
  streamSettings,
} from '../functions/notify/stream-settings.js';
import { MarginaliaFunction } from './marginalia-function.js';
import { environmentBytes, lambdaEnvironmentBytes, type NotificationPlan } from './notification-settings.js';
import { allowParameterRead, parametersExtension } from './parameter-access.js';

/** What the notifier is built from. */
export interface MarginaliaNotifierProps {
  /** Absolute path of functions/notify/handler.ts. */
  readonly entry: string;
  /** The one table, with its stream (NEW_IMAGE). */
  readonly table: TableV2;
  /**
   * The settings every function gets (table name, site name and address, ...); the sign-in key's parameter
   * (JWT_SECRET_PARAMETER) is left out of the notifier's.
   */
  readonly environment: Readonly<Record<string, string>>;
  /** The checked notification settings (lib/notification-settings.ts). */
  readonly plan: NotificationPlan;
  /** The address of the links in mails: the HTTP API's, unless SERVER_URL names a custom domain. */
  readonly serverUrl: string;
  /** The SSM SecureString of the link key, which signs the links in mails (never the sign-in key). */
  readonly linkSecretParameterName: string;
  /** How long the function's logs are kept; default one month. */
  readonly logRetention?: RetentionDays;
}

/** How often the sweep re-drives events left pending or failed. */
export const sweepInterval = Duration.minutes(notifierSchedule.sweepMinutes);

/**
 * The notifier: a third function woken by the table's stream (outbox events only), by a schedule that
 * sweeps what is left pending or failed, and, with SES, by the bounces and complaints of its mail. What
 * still fails lands in one encrypted queue (an alarm watches its depth, lib/marginalia-alarms.ts); the
 * durable record stays the outbox event in the table.
 */
export class MarginaliaNotifier extends Construct {
  /** The notify function. */
  readonly function: MarginaliaFunction;
  /**
   * Where failures end: the stream's batches that exhausted their retries or age (metadata only: shard and
   * sequence numbers), and the schedule's and SNS's invocations that failed (their event; no retry).
   */
  readonly failureQueue: Queue;
  /** The event source mapping from the table's stream. */
  readonly streamSource: DynamoEventSource;
  /** The sweep's schedule. */
  readonly sweep: Rule;
  /** With SES: the configuration set every mail is sent with. */
  readonly configurationSet?: ConfigurationSet;
  /** With SES: the topic its bounces and complaints reach, which the function reads. */
  readonly feedbackTopic?: Topic;

  constructor(scope: Construct, id: string, props: MarginaliaNotifierProps) {
    super(scope, id);
    const { plan, table } = props;

    this.failureQueue = new Queue(this, 'FailureQueue', {
      // SQS-managed keys: Lambda needs no KMS grant to write here. A stream batch's message is shard and
      // sequence numbers; a failed SES notice names its recipient, so messages are kept a week, not 14 days.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(7),
    });

    const sesSetup = plan.mailTransport === 'ses' ? this.sesFeedback() : undefined;
    this.configurationSet = sesSetup?.configurationSet;
    this.feedbackTopic = sesSetup?.topic;

    // The notifier signs links, never sign-in tokens: it is told neither the sign-in key nor where it is.
    const { JWT_SECRET_PARAMETER: _signInKey, ...shared } = props.environment;
    const environment: Record<string, string> = {
      ...shared,
      ...plan.environment,
      LINK_SECRET_PARAMETER: props.linkSecretParameterName,
      SERVER_URL: props.serverUrl,
      ...(sesSetup ? { SES_CONFIGURATION_SET: sesSetup.configurationSet.configurationSetName } : {}),
    };
    const fn = new MarginaliaFunction(this, 'Function', {
      entry: props.entry,
      description: 'Marginalia notifications: mail, webhook and Telegram from the outbox in the table.',
      environment,
      logRetention: props.logRetention,
      paramsAndSecrets: parametersExtension(),
      // One invocation sends up to a batch of notices, each to a few channels, an SMTP exchange taking a
      // second or more: 10 s would cut a slow batch short (it is then retried, but needlessly).
      timeout: Duration.seconds(notifierSchedule.timeoutSeconds),
      deadLetterQueue: this.failureQueue,
      // No reserved concurrency: the stream invokes one instance per shard, the schedule one per sweep,
      // SNS one per bounce, so the load is bounded by the table's own write maximum.
    });
    this.function = fn;
    // No asynchronous retries: a failed or timed-out sweep is replaced by the next tick, whereas Lambda's two
    // retries would spend the events' bounded sweeps within minutes. An SNS notice that fails goes straight to
    // the failure queue (its alarm shows it).
    fn.function.configureAsyncInvoke({ retryAttempts: 0 });
    // Templates are the settings that can grow: the whole environment, the layer's variables with it, must
    // fit in Lambda's 4 KB, or the deploy fails half-way.
    const bytes = environmentBytes(fn.environment());
    if (bytes > lambdaEnvironmentBytes) {
      throw new Error(
        `notifications: the notify function's environment takes about ${bytes} bytes, over Lambda's ` +
          `${lambdaEnvironmentBytes}; shorten MAIL_TEMPLATE and MAIL_TEMPLATE_ADMIN (or leave them unset ` +
          'for the built-in templates)',
      );
    }
    // Named item actions on the table only: it reads the comment and its parent (BatchGetItem), an event
    // and a day's events (GetItem, Query), and writes deliveries, event states, suppressions and caps
    // (PutItem, UpdateItem). No index, no Delete, no Scan.
    fn.function.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'dynamodb:GetItem',
          'dynamodb:BatchGetItem',
          'dynamodb:Query',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
        ],
        resources: [table.tableArn],
      }),
    );

    // TRIM_HORIZON: a mapping (re)created after writes still sees them (LATEST would drop them); sends are
    // idempotent per (event, recipient), so a replay of up to 24 h sends nothing twice.
    this.streamSource = new DynamoEventSource(table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: streamSettings.batchSize,
      maxBatchingWindow: Duration.seconds(streamSettings.maxBatchingWindowSeconds),
      bisectBatchOnError: streamSettings.bisectBatchOnError,
      reportBatchItemFailures: streamSettings.reportBatchItemFailures,
      retryAttempts: streamSettings.retryAttempts,
      maxRecordAge: Duration.seconds(streamSettings.maxRecordAgeSeconds),
      onFailure: new SqsDlq(this.failureQueue),
      // Only outbox events put or set back to pending invoke the function; the rest costs nothing.
      filters: [FilterCriteria.filter(structuredClone(outboxFilterPattern) as Record<string, unknown>)],
    });
    // Grants stream read (DescribeStream, GetRecords, GetShardIterator, ListStreams) on this stream's ARN.
    fn.function.addEventSource(this.streamSource);

    this.sweep = new Rule(this, 'Sweep', {
      description: 'Marginalia: re-drives notifications left pending or failed.',
      schedule: Schedule.rate(sweepInterval),
      // A sweep that could not be delivered is replaced by the next one: no point retrying it for a day.
      targets: [new LambdaTarget(fn.function, { retryAttempts: 2, maxEventAge: sweepInterval })],
    });

    // Links in mails are signed with the link key, a secret of its own (the sign-in key is the comment
    // function's alone); the channels' secrets are read only from the parameters the settings name.
    for (const name of [props.linkSecretParameterName, ...plan.parameterNames]) {
      allowParameterRead(fn.function, name);
    }

    if (sesSetup && plan.sesIdentity !== undefined) {
      sesSetup.topic.addSubscription(new LambdaSubscription(fn.function));
      const stack = Stack.of(this);
      // SendEmail authorises the From identity and, when one is named, the configuration set: exactly
      // these two, never `identity/*`.
      fn.function.addToRolePolicy(
        new PolicyStatement({
          actions: ['ses:SendEmail', 'ses:SendRawEmail'],
          resources: [
            stack.formatArn({ service: 'ses', resource: 'identity', resourceName: plan.sesIdentity }),
            stack.formatArn({
              service: 'ses',
              resource: 'configuration-set',
              resourceName: sesSetup.configurationSet.configurationSetName,
            }),
          ],
        }),
      );
    }
  }

  /**
   * The configuration set and the path of its feedback: bounces and complaints to an SNS topic under a key
   * of the stack's own (SES cannot publish to a topic under the AWS managed key, and the notices name the
   * recipient), which the function turns into suppressions.
   */
  private sesFeedback(): { configurationSet: ConfigurationSet; topic: Topic } {
    const key = new Key(this, 'FeedbackKey', {
      description: 'Marginalia: encrypts the SES bounce and complaint notices (they name the recipient).',
      enableKeyRotation: true,
      // The key protects notices in flight only (SNS keeps nothing): it can go with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    // SES publishes encrypted notices: it needs a data key from this key, for this account's sends only.
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['kms:GenerateDataKey', 'kms:Decrypt'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    const topic = new Topic(this, 'Feedback', {
      displayName: 'Marginalia SES bounces and complaints',
      masterKey: key,
      enforceSSL: true,
    });
    const configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      // SES itself stops sending to an address that bounced hard or complained (its account-level list),
      // beside the suppression the function records in the table.
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    // Also adds the topic policy letting SES publish from this configuration set only.
    configurationSet.addEventDestination('Feedback', {
      destination: EventDestination.snsTopic(topic),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });
    return { configurationSet, topic };
  }
}
