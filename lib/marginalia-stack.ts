import { fileURLToPath } from 'node:url';
import {
  Annotations,
  CfnOutput,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  type HttpRoute,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { loadConfig } from '../functions/shared/config.js';
import { templatePublishesMail } from '../functions/shared/domain/avatar.js';
import { installedRegionDatabase } from '../functions/shared/region/region-database.js';
import { MarginaliaAlarms } from './marginalia-alarms.js';
import { MarginaliaFunction } from './marginalia-function.js';
import { MarginaliaNotifier } from './marginalia-notifier.js';
import { type NotificationVariables, planNotifications, secretVariables } from './notification-settings.js';
import { allowParameterRead, parametersExtension } from './parameter-access.js';
import { readSignInProviders } from '../functions/shared/sign-in-provider-settings.js';
import { routeThrottles } from './route-throttles.js';
import { routes } from './routes.js';
import { siteOrigins } from './site-origins.js';
import {
  byIdIndexAttributes,
  cardAttributes,
  legacyRecentIndex,
  tableDefinition,
} from '../functions/shared/table/table-definition.js';

/**
 * Deployment settings, read from CDK context by bin/app.ts. Every one has a default but the site: `siteUrl`
 * or `allowedOrigins` must be given (lib/site-origins.ts).
 */
export interface MarginaliaStackProps extends StackProps {
  /** Origins allowed by CORS and by the functions (not `*`); default the origin of `siteUrl`. */
  readonly allowedOrigins?: readonly string[];
  /** Seconds between two comments from one IP; default 60, 0 turns the limit off. */
  readonly ipqps?: number;
  /** Milliseconds a warm function reuses a list it read (LIST_CACHE_MS); default 1000, 0 off. */
  readonly listCacheMs?: number;
  /** Avatar URL template or proxy (Waline `AVATAR_PROXY`); default none. */
  readonly avatarProxy?: string;
  /** Gravatar URL template (Waline `GRAVATAR_STR`); default the functions' own. */
  readonly gravatarStr?: string;
  /** Drop browser and OS from comments (Waline `DISABLE_USERAGENT`); default false. */
  readonly disableUserAgent?: boolean;
  /** Waline `LEVELS`: the approved-comment thresholds of the levels, e.g. `[0, 10, 20, 50, 100, 200]`; default none. */
  readonly levels?: readonly number[];
  /** Waline `DISABLE_REGION`: new comments get no region (`addr`); default false. */
  readonly disableRegion?: boolean;
  /** Waline's QQ avatars (`AVATAR_QQ`), whose URL spells out the QQ number; default false. */
  readonly avatarQq?: boolean;
  /**
   * Steady-state requests per second across the API, shared out between the routes (each route has its own
   * bucket; their limits add up to this, lib/route-throttles.ts); default 50, at least 1. The routes of the
   * links in a mail have fixed limits of their own on top (8 requests/s, `linkRouteThrottles`).
   */
  readonly throttleRateLimit?: number;
  /** Requests the API absorbs in a burst above the steady rate, shared out the same way; default 100. */
  readonly throttleBurstLimit?: number;
  /**
   * Instances of the comment function that may run at once, reserved out of the region's concurrency;
   * default none (the account's unreserved pool). Lambda refuses a reservation that leaves fewer than 100
   * unreserved, so asking for one fails the deploy on an account whose quota is below 100 plus every
   * reservation (new accounts can start at 10): synth warns.
   */
  readonly commentConcurrency?: number;
  /** Instances of the article function that may run at once, reserved like `commentConcurrency`; default none. */
  readonly articleConcurrency?: number;
  /** Read request units per second the table, and each of its indexes, may use (on-demand maximum); default 100. */
  readonly maxReadUnits?: number;
  /** Write request units per second the table, and each of its indexes, may use (on-demand maximum); default 25. */
  readonly maxWriteUnits?: number;
  /** How long the API's access logs (no IP addresses) are kept; default one month. */
  readonly accessLogRetention?: RetentionDays;
  /** Where alarms (and the budget) send mail; default none (alarms show in the console and on the topic). */
  readonly alarmEmail?: string;
  /** A monthly AWS cost budget for the account, in US dollars, mailed to `alarmEmail`; default none. */
  readonly monthlyBudgetUsd?: number;
  /** API 5xx answers, or errors of one function, in 5 minutes that raise an alarm; default 5. */
  readonly alarmErrorThreshold?: number;
  /** Percentage of its maximum read or write units that the table or an index may use for 15 minutes before an alarm; default 80. */
  readonly alarmCapacityPercent?: number;
  /** How long function logs are kept; default one month. */
  readonly logRetention?: RetentionDays;
  /**
   * Name of the SSM SecureString that holds the key signing administrators' sign-in tokens (create
   * it before deploying; CloudFormation cannot create SecureStrings); default `/marginalia/jwt-secret`.
   */
  readonly jwtSecretParameterName?: string;
  /**
   * Name of the SSM SecureString that holds the key signing the links in mails (unsubscribe, approve from
   * the mail), a value of its own, never the sign-in key's (create it before deploying, as the sign-in
   * key); default `/marginalia/link-secret`. The comment function and the notifier read it; only the
   * comment function reads the sign-in key.
   */
  readonly linkSecretParameterName?: string;
  /**
   * New comments wait for approval (Waline `COMMENT_AUDIT`): `true` every one, `'first'` an address's until an
   * administrator approved one of them; default false.
   */
  readonly commentAudit?: boolean | 'first';
  /**
   * Who may register a visitor account (`REGISTRATION`): `open`, `approval` (an administrator admits each) or
   * `closed` (the default). Both open kinds mail a confirmation link, so they need mail (SES or SMTP).
   */
  readonly registration?: 'open' | 'approval' | 'closed';
  /**
   * What a commenter's erase leaves of a comment others answered (`ERASE_WITH_REPLIES`): `placeholder` (the
   * default: `[deleted]`) or `anonymise` (its text kept, its author's name "Anonymous").
   */
  readonly eraseWithReplies?: 'placeholder' | 'anonymise';
  /** Words that mark a comment as spam, in its text, nick or link (Waline `FORBIDDEN_WORDS`); default none. */
  readonly forbiddenWords?: readonly string[];
  /** Words that refuse a comment (403) in its text, nick or link (Twikoo `BLOCKED_WORDS`); default none. */
  readonly blockedWords?: readonly string[];
  /** Nicks only administrators may post under, ignoring case (Remark42 `RESTRICTED_NAMES`); default none. */
  readonly restrictedNames?: readonly string[];
  /**
   * Days after an article's first approved comment when it takes no new ones (Remark42 `READONLY_AGE`);
   * default 0, every article open.
   */
  readonly readonlyAge?: number;
  /** IP hashes (from the moderation list) whose comments are refused; default none. */
  readonly blockedIpHashes?: readonly string[];
  /**
   * Name of the SSM SecureString that holds the Akismet key (create it to turn spam checking on; the
   * functions read it at runtime, so the key is in neither the template nor the function's settings);
   * default `/marginalia/akismet-key`. Without the parameter, Akismet is off.
   */
  readonly akismetKeyParameterName?: string;
  /**
   * Name of the SSM SecureString that holds Cloudflare Turnstile's secret key (Waline `TURNSTILE_SECRET`); when
   * set, anonymous comments and sign-ins need a Turnstile token (docs/configuration.md#captcha). Default none
   * (no captcha). Read at runtime like the Akismet key; a parameter that does not exist leaves the captcha off.
   */
  readonly turnstileSecretParameterName?: string;
  /** The same for reCAPTCHA v3's secret key (Waline `RECAPTCHA_V3_SECRET`); Turnstile's wins when both exist. */
  readonly recaptchaV3SecretParameterName?: string;
  /** Turnstile's public site key (Waline `TURNSTILE_KEY`), for the sign-in page; required with Turnstile's secret. */
  readonly turnstileKey?: string;
  /**
   * reCAPTCHA v3's public site key (Waline `RECAPTCHA_V3_KEY`), for the sign-in page; required with reCAPTCHA's
   * secret alone (and `turnstileKey` then refused).
   */
  readonly recaptchaV3Key?: string;
  /** The least reCAPTCHA v3 score a token passes with, 0 to 1 (`RECAPTCHA_V3_MIN_SCORE`); default 0.5. */
  readonly recaptchaV3MinScore?: number;
  /**
   * Single sign-on with the site (docs/single-sign-on.md): the name of the SSM SecureString holding the HS256 key
   * the site's backend signs its assertions with (`SSO_SECRET_PARAMETER`). Default none: no HS256 assertion.
   */
  readonly ssoSecretParameterName?: string;
  /** The site's own OpenID Connect issuer, whose ID tokens are taken as SSO assertions (`SSO_ISSUER`); default none. */
  readonly ssoIssuer?: string;
  /**
   * The `aud` SSO assertions must carry (`SSO_AUDIENCE`); default the API's address: `SERVER_URL` when the
   * notifications name one (a custom domain), else the HTTP API's own.
   */
  readonly ssoAudience?: string;
  /** The site's address, for Akismet and the comment feeds' links (Waline `SITE_URL`). */
  readonly siteUrl?: string;
  /** The site's name, for the titles of the comment feeds (Waline `SITE_NAME`). */
  readonly siteName?: string;
  /**
   * The domain passkeys are made for (`PASSKEY_RP_ID`): the API's custom domain or a parent of it. Unset, the
   * host each request reached; set it when the API answers at more than one address.
   */
  readonly passkeyRpId?: string;
  /**
   * Waline's markdown switches, each on unless false: `MARKDOWN_HIGHLIGHT`, `MARKDOWN_EMOJI`,
   * `MARKDOWN_SUB`, `MARKDOWN_SUP`; and `MARKDOWN_TEX` (`mathjax`, `katex` or `false`). Unset, Waline's
   * defaults: everything on.
   */
  readonly markdown?: {
    readonly highlight?: boolean;
    readonly emoji?: boolean;
    readonly sub?: boolean;
    readonly sup?: boolean;
    readonly tex?: 'mathjax' | 'katex' | false;
  };
  /**
   * Only for the deploys that upgrade an older stack, since CloudFormation adds or removes one GSI per
   * update (docs/deploy.md): the table keeps layout 2's `recent` index and has only the first this many of
   * the indexes added since 0.1.0 (roots-by-time, roots-by-like, approved-by-time, held-by-time). Default:
   * all four, and no `recent`.
   */
  readonly upgradeIndexes?: number;
  /**
   * The notification settings, under Waline's names (lib/notification-settings.ts, docs/notifications-setup.md):
   * the owner's address, SES or SMTP, the webhook, Telegram, the templates and the caps. Secrets are SSM
   * SecureStrings named by the `*_PARAMETER` settings. Default none: the notifier records every notice as
   * skipped.
   */
  readonly notifications?: NotificationVariables;
  /**
   * Sign-in with OpenID Connect issuers and GitHub (issue 28, docs/sign-in-providers.md), under the function's
   * names: `OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET_PARAMETER`, `OIDC_LABEL` (comma lists aligned by
   * position), `GITHUB_CLIENT_ID`, `GITHUB_CLIENT_SECRET_PARAMETER`, `GITHUB_URL`, `GITHUB_API_URL`. The secrets
   * are SSM SecureStrings the comment function alone may read. Default none: no sign-in button.
   */
  readonly signInProviders?: Readonly<Partial<Record<(typeof signInProviderVariables)[number], string>>>;
}

/** The comment function's variables of the sign-in providers a stack passes on (never a secret's value). */
export const signInProviderVariables = [
  'OIDC_ISSUER',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET_PARAMETER',
  'OIDC_LABEL',
  'GITHUB_CLIENT_ID',
  'GITHUB_CLIENT_SECRET_PARAMETER',
  'GITHUB_URL',
  'GITHUB_API_URL',
] as const;

const entry = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** Marginalia on AWS: HTTP API -> comment and article functions -> one DynamoDB table. */
export class MarginaliaStack extends Stack {
  /** The one table: comments, counters and marks. */
  readonly table: TableV2;
  /** Serves every comment route and unknown routes. */
  readonly commentFunction: MarginaliaFunction;
  /** Serves the reading-count routes. */
  readonly articleFunction: MarginaliaFunction;
  /** The HTTP API in front of both functions. */
  readonly api: HttpApi;
  /** The API's one stage: throttling and access logs. */
  readonly stage: HttpStage;
  /** The stage's access logs. */
  readonly accessLogs: LogGroup;
  /** The alarms, their topic and the optional budget. */
  readonly alarms: MarginaliaAlarms;
  /** The notify function, its stream mapping, sweep and failure queue, and with SES its feedback. */
  readonly notifier: MarginaliaNotifier;

  constructor(scope: Construct, id: string, props: MarginaliaStackProps = {}) {
    super(scope, id, props);

    const allowedOrigins = siteOrigins(props);
    const jwtSecretParameterName = props.jwtSecretParameterName ?? '/marginalia/jwt-secret';
    const linkSecretParameterName = props.linkSecretParameterName ?? '/marginalia/link-secret';
    const ipqps = props.ipqps ?? 60;
    const listCacheMs = props.listCacheMs ?? 1000;
    const rateLimit = props.throttleRateLimit ?? 50;
    const burstLimit = props.throttleBurstLimit ?? 100;
    validate(ipqps, rateLimit, burstLimit, props.readonlyAge ?? 0);
    // The functions refuse such a template at every cold start: refuse it here, before it deploys.
    if (props.gravatarStr !== undefined && templatePublishesMail(props.gravatarStr)) {
      throw new Error(
        'gravatarStr: the template puts the mail address into avatar URLs; hash it with {{mail|md5}} or {{mail|sha256}}',
      );
    }
    const ceilings = {
      maxReadUnits: props.maxReadUnits ?? 100,
      maxWriteUnits: props.maxWriteUnits ?? 25,
      alarmErrorThreshold: props.alarmErrorThreshold ?? 5,
      alarmCapacityPercent: props.alarmCapacityPercent ?? 80,
    };
    validateCeilings(ceilings, props.alarmEmail, props.monthlyBudgetUsd);
    const reservations = reservedConcurrency(this, {
      commentConcurrency: props.commentConcurrency,
      articleConcurrency: props.articleConcurrency,
    });
    // Throws when a route has no share, or the ceiling is too small to give each route one unit.
    const throttles = routeThrottles({ rateLimit, burstLimit });
    if (!Number.isInteger(listCacheMs) || listCacheMs < 0 || listCacheMs > 60_000) {
      throw new Error(`listCacheMs: ${listCacheMs} is not a whole number of milliseconds from 0 to 60000`);
    }
    // Like the Akismet key below: a secret given as context would be published in the template.
    for (const [secret, parameter] of Object.entries(secretVariables)) {
      if (this.node.tryGetContext(secret) !== undefined) {
        throw new Error(
          `${secret}: secrets are not taken from context, which puts them into the template; store it as an ` +
            `SSM SecureString, set ${parameter} to its name and remove ${secret}`,
        );
      }
    }
    const notifications = planNotifications(props.notifications);
    const registration = props.registration ?? 'closed';
    if (registration !== 'closed' && notifications.mailTransport === undefined) {
      throw new Error(
        `registration: ${registration} needs mail (SES_IDENTITY, or SMTP_HOST or SMTP_SERVICE): a new account ` +
          'is confirmed through a mailed link; set up mail, or leave registration closed',
      );
    }

    const { indexes } = tableDefinition;
    const upgrading = props.upgradeIndexes !== undefined;
    const added = [indexes.rootsByTime, indexes.rootsByLike, indexes.recent, indexes.held].slice(
      0,
      props.upgradeIndexes,
    );
    const indexNames = [
      ...(upgrading ? [legacyRecentIndex.name] : []),
      indexes.byId.name,
      ...added.map((index) => index.name),
    ];
    // On-demand maximums: requests beyond them are throttled rather than billed. Each index has its own
    // (an index without one is unlimited), set to the table's: with five indexes, what the table can
    // consume at most is six times each value (docs/deploy.md).
    const maximums = {
      maxReadRequestUnits: ceilings.maxReadUnits,
      maxWriteRequestUnits: ceilings.maxWriteUnits,
    };
    // TableV2 (AWS::DynamoDB::GlobalTable) rather than Table: it is what CDK recommends for new tables,
    // replicas can be added later in place, and moving a live Table to TableV2 needs a retain-and-import.
    const table = new TableV2(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(maximums),
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      // The notifier reads each change's new image (only outbox events reach it: the mapping's filter).
      // Adding a stream to a deployed table is an in-place update.
      dynamoStream: StreamViewType[tableDefinition.streamView],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Comments are user data: deleting the stack must not delete them, and RETAIN alone does not stop a
      // DeleteTable call from the console or the CLI.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
      globalSecondaryIndexes: [
        // Layout 2's recent index, with the texts: kept only while a stack is upgraded, removed last.
        ...(upgrading
          ? [
              {
                indexName: legacyRecentIndex.name,
                partitionKey: { name: legacyRecentIndex.partitionKey, type: AttributeType.STRING },
                sortKey: { name: legacyRecentIndex.sortKey, type: AttributeType.STRING },
                projectionType: ProjectionType.INCLUDE,
                nonKeyAttributes: [...legacyRecentIndex.attributes],
                ...maximums,
              },
            ]
          : []),
        {
          indexName: indexes.byId.name,
          partitionKey: { name: indexes.byId.partitionKey, type: AttributeType.STRING },
          projectionType: ProjectionType.INCLUDE,
          nonKeyAttributes: [...byIdIndexAttributes],
          ...maximums,
        },
        // CloudFormation adds one GSI per stack update: an upgrade deploys them one at a time
        // (upgradeIndexes, docs/deploy.md). The roots indexes are keys only: a page of the list reads the
        // keys of the roots before it there, a few bytes each. The card indexes copy no text: a recent list
        // or a moderation page reads a few KB of cards, then texts within a budget (card-index.ts).
        ...added.map((index) => ({
          indexName: index.name,
          partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
          sortKey: {
            name: index.sortKey,
            type: index === indexes.rootsByLike ? AttributeType.NUMBER : AttributeType.STRING,
          },
          ...(index === indexes.recent || index === indexes.held
            ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...cardAttributes] }
            : { projectionType: ProjectionType.KEYS_ONLY }),
          ...maximums,
        })),
      ],
    });
    this.table = table;

    const ipHashSalt = new Secret(this, 'IpHashSalt', {
      description: 'Salt for hashing client IPs (voter and rate-limit marks).',
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
      // Voter and rate marks in the table are hashes made with this salt; a new salt would orphan them.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(ipHashSalt).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Not rotated on purpose: voter and rate marks and every comment ipHash are HMACs under this salt, ' +
        'so a new salt would orphan them all. docs/deploy.md describes a manual rotation.',
    });

    const environment: Record<string, string> = {
      TABLE_NAME: table.tableName,
      IPQPS: String(ipqps),
      LIST_CACHE_MS: String(listCacheMs),
      // A CloudFormation dynamic reference, resolved at deploy time into the function's configuration:
      // no Secrets Manager call on a cold start, and the value never leaves the account.
      IP_HASH_SALT: ipHashSalt.secretValue.unsafeUnwrap(),
      ALLOWED_ORIGINS: allowedOrigins.join(','),
      DISABLE_USERAGENT: String(props.disableUserAgent ?? false),
      ...(props.disableRegion ? { DISABLE_REGION: 'true' } : {}),
      ...(props.levels?.length ? { LEVELS: props.levels.join(',') } : {}),
      AVATAR_QQ: String(props.avatarQq ?? false),
      ...(props.avatarProxy === undefined ? {} : { AVATAR_PROXY: props.avatarProxy }),
      ...(props.gravatarStr === undefined ? {} : { GRAVATAR_STR: props.gravatarStr }),
      JWT_SECRET_PARAMETER: jwtSecretParameterName,
      COMMENT_AUDIT: String(props.commentAudit ?? false),
      // The comment function checks at load that an open registration has mail (config.ts): it is told how.
      ...(registration === 'closed'
        ? {}
        : { REGISTRATION: registration, MAIL_TRANSPORT: notifications.mailTransport ?? '' }),
      ...(props.eraseWithReplies ? { ERASE_WITH_REPLIES: props.eraseWithReplies } : {}),
      ...(props.forbiddenWords?.length ? { FORBIDDEN_WORDS: props.forbiddenWords.join(',') } : {}),
      ...(props.blockedWords?.length ? { BLOCKED_WORDS: props.blockedWords.join(',') } : {}),
      ...(props.restrictedNames?.length ? { RESTRICTED_NAMES: props.restrictedNames.join(',') } : {}),
      ...(props.readonlyAge ? { READONLY_AGE: String(props.readonlyAge) } : {}),
      ...(props.blockedIpHashes?.length ? { BLOCKED_IP_HASHES: props.blockedIpHashes.join(',') } : {}),
      ...(props.siteUrl === undefined ? {} : { SITE_URL: props.siteUrl }),
      ...(props.siteName === undefined ? {} : { SITE_NAME: props.siteName }),
      ...(props.passkeyRpId === undefined ? {} : { PASSKEY_RP_ID: props.passkeyRpId }),
    };

    const comment = new MarginaliaFunction(this, 'CommentFunction', {
      entry: entry('../functions/comment/handler.ts'),
      description: 'Marginalia comments: list, count, recent, submit, like, moderate.',
      environment,
      logRetention: props.logRetention,
      // The sign-in key is read through AWS's extension (a layer with its own cache) rather than an
      // SSM client in the bundle: 76 KiB less code to load on every cold start, list requests included.
      paramsAndSecrets: parametersExtension(),
      // No reservation unless asked: a new account's quota (10) cannot reserve any, and the API's throttles
      // already bound the requests. At the API ceiling the comment routes take about 33 requests/s (the mail
      // links' 8 included), at ~0.1 s each warm and ~1 s for a submit: 4 to 5 busy instances of the
      // account's pool (Little's law).
      reservedConcurrentExecutions: reservations.commentConcurrency,
      // The region database (8 MB), read by the first submit of an instance, beside the bundle: never in it.
      ...(props.disableRegion ? {} : { dataFiles: [installedRegionDatabase()] }),
    });
    const article = new MarginaliaFunction(this, 'ArticleFunction', {
      entry: entry('../functions/article/handler.ts'),
      description: 'Marginalia reading counts and reactions.',
      environment,
      logRetention: props.logRetention,
      // About 25 requests/s at the API ceiling, a few tens of ms each: 1 to 2 busy instances.
      reservedConcurrentExecutions: reservations.articleConcurrency,
    });
    this.commentFunction = comment;
    this.articleFunction = article;

    // Named actions only: no Scan, no wildcard. TransactWriteItems has no IAM action of its own;
    // each item in a transaction is authorised as its Put/Update/Delete/ConditionCheck.
    comment.function.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'dynamodb:Query',
          'dynamodb:GetItem',
          'dynamodb:BatchGetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
          'dynamodb:ConditionCheckItem',
        ],
        resources: [table.tableArn],
      }),
    );
    // The indexes are only queried, each by name: no `<table>/index/*` (AwsSolutions-IAM5).
    comment.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: indexNames.map((name) => `${table.tableArn}/index/${name}`),
      }),
    );
    // Sign-in reads its token key once per cold start; only that one parameter. The key is a
    // SecureString under the AWS managed key, which SSM decrypts for callers allowed to read it.
    allowParameterRead(comment.function, jwtSecretParameterName);
    // The links in mails: signed by the notifier, read by the comment function, with a key of their own.
    comment.function.addEnvironment('LINK_SECRET_PARAMETER', linkSecretParameterName);
    allowParameterRead(comment.function, linkSecretParameterName);
    // An explicit statement, because grant() would add the index ARNs, which reading counts never use.
    // Reactions write and remove a voter mark (Put/Delete) and read the count back (GetItem).
    article.function.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'dynamodb:BatchGetItem',
          'dynamodb:GetItem',
          'dynamodb:UpdateItem',
          'dynamodb:PutItem',
          'dynamodb:DeleteItem',
        ],
        resources: [table.tableArn],
      }),
    );

    // ---- The Akismet key -------------------------------------------------------------------------
    // An SSM SecureString the operator creates (CloudFormation cannot create SecureStrings), read at
    // runtime through the Parameters and Secrets extension like the token key: never in the template,
    // cdk.out or the function's configuration. Only the comment function checks comments, so only it
    // gets the parameter's name and the right to read that one parameter. No parameter: Akismet is off.
    if (this.node.tryGetContext('akismetKey') !== undefined) {
      throw new Error(
        'akismetKey: the Akismet key is no longer taken from context, which put it into the template; ' +
          'store it as the SSM SecureString akismetKeyParameterName names (default /marginalia/akismet-key) ' +
          'and remove akismetKey',
      );
    }
    const akismetKeyParameterName = props.akismetKeyParameterName ?? '/marginalia/akismet-key';
    comment.function.addEnvironment('AKISMET_KEY_PARAMETER', akismetKeyParameterName);
    // Only the comment function renders markdown (on a write); the switches are set only when given.
    const markdown = props.markdown ?? {};
    for (const [name, value] of [
      ['MARKDOWN_HIGHLIGHT', markdown.highlight],
      ['MARKDOWN_EMOJI', markdown.emoji],
      ['MARKDOWN_SUB', markdown.sub],
      ['MARKDOWN_SUP', markdown.sup],
      ['MARKDOWN_TEX', markdown.tex],
    ] as const) {
      if (value !== undefined) comment.function.addEnvironment(name, String(value));
    }
    allowParameterRead(comment.function, akismetKeyParameterName);
    // ---- End of the Akismet key ------------------------------------------------------------------

    // ---- The captcha -----------------------------------------------------------------------------
    // The secrets are SSM SecureStrings, like the Akismet key, named only when given: no captcha by default,
    // and no parameter read for one. The site keys are public. The verify URLs stay the providers' on AWS.
    for (const secret of [
      'turnstileSecret',
      'recaptchaV3Secret',
      'TURNSTILE_SECRET',
      'RECAPTCHA_V3_SECRET',
    ]) {
      if (this.node.tryGetContext(secret) !== undefined) {
        throw new Error(
          `${secret}: captcha secrets are not taken from context, which puts them into the template; store it ` +
            'as an SSM SecureString and name it with turnstileSecretParameterName or recaptchaV3SecretParameterName',
        );
      }
    }
    const minScore = props.recaptchaV3MinScore;
    if (minScore !== undefined && !(minScore >= 0 && minScore <= 1)) {
      throw new Error(`recaptchaV3MinScore: ${minScore} is not a score from 0 to 1`);
    }
    for (const [variable, parameter] of [
      ['TURNSTILE_SECRET_PARAMETER', props.turnstileSecretParameterName],
      ['RECAPTCHA_V3_SECRET_PARAMETER', props.recaptchaV3SecretParameterName],
    ] as const) {
      if (parameter === undefined) continue;
      comment.function.addEnvironment(variable, parameter);
      allowParameterRead(comment.function, parameter);
    }
    for (const [name, key] of [
      ['turnstileKey', props.turnstileKey],
      ['recaptchaV3Key', props.recaptchaV3Key],
    ] as const) {
      // As the function's configuration reads it (config.ts): a bad key would stop it at every cold start.
      if (key !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(key)) {
        throw new Error(`${name}: must be letters, digits, _ and - (a site key as the provider gives it)`);
      }
    }
    // The sign-in page must send the token of the captcha the function checks (config.ts says why): the
    // provider whose secret is given, Turnstile's first. Stopped here, not at the first cold start.
    if (props.turnstileSecretParameterName !== undefined) {
      if (props.turnstileKey === undefined) {
        throw new Error(
          'turnstileSecretParameterName needs turnstileKey (-c turnstileKey=...), the site key of the same ' +
            'Turnstile widget: without it the sign-in page sends no Turnstile token, and every sign-in is refused',
        );
      }
    } else if (props.recaptchaV3SecretParameterName !== undefined) {
      if (props.recaptchaV3Key === undefined) {
        throw new Error(
          'recaptchaV3SecretParameterName needs recaptchaV3Key (-c recaptchaV3Key=...), the site key of the same ' +
            'reCAPTCHA v3 site: without it the sign-in page sends no reCAPTCHA token, and every sign-in is refused',
        );
      }
      if (props.turnstileKey !== undefined) {
        throw new Error(
          'turnstileKey without turnstileSecretParameterName: the captcha is reCAPTCHA v3 ' +
            '(recaptchaV3SecretParameterName), and the sign-in page would send a Turnstile token; remove turnstileKey',
        );
      }
    }
    for (const [variable, value] of [
      ['TURNSTILE_KEY', props.turnstileKey],
      ['RECAPTCHA_V3_KEY', props.recaptchaV3Key],
      ['RECAPTCHA_V3_MIN_SCORE', minScore],
    ] as const) {
      if (value !== undefined) comment.function.addEnvironment(variable, String(value));
    }
    // ---- End of the captcha ----------------------------------------------------------------------

    // ---- Sign-in with OpenID Connect issuers and GitHub --------------------------------------------
    // Checked here by the reader the function runs at cold start (a bad list stops synth, not every cold start).
    // The client secrets are SSM SecureStrings, read at runtime like the Akismet key: only their names are here.
    for (const secret of ['OIDC_CLIENT_SECRET', 'GITHUB_CLIENT_SECRET']) {
      if (this.node.tryGetContext(secret) !== undefined) {
        throw new Error(
          `${secret}: client secrets are not taken from context, which puts them into the template; store each ` +
            `as an SSM SecureString and name it with ${secret}_PARAMETER`,
        );
      }
    }
    const providerSettings = Object.fromEntries(
      Object.entries(props.signInProviders ?? {}).filter(([, value]) => value !== undefined && value !== ''),
    ) as Record<string, string>;
    const providers = readSignInProviders(providerSettings);
    if (providers.problems.length > 0) throw new Error(`signInProviders: ${providers.problems.join('; ')}`);
    for (const [variable, value] of Object.entries(providerSettings)) {
      comment.function.addEnvironment(variable, value);
    }
    for (const setting of [...providers.oidcIssuers, ...(providers.github ? [providers.github] : [])]) {
      if (setting.clientSecretParameter) allowParameterRead(comment.function, setting.clientSecretParameter);
    }
    // Issuers send readers back to SERVER_URL's callback when the API has a custom domain; else to the host asked.
    const providersConfigured = providers.oidcIssuers.length > 0 || providers.github !== undefined;
    if (providersConfigured && notifications.serverUrl !== undefined) {
      comment.function.addEnvironment('SERVER_URL', notifications.serverUrl);
    }
    // ---- End of the sign-in providers -------------------------------------------------------------

    const integrations = {
      comment: new HttpLambdaIntegration('CommentIntegration', comment.function),
      article: new HttpLambdaIntegration('ArticleIntegration', article.function),
    };

    const api = new HttpApi(this, 'HttpApi', {
      apiName: this.stackName,
      description: 'Marginalia: Waline-compatible comments and reading counts.',
      // Unknown routes reach the comment function, which answers them with a JSON 404 envelope.
      defaultIntegration: integrations.comment,
      // The implicit stage cannot be throttled; the explicit one below replaces it.
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: allowedOrigins,
        allowMethods: [
          CorsHttpMethod.GET,
          CorsHttpMethod.POST,
          CorsHttpMethod.PUT,
          CorsHttpMethod.DELETE,
          CorsHttpMethod.OPTIONS,
        ],
        allowHeaders: ['content-type', 'authorization'],
        // Browsers cap this (Chrome at 2 h), but a day saves a preflight per page view where honoured.
        maxAge: Duration.days(1),
      },
    });
    this.api = api;
    Validations.of(api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'A public comment widget API by design: readers are anonymous. Administrator routes check the ' +
        'sign-in token in the function (functions/comment), which answers 401 without a valid one.',
    });
    const apiRoutes: HttpRoute[] = routes.flatMap((route) =>
      api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: integrations[route.function],
      }),
    );

    // Access logs without the caller's IP address (nor user agent, nor query string): the functions keep
    // only a salted hash of it, and HTTP APIs take neither WAF nor per-client limits, so the IP would buy
    // nothing we could act on. What is left (route, status, latencies, errors) shows which routes drive
    // traffic and where the ceilings bite, and holds no personal data: it can be kept a month.
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.accessLogs = accessLogs;
    const shares = Object.values(throttles);
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      // Each route's own limits are in the route settings below. A route missing from them (none: every
      // route has a share) would get the smallest share rather than the account's limit.
      throttle: {
        rateLimit: Math.min(...shares.map((share) => share.rateLimit)),
        burstLimit: Math.min(...shares.map((share) => share.burstLimit)),
      },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
      },
    });
    this.stage = stage;
    // A ceiling on cost and abuse, true across the API: each route's token bucket gets its share of the
    // API's rate and burst, and the shares add up to them; the mail links' routes add their own fixed
    // limits. Requests above a route's limit get a 429 before any Lambda runs. No L2 property sets route
    // settings.
    (stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
      Object.entries(throttles).map(([routeKey, share]) => [
        routeKey,
        { ThrottlingRateLimit: share.rateLimit, ThrottlingBurstLimit: share.burstLimit },
      ]),
    );
    // CloudFormation refuses route settings that name a route it has not created yet.
    stage.node.addDependency(...apiRoutes);
    const defaultRoute = api.node.tryFindChild('DefaultRoute');
    if (defaultRoute !== undefined) stage.node.addDependency(defaultRoute);

    // ---- Single sign-on with the site ----------------------------------------------------------
    // Off unless a key parameter or an issuer is named. The key is an SSM SecureString read at runtime like the
    // Akismet key; the audience defaults to the API's address (the function only reads it, so no cycle).
    if (
      this.node.tryGetContext('ssoSecret') !== undefined ||
      this.node.tryGetContext('SSO_SECRET') !== undefined
    ) {
      throw new Error(
        'ssoSecret: the SSO key is not taken from context, which puts it into the template; store it as an SSM ' +
          'SecureString and name it with ssoSecretParameterName',
      );
    }
    if (props.ssoSecretParameterName !== undefined || props.ssoIssuer !== undefined) {
      const sso = loadConfig({
        TABLE_NAME: 'check',
        IP_HASH_SALT: 'only the SSO settings are read here',
        SSO_SECRET_PARAMETER: props.ssoSecretParameterName,
        SSO_ISSUER: props.ssoIssuer,
        SSO_AUDIENCE: props.ssoAudience ?? 'https://the-api.example',
      });
      if (sso.SSO_SECRET_PARAMETER !== undefined) {
        comment.function.addEnvironment('SSO_SECRET_PARAMETER', sso.SSO_SECRET_PARAMETER);
        allowParameterRead(comment.function, sso.SSO_SECRET_PARAMETER);
      }
      if (sso.SSO_ISSUER !== undefined) comment.function.addEnvironment('SSO_ISSUER', sso.SSO_ISSUER);
      comment.function.addEnvironment(
        'SSO_AUDIENCE',
        props.ssoAudience ?? notifications.serverUrl ?? api.apiEndpoint,
      );
    }
    // ---- End of single sign-on -------------------------------------------------------------------

    // Not behind the API: it only needs the API's address for the links in mails, so no cycle.
    const notifier = new MarginaliaNotifier(this, 'Notifier', {
      entry: entry('../functions/notify/handler.ts'),
      table,
      environment,
      plan: notifications,
      serverUrl: notifications.serverUrl ?? api.apiEndpoint,
      linkSecretParameterName,
      logRetention: props.logRetention,
    });
    this.notifier = notifier;

    this.alarms = new MarginaliaAlarms(this, 'Alarms', {
      stage,
      functions: { Comment: comment.function, Article: article.function },
      reservedConcurrency: {
        Comment: reservations.commentConcurrency,
        Article: reservations.articleConcurrency,
      },
      notifier: { function: notifier.function.function, failureQueue: notifier.failureQueue },
      table,
      indexNames,
      maxReadUnits: ceilings.maxReadUnits,
      maxWriteUnits: ceilings.maxWriteUnits,
      errorThreshold: ceilings.alarmErrorThreshold,
      capacityPercent: ceilings.alarmCapacityPercent,
      email: props.alarmEmail,
      monthlyBudgetUsd: props.monthlyBudgetUsd,
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'The serverURL for the Waline client.',
      value: api.apiEndpoint,
    });
    new CfnOutput(this, 'TableName', { description: 'The DynamoDB table.', value: table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'The SNS topic every alarm notifies.',
      value: this.alarms.topic.topicArn,
    });
    new CfnOutput(this, 'NotifyFailureQueueUrl', {
      description: 'Notifications that failed every retry (the outbox in the table keeps their state).',
      value: notifier.failureQueue.queueUrl,
    });
  }
}

