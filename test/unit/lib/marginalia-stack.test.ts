import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { type CfnLogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MarginaliaFunction } from '../../../lib/marginalia-function.js';
import {
  installedRegionDatabase,
  regionDatabaseFile,
} from '../../../functions/shared/region/region-database.js';
import { MarginaliaStack, type MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import { routeKeys, sharedRouteKeys } from '../../../lib/route-throttles.js';
import {
  byIdIndexAttributes,
  cardAttributes,
  legacyRecentIndex,
  tableDefinition,
} from '../../../functions/shared/table/table-definition.js';
import { testSite } from './fixtures/site.js';

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };

/** The roots indexes as CloudFormation must see them: keys only, one partition per (article, status, pinned). */
const rootsByTime = {
  IndexName: tableDefinition.indexes.rootsByTime.name,
  KeySchema: [
    { AttributeName: tableDefinition.indexes.rootsByTime.partitionKey, KeyType: 'HASH' },
    { AttributeName: tableDefinition.indexes.rootsByTime.sortKey, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: 'KEYS_ONLY' },
  WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: 25 },
};
const rootsByLike = {
  IndexName: tableDefinition.indexes.rootsByLike.name,
  KeySchema: [
    { AttributeName: tableDefinition.indexes.rootsByLike.partitionKey, KeyType: 'HASH' },
    { AttributeName: tableDefinition.indexes.rootsByLike.sortKey, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: 'KEYS_ONLY' },
  WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: 25 },
};

/** The card indexes: sparse, by status, newest first, the card attributes but no text. */
const cardIndex = (index: { name: string; partitionKey: string; sortKey: string }) => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' },
    { AttributeName: index.sortKey, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...cardAttributes] },
  WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: 25 },
});

const commentActions = [
  'dynamodb:BatchGetItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DeleteItem',
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:UpdateItem',
  'logs:CreateLogStream',
  'logs:PutLogEvents',
  'ssm:GetParameter',
];

const customProps: MarginaliaStackProps = {
  allowedOrigins: ['https://blog.example.com', 'https://www.example.com'],
  ipqps: 0,
  listCacheMs: 0,
  avatarProxy: 'https://avatars.example.com/proxy',
  gravatarStr: 'https://gravatar.example.com/avatar/{{mail|md5}}',
  disableUserAgent: true,
  disableRegion: true,
  levels: [0, 10, 20],
  avatarQq: true,
  siteName: 'Example Blog',
  passkeyRpId: 'example.com',
  commentAudit: 'first',
  blockedWords: ['casino', 'pills'],
  restrictedNames: ['admin'],
  readonlyAge: 90,
  markdown: { emoji: false, tex: 'katex' },
  throttleRateLimit: 5,
  throttleBurstLimit: 70,
  logRetention: RetentionDays.ONE_WEEK,
};

let stack: MarginaliaStack;
let template: Template;
let resources: Record<string, Resource>;
let assemblyDir: string;
let customStack: MarginaliaStack;
let custom: Template;
const upgradeSteps = new Map<number, Template>();

/** The logical id of a function's CloudFormation resource. */
function functionId(owner: Stack, fn: MarginaliaFunction): string {
  return owner.getLogicalId(fn.function.node.defaultChild as CfnFunction);
}

/** The properties of one resource, found by logical id. */
function props(id: string): Record<string, unknown> {
  const resource = resources[id];
  if (!resource) throw new Error(`no resource ${id}`);
  return resource.Properties;
}

/** The logical id of the function a route key (`GET /api/comment`, `$default`) invokes. */
function routeTarget(routeKey: string): string {
  const route = Object.values(
    template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } }),
  );
  expect(route, routeKey).toHaveLength(1);
  const target = route[0]?.Properties.Target as { 'Fn::Join': [string, unknown[]] };
  const integration = target['Fn::Join'][1].find((part): part is { Ref: string } => typeof part === 'object');
  const uri = props(integration?.Ref ?? '').IntegrationUri as { 'Fn::GetAtt': [string, string] };
  return uri['Fn::GetAtt'][0];
}

