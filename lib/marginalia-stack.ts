import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpMethod, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, Billing, ProjectionType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsLogLevel,
  ParamsAndSecretsVersions,
} from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { MarginaliaFunction } from './marginalia-function.js';
import { routes } from './routes.js';
import { byIdIndexAttributes, recentIndexAttributes, tableDefinition } from './table-definition.js';

/** Deployment settings, read from CDK context by bin/app.ts; every one has a default. */
export interface MarginaliaStackProps extends StackProps {
  /** Origins allowed by CORS and by the functions; default `['*']`. */
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
  /** Steady-state requests per second across the API; default 50. */
  readonly throttleRateLimit?: number;
  /** Requests the API absorbs in a burst above the steady rate; default 100. */
  readonly throttleBurstLimit?: number;
  /** How long function logs are kept; default one month. */
  readonly logRetention?: RetentionDays;
  /**
   * Name of the SSM SecureString that holds the key signing administrators' sign-in tokens (create
   * it before deploying; CloudFormation cannot create SecureStrings); default `/marginalia/jwt-secret`.
   */
  readonly jwtSecretParameterName?: string;
  /** New comments wait for approval (Waline `COMMENT_AUDIT`); default false. */
  readonly commentAudit?: boolean;
  /** Words that mark a comment as spam (Waline `FORBIDDEN_WORDS`); default none. */
  readonly forbiddenWords?: readonly string[];
  /** IP hashes (from the moderation list) whose comments are refused; default none. */
  readonly blockedIpHashes?: readonly string[];
  /** Akismet key; spam checking is off without one (Waline `AKISMET_KEY`). */
  readonly akismetKey?: string;
  /** The site's address, for Akismet (Waline `SITE_URL`). */
  readonly siteUrl?: string;
  /**
   * False leaves the roots-by-like index out: only for the first of the two deploys that upgrade a
   * 0.1.0 stack, since CloudFormation adds one GSI per update (CHANGELOG.md); default true.
   */
  readonly rootsByLikeIndex?: boolean;
}

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

  constructor(scope: Construct, id: string, props: MarginaliaStackProps = {}) {
    super(scope, id, props);

    const allowedOrigins = [...(props.allowedOrigins ?? ['*'])];
    const jwtSecretParameterName = props.jwtSecretParameterName ?? '/marginalia/jwt-secret';
    const ipqps = props.ipqps ?? 60;
    const listCacheMs = props.listCacheMs ?? 1000;
    const rateLimit = props.throttleRateLimit ?? 50;
    const burstLimit = props.throttleBurstLimit ?? 100;
    validate(allowedOrigins, ipqps, rateLimit, burstLimit);
    if (!Number.isInteger(listCacheMs) || listCacheMs < 0 || listCacheMs > 60_000) {
      throw new Error(`listCacheMs: ${listCacheMs} is not a whole number of milliseconds from 0 to 60000`);
    }

    const { indexes } = tableDefinition;
    // TableV2 (AWS::DynamoDB::GlobalTable) rather than Table: it is what CDK recommends for new tables,
    // replicas can be added later in place, and moving a live Table to TableV2 needs a retain-and-import.
    const table = new TableV2(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Comments are user data: deleting the stack must not delete them.
      removalPolicy: RemovalPolicy.RETAIN,
      globalSecondaryIndexes: [
        {
          indexName: indexes.recent.name,
          partitionKey: { name: indexes.recent.partitionKey, type: AttributeType.STRING },
          sortKey: { name: indexes.recent.sortKey, type: AttributeType.STRING },
          projectionType: ProjectionType.INCLUDE,
          nonKeyAttributes: [...recentIndexAttributes],
        },
        {
          indexName: indexes.byId.name,
          partitionKey: { name: indexes.byId.partitionKey, type: AttributeType.STRING },
          projectionType: ProjectionType.INCLUDE,
          nonKeyAttributes: [...byIdIndexAttributes],
        },
        // Keys only: a page of the list reads the keys of the roots before it here, a few bytes each.
        // CloudFormation adds one GSI per stack update: upgrading a 0.1.0 stack takes two deploys
        // (CHANGELOG.md), each adding one of these.
        {
          indexName: indexes.rootsByTime.name,
          partitionKey: { name: indexes.rootsByTime.partitionKey, type: AttributeType.STRING },
          sortKey: { name: indexes.rootsByTime.sortKey, type: AttributeType.STRING },
          projectionType: ProjectionType.KEYS_ONLY,
        },
        ...(props.rootsByLikeIndex === false
          ? []
          : [
              {
                indexName: indexes.rootsByLike.name,
                partitionKey: { name: indexes.rootsByLike.partitionKey, type: AttributeType.STRING },
                sortKey: { name: indexes.rootsByLike.sortKey, type: AttributeType.NUMBER },
                projectionType: ProjectionType.KEYS_ONLY,
              },
            ]),
      ],
    });
    this.table = table;

    const ipHashSalt = new Secret(this, 'IpHashSalt', {
      description: 'Salt for hashing client IPs (voter and rate-limit marks).',
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
      // Voter and rate marks in the table are hashes made with this salt; a new salt would orphan them.
      removalPolicy: RemovalPolicy.RETAIN,
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
      ...(props.avatarProxy === undefined ? {} : { AVATAR_PROXY: props.avatarProxy }),
      ...(props.gravatarStr === undefined ? {} : { GRAVATAR_STR: props.gravatarStr }),
      JWT_SECRET_PARAMETER: jwtSecretParameterName,
      COMMENT_AUDIT: String(props.commentAudit ?? false),
      ...(props.forbiddenWords?.length ? { FORBIDDEN_WORDS: props.forbiddenWords.join(',') } : {}),
      ...(props.blockedIpHashes?.length ? { BLOCKED_IP_HASHES: props.blockedIpHashes.join(',') } : {}),
      ...(props.akismetKey === undefined ? {} : { AKISMET_KEY: props.akismetKey }),
      ...(props.siteUrl === undefined ? {} : { SITE_URL: props.siteUrl }),
    };

    const comment = new MarginaliaFunction(this, 'CommentFunction', {
      entry: entry('../functions/comment/handler.ts'),
      description: 'Marginalia comments: list, count, recent, submit, like, moderate.',
      environment,
      logRetention: props.logRetention,
      // The sign-in key is read through AWS's extension (a layer with its own cache) rather than an
      // SSM client in the bundle: 76 KiB less code to load on every cold start, list requests included.
      paramsAndSecrets: ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, {
        logLevel: ParamsAndSecretsLogLevel.WARN,
      }),
    });
    const article = new MarginaliaFunction(this, 'ArticleFunction', {
      entry: entry('../functions/article/handler.ts'),
      description: 'Marginalia reading counts and reactions.',
      environment,
      logRetention: props.logRetention,
    });
    this.commentFunction = comment;
    this.articleFunction = article;

    // Named actions only: no Scan, no wildcard. TransactWriteItems has no IAM action of its own;
    // each item in a transaction is authorised as its Put/Update/Delete/ConditionCheck.
    // grant() on a table with indexes also covers `<table>/index/*` (the recent and by-id Queries).
    table.grant(
      comment.function,
      'dynamodb:Query',
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:ConditionCheckItem',
    );
    // Sign-in reads its token key once per cold start; only that one parameter. The key is a
    // SecureString under the AWS managed key, which SSM decrypts for callers allowed to read it.
    comment.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['ssm:GetParameter'],
        resources: [
          Stack.of(this).formatArn({
            service: 'ssm',
            resource: 'parameter',
            resourceName: jwtSecretParameterName.replace(/^\//, ''),
          }),
        ],
      }),
    );
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
    for (const route of routes) {
      api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: integrations[route.function],
      });
    }

    new HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      // A ceiling on cost and abuse: requests above it get a 429 before any Lambda runs.
      throttle: { rateLimit, burstLimit },
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'The serverURL for the Waline client.',
      value: api.apiEndpoint,
    });
    new CfnOutput(this, 'TableName', { description: 'The DynamoDB table.', value: table.tableName });
  }
}

function validate(allowedOrigins: readonly string[], ipqps: number, rateLimit: number, burstLimit: number) {
  if (allowedOrigins.length === 0) {
    throw new Error('allowedOrigins: give at least one origin, or * for any');
  }
  const badOrigin = allowedOrigins.find((origin) => origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin));
  if (badOrigin !== undefined) {
    throw new Error(`allowedOrigins: "${badOrigin}" is not * or an origin like https://example.com`);
  }
  if (!Number.isInteger(ipqps) || ipqps < 0 || ipqps > 86_400) {
    throw new Error(`ipqps: ${ipqps} is not a whole number of seconds from 0 to 86400`);
  }
  if (!(rateLimit > 0) || !Number.isInteger(burstLimit) || burstLimit < 1) {
    throw new Error(
      `throttle: rate ${rateLimit} must be above 0 and burst ${burstLimit} a whole number >= 1`,
    );
  }
}