/**
 * One JSON object per request. `requestId` is required by API Gateway; `$context.identity.sourceIp`,
 * `$context.identity.userAgent` and the query string are left out on purpose (see the stage).
 */
const accessLogFields = {
  requestId: '$context.requestId',
  time: '$context.requestTimeEpoch',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integrationStatus',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
};

function validate(ipqps: number, rateLimit: number, burstLimit: number, readonlyAge: number) {
  if (!Number.isInteger(ipqps) || ipqps < 0 || ipqps > 86_400) {
    throw new Error(`ipqps: ${ipqps} is not a whole number of seconds from 0 to 86400`);
  }
  if (!Number.isInteger(readonlyAge) || readonlyAge < 0 || readonlyAge > 36_500) {
    throw new Error(`readonlyAge: ${readonlyAge} is not a whole number of days from 0 to 36500`);
  }
  if (!(rateLimit >= 1) || !Number.isInteger(burstLimit) || burstLimit < 1) {
    throw new Error(
      `throttle: rate ${rateLimit} must be at least 1 request/s and burst ${burstLimit} a whole number >= 1`,
    );
  }
}

/**
 * The reserved concurrency asked for, checked: each a whole number of at least 1, or undefined (none, the
 * default). Any reservation gets a synth warning, since Lambda refuses one that leaves fewer than 100
 * unreserved and the deploy then fails on the functions.
 */