/** Every IAM statement attached to the role of a function. */
function statementsOf(fnId: string): Array<{ Action: string | string[]; Resource: unknown; Effect: string }> {
  const roleRef = (props(fnId).Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleRef }]))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

function actionsOf(fnId: string): string[] {
  return [...new Set(statementsOf(fnId).flatMap((statement) => statement.Action))].sort();
}

/** The sums of the route settings' rates and bursts of a stage. */
/** The stage's route settings: every route key, and the sums of the limits of the routes that share the ceiling. */
function routeSettingsTotals(owner: Template): { keys: string[]; rate: number; burst: number } {
  const stage = Object.values(owner.findResources('AWS::ApiGatewayV2::Stage'))[0];
  const settings = stage?.Properties.RouteSettings as Record<
    string,
    { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
  >;
  const values = sharedRouteKeys().flatMap((key) => settings[key] ?? []);
  return {
    keys: Object.keys(settings),
    // Rates are in hundredths: sum them as whole hundredths so rounding cannot hide a difference.
    rate: values.reduce((sum, value) => sum + Math.round(value.ThrottlingRateLimit * 100), 0) / 100,
    burst: values.reduce((sum, value) => sum + value.ThrottlingBurstLimit, 0),
  };
}

/** The environment variables of a function. */
function environmentOf(owner: Template, fnId: string): Record<string, unknown> {
  const fn = owner.findResources('AWS::Lambda::Function')[fnId];
  return fn?.Properties.Environment.Variables;
}

beforeAll(() => {
  // The default stack is bundled with esbuild for real, once for the whole file.
  const app = new App();
  stack = new MarginaliaStack(app, 'Marginalia', testSite);
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
  assemblyDir = app.synth().directory;

  // The custom stack only checks that props reach the template: skip bundling and the built-in
  // CloudFormation validation (each costs seconds; the default stack above already runs both).
  const customApp = new App({
    builtinCloudFormationValidation: false,
    context: { 'aws:cdk:bundling-stacks': [] },
  });
  customStack = new MarginaliaStack(customApp, 'Custom', customProps);
  custom = Template.fromStack(customStack);
  // The upgrade deploys, each in an app of its own (a synthesized app takes no new stack).
  for (const step of [1, 2, 3, 4]) {
    const stepApp = new App({
      builtinCloudFormationValidation: false,
      context: { 'aws:cdk:bundling-stacks': [] },
    });
    upgradeSteps.set(
      step,
      Template.fromStack(
        new MarginaliaStack(stepApp, `Upgrade${step}`, { ...testSite, upgradeIndexes: step }),
      ),
    );
  }
}, 60_000);

describe('MarginaliaStack', () => {
  it('keys the table on string pk/sk with on-demand billing when synthesized', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayEquals([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: tableDefinition.indexes.byId.partitionKey, AttributeType: 'S' },
        { AttributeName: tableDefinition.indexes.rootsByTime.partitionKey, AttributeType: 'S' },
        // The like sort value is a number: votes move it with ADD, beside the count.
        { AttributeName: tableDefinition.indexes.rootsByLike.sortKey, AttributeType: 'N' },
        { AttributeName: tableDefinition.indexes.recent.partitionKey, AttributeType: 'S' },
        { AttributeName: tableDefinition.indexes.recent.sortKey, AttributeType: 'S' },
        { AttributeName: tableDefinition.indexes.held.partitionKey, AttributeType: 'S' },
        { AttributeName: tableDefinition.indexes.held.sortKey, AttributeType: 'S' },
      ]),
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it('turns on point-in-time recovery and TTL when synthesized', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [
        Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
      ],
      TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
    });
  });

  it('builds five GSIs, the roots ones keys only and the card ones without texts, when synthesized', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      GlobalSecondaryIndexes: Match.arrayEquals([
        {
          IndexName: tableDefinition.indexes.byId.name,
          KeySchema: [{ AttributeName: tableDefinition.indexes.byId.partitionKey, KeyType: 'HASH' }],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...byIdIndexAttributes] },
          WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: 25 },
        },
        rootsByTime,
        rootsByLike,
        cardIndex(tableDefinition.indexes.recent),
        cardIndex(tableDefinition.indexes.held),
      ]),
    });
    expect(cardAttributes).not.toContain('orig');
    expect(cardAttributes).not.toContain('html');
    expect(cardAttributes).not.toContain('ua');
    expect(rootsByTime.KeySchema).toEqual([
      { AttributeName: 'rootsPk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(rootsByLike.KeySchema).toEqual([
      { AttributeName: 'rootsPk', KeyType: 'HASH' },
      { AttributeName: 'likeSort', KeyType: 'RANGE' },
    ]);
  });

  it('changes one GSI per deploy from a 0.1.0 or a 0.2 stack through upgradeIndexes, the recent index removed last', () => {
    const indexesOf = (step: Template) => {
      const table = Object.values(step.findResources('AWS::DynamoDB::GlobalTable'))[0];
      return (table?.Properties.GlobalSecondaryIndexes as { IndexName: string }[]).map((i) => i.IndexName);
    };
    const { byId, rootsByTime: time, rootsByLike: like, recent, held } = tableDefinition.indexes;
    const version010 = [legacyRecentIndex.name, byId.name];
    const version02 = [...version010, time.name, like.name];
    const steps = [1, 2, 3, 4].map((step) => indexesOf(upgradeSteps.get(step) as Template));
    const final = indexesOf(template);

    expect(steps[1]).toEqual(version02);
    expect(steps[3]).toEqual([...version02, recent.name, held.name]);
    expect(final).toEqual([byId.name, time.name, like.name, recent.name, held.name]);
    // CloudFormation creates or deletes one GSI per stack update.
    const changed = (a: string[], b: string[]) =>
      a.filter((name) => !b.includes(name)).length + b.filter((name) => !a.includes(name)).length;
    for (const [from, to] of [
      [version010, steps[0]],
      [steps[0], steps[1]],
      [steps[1], steps[2]],
      [steps[2], steps[3]],
      [steps[3], final],
    ] as const) {
      expect(changed(from as string[], to as string[])).toBe(1);
    }
  });

  it('leaves the roots-by-like index and its key attribute out at the first upgrade step', () => {
    const table = Object.values(
      (upgradeSteps.get(1) as Template).findResources('AWS::DynamoDB::GlobalTable'),
    )[0];

    expect(
      table?.Properties.GlobalSecondaryIndexes.map((index: { IndexName: string }) => index.IndexName),
    ).toEqual([
      legacyRecentIndex.name,
      tableDefinition.indexes.byId.name,
      tableDefinition.indexes.rootsByTime.name,
    ]);
    expect(table?.Properties.GlobalSecondaryIndexes[0]).toMatchObject({
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...legacyRecentIndex.attributes] },
    });
    expect(table?.Properties.AttributeDefinitions).not.toContainEqual({
      AttributeName: 'likeSort',
      AttributeType: 'N',
    });
    expect(table?.Properties.AttributeDefinitions).toContainEqual({
      AttributeName: 'rootsPk',
      AttributeType: 'S',
    });
  });

  it('retains the table and the salt secret when the stack is deleted', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    template.hasResource('AWS::SecretsManager::Secret', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('generates a 32+ character salt without punctuation and passes it by dynamic reference', () => {
    const secret = Object.values(template.findResources('AWS::SecretsManager::Secret'))[0];
    const generator = secret?.Properties.GenerateSecretString;
    expect(generator.ExcludePunctuation).toBe(true);
    expect(generator.PasswordLength).toBeGreaterThanOrEqual(32);

    for (const fn of [stack.commentFunction, stack.articleFunction]) {
      const salt = environmentOf(template, functionId(stack, fn)).IP_HASH_SALT;
      expect(JSON.stringify(salt)).toContain('{{resolve:secretsmanager:');
    }
  });

  // Spelled out, not derived from the route lists (functions/*/routes.ts): a route dropped there must fail here.
  const expectedRoutes: ReadonlyArray<readonly [string, 'comment' | 'article']> = [
    ...['/api', ''].flatMap((prefix): Array<readonly [string, 'comment' | 'article']> => [
      [`GET ${prefix}/comment`, 'comment'],
      [`GET ${prefix}/comment/rss`, 'comment'],
      [`POST ${prefix}/comment`, 'comment'],
      [`PUT ${prefix}/comment/{id}`, 'comment'],
      [`DELETE ${prefix}/comment/{id}`, 'comment'],
      [`GET ${prefix}/article`, 'article'],
      [`POST ${prefix}/article`, 'article'],
      [`GET ${prefix}/token`, 'comment'],
      [`POST ${prefix}/token`, 'comment'],
      [`DELETE ${prefix}/token`, 'comment'],
      [`GET ${prefix}/token/2fa`, 'comment'],
      [`POST ${prefix}/token/2fa`, 'comment'],
      [`DELETE ${prefix}/token/2fa`, 'comment'],
      [`PUT ${prefix}/user`, 'comment'],
      [`GET ${prefix}/user`, 'comment'],
      [`PUT ${prefix}/user/{id}`, 'comment'],
      [`DELETE ${prefix}/user/{id}`, 'comment'],
    ]),
    ['GET /api/notification', 'comment'],
    ['POST /api/notification', 'comment'],
    ['GET /api/notification/unsubscribe', 'comment'],
    ['POST /api/notification/unsubscribe', 'comment'],
    ['GET /api/notification/moderate', 'comment'],
    ['POST /api/notification/moderate', 'comment'],
    ['GET /api/notification/confirm', 'comment'],
    ['POST /api/notification/confirm', 'comment'],
    ['GET /api/passkey', 'comment'],
    ['POST /api/passkey/options', 'comment'],
    ['POST /api/passkey', 'comment'],
    ['DELETE /api/passkey/{id}', 'comment'],
    ['POST /api/token/passkey/options', 'comment'],
    ['POST /api/token/passkey', 'comment'],
    ['GET /ui', 'comment'],
    ['GET /ui/login', 'comment'],
    ['GET /ui/profile', 'comment'],
    ['GET /ui/users', 'comment'],
    ['POST /api/user', 'comment'],
    ['PUT /api/user/password', 'comment'],
    ['POST /api/user/password', 'comment'],
    ['GET /api/verification', 'comment'],
    ['POST /api/verification', 'comment'],
    ['GET /verification', 'comment'],
    ['POST /verification', 'comment'],
    ['GET /ui/register', 'comment'],
    ['GET /ui/forgot', 'comment'],
    ['GET /ui/reset', 'comment'],
    ['POST /api/token/sso', 'comment'],
    ['POST /api/my-data', 'comment'],
    ['GET /api/my-data', 'comment'],
    ['DELETE /api/my-data', 'comment'],
    ['GET /api/my-data/log', 'comment'],
    ['GET /ui/my-data', 'comment'],
    ['GET /api/oauth/{id}', 'comment'],
    ['GET /api/oauth/callback', 'comment'],
  ];

  it('creates exactly the widget and page routes plus $default when synthesized', () => {
    const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (route) => (route as { Properties: { RouteKey: string } }).Properties.RouteKey,
    );

    expect(routeKeys.sort()).toEqual([...expectedRoutes.map(([key]) => key), '$default'].sort());
  });

  it.each(expectedRoutes)('sends %s to the %s function when it is called', (routeKey, name) => {
    const fn = name === 'comment' ? stack.commentFunction : stack.articleFunction;

    expect(routeTarget(routeKey)).toBe(functionId(stack, fn));
  });

  it('sends unknown routes to the comment function when no route matches', () => {
    expect(routeTarget('$default')).toBe(functionId(stack, stack.commentFunction));
  });

  it('answers CORS preflight for the site only', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ['https://blog.example'],
        AllowMethods: Match.arrayEquals(['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']),
        AllowHeaders: ['content-type', 'authorization'],
        MaxAge: 86_400,
      },
    });
  });

  it('throttles one auto-deployed $default stage at 50 rps and 100 burst across the shared routes when no limits are given', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
    });

    const totals = routeSettingsTotals(template);
    expect(totals.keys.sort()).toEqual(routeKeys().sort());
    expect(totals).toMatchObject({ rate: 50, burst: 100 });
  });

  it('runs the three functions on nodejs22.x arm64 with 512 MB, the API ones with 10 s, when synthesized', () => {
    template.resourceCountIs('AWS::Lambda::Function', 3);
    template.allResourcesProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Handler: 'index.handler',
    });
    for (const fn of [stack.commentFunction, stack.articleFunction]) {
      expect(props(functionId(stack, fn)).Timeout).toBe(10);
    }
    // Source maps are read when an error is logged, not parsed on every cold start.
    for (const fn of [stack.commentFunction, stack.articleFunction]) {
      expect(environmentOf(template, functionId(stack, fn))).not.toHaveProperty('NODE_OPTIONS');
    }
  });

  it('logs each function to its own log group kept one month when no retention is given', () => {
    // The three functions' and the API's access logs.
    template.resourceCountIs('AWS::Logs::LogGroup', 4);
    for (const fn of [stack.commentFunction, stack.articleFunction, stack.notifier.function]) {
      const logGroup = (props(functionId(stack, fn)).LoggingConfig as { LogGroup: { Ref: string } }).LogGroup
        .Ref;

      expect(props(logGroup).RetentionInDays).toBe(30);
    }
  });

  it('passes the table name and default settings to both functions when no props are given', () => {
    const tableId = stack.getLogicalId(stack.table.node.defaultChild as never);
    for (const fn of [stack.commentFunction, stack.articleFunction]) {
      const env = environmentOf(template, functionId(stack, fn));

      expect(env).toMatchObject({
        TABLE_NAME: { Ref: tableId },
        IPQPS: '60',
        ALLOWED_ORIGINS: 'https://blog.example',
        DISABLE_USERAGENT: 'false',
        // QQ avatars spell the QQ number out: off unless asked for.
        AVATAR_QQ: 'false',
      });
      expect(env).not.toHaveProperty('AVATAR_PROXY');
      expect(env).not.toHaveProperty('GRAVATAR_STR');
      // Regions on, no levels: Waline's defaults.
      expect(env).not.toHaveProperty('DISABLE_REGION');
      expect(env).not.toHaveProperty('LEVELS');
    }
  });

  it('grants the comment function exactly its item actions on the table and Query on each index by name', () => {
    const statements = statementsOf(functionId(stack, stack.commentFunction));
    const resourcesJson = JSON.stringify(statements.map((statement) => statement.Resource));

    expect(actionsOf(functionId(stack, stack.commentFunction))).toEqual(commentActions);
    expect(statements.every((statement) => statement.Effect === 'Allow')).toBe(true);
    expect(resourcesJson).not.toContain('/index/*');
    for (const index of Object.values(tableDefinition.indexes)) {
      expect(resourcesJson).toContain(`/index/${index.name}`);
    }
    const indexStatements = statements.filter((statement) =>
      JSON.stringify(statement.Resource).includes('/index/'),
    );
    expect(indexStatements.flatMap((statement) => statement.Action)).toEqual(['dynamodb:Query']);
  });

  it('grants the article function only its item actions on the table, not its indexes', () => {
    const statements = statementsOf(functionId(stack, stack.articleFunction));

    expect(actionsOf(functionId(stack, stack.articleFunction))).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
    ]);
    expect(JSON.stringify(statements.map((statement) => statement.Resource))).not.toContain('index');
  });

  it('lets the comment function read only the sign-in key, the link key and the Akismet key parameters', () => {
    const statements = statementsOf(functionId(stack, stack.commentFunction));
    const ssm = statements.filter((statement) => JSON.stringify(statement.Action).includes('ssm:'));
    const parameters = ssm
      .flatMap((statement) => [statement.Resource].flat())
      .map((arn) => JSON.stringify(arn));

    expect(ssm.flatMap((statement) => statement.Action)).toEqual(ssm.map(() => 'ssm:GetParameter'));
    expect(parameters).toHaveLength(3);
    expect(parameters.some((arn) => arn.includes(':parameter/marginalia/jwt-secret'))).toBe(true);
    expect(parameters.some((arn) => arn.includes(':parameter/marginalia/link-secret'))).toBe(true);
    expect(parameters.some((arn) => arn.includes(':parameter/marginalia/akismet-key'))).toBe(true);
    expect(environmentOf(template, functionId(stack, stack.commentFunction))).toMatchObject({
      JWT_SECRET_PARAMETER: '/marginalia/jwt-secret',
      LINK_SECRET_PARAMETER: '/marginalia/link-secret',
      COMMENT_AUDIT: 'false',
      LIST_CACHE_MS: '1000',
    });
  });

  it('passes the markdown switches given to the comment function only, and none unless given', () => {
    const markdownOf = (owner: Template, fnId: string) =>
      Object.keys(environmentOf(owner, fnId)).filter((name) => name.startsWith('MARKDOWN_'));

    expect(environmentOf(custom, functionId(customStack, customStack.commentFunction))).toMatchObject({
      MARKDOWN_EMOJI: 'false',
      MARKDOWN_TEX: 'katex',
    });
    expect(markdownOf(custom, functionId(customStack, customStack.commentFunction)).sort()).toEqual([
      'MARKDOWN_EMOJI',
      'MARKDOWN_TEX',
    ]);
    expect(markdownOf(custom, functionId(customStack, customStack.articleFunction))).toEqual([]);
    expect(markdownOf(template, functionId(stack, stack.commentFunction))).toEqual([]);
  });

  it('reads the sign-in key through the Parameters and Secrets extension, in the comment function only', () => {
    const layersOf = (fn: MarginaliaFunction) =>
      JSON.stringify(template.toJSON().Resources[functionId(stack, fn)].Properties.Layers ?? []);

    expect(layersOf(stack.commentFunction)).toMatch(/Paramsandsecretslayer.*arm64/i);
    expect(environmentOf(template, functionId(stack, stack.commentFunction))).toMatchObject({
      PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: '2773',
      PARAMETERS_SECRETS_EXTENSION_LOG_LEVEL: 'warn',
      // The extension's own cache is short: a rotated key reaches a re-reading instance within 30 s.
      SSM_PARAMETER_STORE_TTL: '30',
    });
    expect(layersOf(stack.articleFunction)).toBe('[]');
    expect(environmentOf(template, functionId(stack, stack.articleFunction))).not.toHaveProperty(
      'PARAMETERS_SECRETS_EXTENSION_HTTP_PORT',
    );
  });

  it('grants no Scan and no wildcard action to any role when synthesized', () => {
    const actions = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
      policy.Properties.PolicyDocument.Statement.flatMap(
        (statement: { Action: string | string[] }) => statement.Action,
      ),
    );

    expect(actions.filter((action) => action.includes('*') || /scan/i.test(action))).toEqual([]);
  });

  it('bundles each function as minified ESM with a source map and the require shim', () => {
    for (const fn of [stack.commentFunction, stack.articleFunction]) {
      const code = props(functionId(stack, fn)).Code as { S3Key: string };
      const dir = join(assemblyDir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
      const bundle = readFileSync(join(dir, 'index.mjs'), 'utf8');

      expect(bundle.startsWith("import { createRequire as topLevelCreateRequire } from 'node:module';")).toBe(
        true,
      );
      expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);
      // The AWS SDK is bundled, so no import of it may remain for the runtime to resolve.
      expect(bundle).not.toMatch(/from\s*["']@aws-sdk\//);
    }
  });

  it("ships the region database beside the comment bundle only, as the installed package's file", () => {
    const assetOf = (fn: MarginaliaFunction) =>
      join(
        assemblyDir,
        `asset.${(props(functionId(stack, fn)).Code as { S3Key: string }).S3Key.replace(/\.zip$/, '')}`,
      );
    const shipped = join(assetOf(stack.commentFunction), regionDatabaseFile);

    expect(readFileSync(shipped).equals(readFileSync(installedRegionDatabase()))).toBe(true);
    expect(existsSync(join(assetOf(stack.articleFunction), regionDatabaseFile))).toBe(false);
  });

  it('puts what only writes need in chunks beside the comment bundle, each with the shim and a map', () => {
    const assetOf = (fn: MarginaliaFunction) =>
      join(
        assemblyDir,
        `asset.${(props(functionId(stack, fn)).Code as { S3Key: string }).S3Key.replace(/\.zip$/, '')}`,
      );
    const chunks = join(assetOf(stack.commentFunction), 'chunks');
    const files = readdirSync(chunks);

    // Each function its own asset, bundled from its own entry: the article one holds no renderer.
    expect(assetOf(stack.articleFunction)).not.toBe(assetOf(stack.commentFunction));
    expect(readdirSync(join(assetOf(stack.articleFunction), 'chunks')).join()).not.toMatch(
      /render-markdown|tex-to-mathml|user-agent/,
    );

    expect(
      files.filter((file) => /^(?:render-markdown|tex-to-mathml|user-agent)-\w+\.mjs$/.test(file)),
    ).toHaveLength(3);
    for (const file of files.filter((name) => name.endsWith('.mjs'))) {
      expect(readFileSync(join(chunks, file), 'utf8')).toMatch(
        /^import \{ createRequire as topLevelCreateRequire \}/,
      );
      expect(files).toContain(`${file}.map`);
    }
  });

  it('outputs the API URL and the table name when synthesized', () => {
    const apiId = stack.getLogicalId(stack.api.node.defaultChild as never);
    const tableId = stack.getLogicalId(stack.table.node.defaultChild as never);

    template.hasOutput('ApiUrl', { Value: { 'Fn::GetAtt': [apiId, 'ApiEndpoint'] } });
    template.hasOutput('TableName', { Value: { Ref: tableId } });
  });

  it('uses the configured origins, limits, retention and settings when props are given', () => {
    custom.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: customProps.allowedOrigins }),
    });
    expect(routeSettingsTotals(custom)).toMatchObject({ rate: 5, burst: 70 });
    const logGroups = custom.findResources('AWS::Logs::LogGroup');
    for (const fn of [customStack.commentFunction, customStack.articleFunction]) {
      const logGroupId = customStack.getLogicalId(fn.logGroup.node.defaultChild as CfnLogGroup);
      expect(logGroups[logGroupId]?.Properties.RetentionInDays).toBe(7);
    }
    expect(environmentOf(custom, functionId(customStack, customStack.commentFunction))).toMatchObject({
      IPQPS: '0',
      LIST_CACHE_MS: '0',
      ALLOWED_ORIGINS: 'https://blog.example.com,https://www.example.com',
      AVATAR_PROXY: customProps.avatarProxy,
      GRAVATAR_STR: customProps.gravatarStr,
      DISABLE_USERAGENT: 'true',
      DISABLE_REGION: 'true',
      LEVELS: '0,10,20',
      AVATAR_QQ: 'true',
      SITE_NAME: 'Example Blog',
      PASSKEY_RP_ID: 'example.com',
      COMMENT_AUDIT: 'first',
      BLOCKED_WORDS: 'casino,pills',
      RESTRICTED_NAMES: 'admin',
      READONLY_AGE: '90',
    });
    const defaults = environmentOf(template, functionId(stack, stack.commentFunction));
    expect(Object.keys(defaults)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^(BLOCKED_WORDS|RESTRICTED_NAMES|READONLY_AGE)$/)]),
    );
  });

  it.each([
    ['an origin has a path', { allowedOrigins: ['https://example.com/blog'] }, /allowedOrigins/],
    ['ipqps is negative', { ipqps: -1 }, /ipqps/],
    ['readonlyAge is not whole days', { readonlyAge: 1.5 }, /readonlyAge/],
    ['the list cache outlives a minute', { listCacheMs: 60_001 }, /listCacheMs/],
    ['the burst limit is zero', { throttleBurstLimit: 0 }, /throttle/],
    [
      'the burst limit is below one per shared route',
      { throttleBurstLimit: sharedRouteKeys().length - 1 },
      /throttle/,
    ],
    ['the rate limit is below 1 request/s', { throttleRateLimit: 0.5 }, /throttle/],
    [
      'the avatar template puts the mail in the URL',
      { gravatarStr: 'https://avatar.example/{{mail}}' },
      /gravatarStr.*md5/,
    ],
  ])('throws when %s', (_case, bad: MarginaliaStackProps, message) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });

    expect(() => new MarginaliaStack(app, 'Bad', { ...testSite, ...bad })).toThrow(message);
  });
});