function reservedConcurrency<Name extends string>(
  scope: Construct,
  asked: Readonly<Record<Name, number | undefined>>,
): Readonly<Record<Name, number | undefined>> {
  const reserved = Object.entries(asked).filter((entry): entry is [string, number] => entry[1] !== undefined);
  for (const [name, value] of reserved) {
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(
        `${name}: ${value} is not a whole number of at least 1 (leave it unset to reserve none)`,
      );
    }
  }
  if (reserved.length > 0) {
    const total = reserved.reduce((sum, [, value]) => sum + value, 0);
    Annotations.of(scope).addWarningV2(
      'marginalia:reserved-concurrency',
      `${reserved.map(([name, value]) => `${name}=${value}`).join(' and ')} reserves ${total} instances of ` +
        "the region's Lambda concurrency. Lambda refuses a reservation that leaves fewer than 100 unreserved: " +
        `the deploy fails unless the account's quota is at least ${100 + total} plus what other functions ` +
        'in the region reserve (aws lambda get-account-settings; new accounts can start at 10). Without ' +
        "one, the API's throttles still bound the requests, and the table's maximums its units (docs/deploy.md).",
    );
  }
  return asked;
}

function validateCeilings(
  ceilings: Readonly<Record<string, number>>,
  alarmEmail: string | undefined,
  monthlyBudgetUsd: number | undefined,
) {
  for (const [name, value] of Object.entries(ceilings)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(`${name}: ${value} is not a whole number of at least 1`);
    }
  }
  if ((ceilings.alarmCapacityPercent ?? 0) > 100) {
    throw new Error(`alarmCapacityPercent: ${ceilings.alarmCapacityPercent} is above 100`);
  }
  if (alarmEmail !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail)) {
    throw new Error(`alarmEmail: "${alarmEmail}" is not a mail address`);
  }
  if (monthlyBudgetUsd !== undefined) {
    if (!(monthlyBudgetUsd > 0)) {
      throw new Error(`monthlyBudgetUsd: ${monthlyBudgetUsd} is not an amount above 0`);
    }
    if (alarmEmail === undefined) {
      throw new Error('monthlyBudgetUsd: a budget notifies by mail; set alarmEmail too');
    }
  }
}
