import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEvent, type EventSpec } from '../support/http-event.js';
import { createTestTable, type TestTable } from '../support/test-table.js';
import { type LambdaProcess, lambdaNodeBinary, startLambdaProcess } from './support/lambda-process.js';
import { type SecretsExtension, startSecretsExtension } from './support/secrets-extension.js';
import { type SynthesizedFunction, synthesizeStack } from './support/synthesized-stack.js';

/** The stack bin/app.ts defines. */
const stackName = 'Marginalia';
/** The runtime the stack deploys on, and the Node.js tools/node22 installs. */
const lambdaRuntime = 'nodejs22.x';
/** The functions' AWS_SESSION_TOKEN, which the secrets extension asks callers for. */
const sessionToken = 'deployed-bundles-session';

describe('the bundles cdk synth writes for a deploy, on Lambda’s Node.js', () => {
  let outDir: string | undefined;
  let table: TestTable | undefined;
  let functions: SynthesizedFunction[] = [];
  let extension: SecretsExtension | undefined;
  const processes: LambdaProcess[] = [];
  let comment: LambdaProcess;
  let article: LambdaProcess;

  /** The function whose logical ID starts with `prefix` (its construct ID). */
  const synthesized = (prefix: string): SynthesizedFunction => {
    const found = functions.find((fn) => fn.logicalId.startsWith(prefix));
    if (!found) throw new Error(`no ${prefix}… among ${functions.map((fn) => fn.logicalId).join(', ')}`);
    return found;
  };

  /**
   * The function's environment as the template sets it, with what CloudFormation resolves at deploy given
   * here (`deployTime`) and what Lambda itself sets. Two changes: DYNAMODB_ENDPOINT, the test's engine,
   * and the port of the secrets extension (a layer on AWS) for a function that has one: the stand-in's.
   */
  const environmentOf = (
    fn: SynthesizedFunction,
    deployTime: Readonly<Record<string, string>>,
  ): Record<string, string> => {
    const fromTemplate: Record<string, string> = {};
    for (const [name, value] of Object.entries(fn.environment)) {
      const resolved = typeof value === 'string' ? value : deployTime[name];
      if (resolved === undefined) {
        throw new Error(
          `${fn.logicalId}: ${name} is resolved at deploy time (${JSON.stringify(value)}); give this test a value for it`,
        );
      }
      fromTemplate[name] = resolved;
    }
    return {
      ...fromTemplate,
      // Some of what Lambda sets; dummy credentials where it puts the role's.
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SESSION_TOKEN: sessionToken,
      AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
      AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      LAMBDA_TASK_ROOT: fn.codeDir,
      LANG: 'en_US.UTF-8',
      TZ: ':UTC',
      DYNAMODB_ENDPOINT: (table as TestTable).endpoint,
      ...('PARAMETERS_SECRETS_EXTENSION_HTTP_PORT' in fromTemplate
        ? { PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String((extension as SecretsExtension).port) }
        : {}),
    };
  };

  const start = async (prefix: string, tableName: string): Promise<LambdaProcess> => {
    const fn = synthesized(prefix);
    const started = await startLambdaProcess({
      node: lambdaNodeBinary(),
      codeDir: fn.codeDir,
      handler: fn.handler,
      timeoutSeconds: fn.timeoutSeconds,
      environment: environmentOf(fn, {
        TABLE_NAME: tableName,
        IP_HASH_SALT: 'deployed-bundles-salt-0123456789',
      }),
    });
    processes.push(started);
    return started;
  };

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON the function sends
  type Json = any;
  const call = async (fn: LambdaProcess, spec: EventSpec) => {
    const result = await fn.invoke(buildEvent(spec));
    return { status: result.statusCode, body: JSON.parse(result.body) as Json };
  };

  beforeAll(async () => {
    // Fails at once, before the synth, when tools/node22 is not installed.
    lambdaNodeBinary();
    outDir = await mkdtemp(join(tmpdir(), 'marginalia-synth-'));
    [table, functions] = await Promise.all([createTestTable(), synthesizeStack(outDir, stackName)]);
    // The sign-in key exists, as the README's deploy steps create it; the Akismet key does not (Akismet off).
    const jwtParameter = synthesized('CommentFunction').environment.JWT_SECRET_PARAMETER;
    extension = await startSecretsExtension(
      sessionToken,
      typeof jwtParameter === 'string'
        ? { [jwtParameter]: 'deployed-bundles-token-key-0123456789abcdef' }
        : {},
    );
    const tableName = table.tableName;
    [comment, article] = await Promise.all([
      start('CommentFunction', tableName),
      start('ArticleFunction', tableName),
    ]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((fn) => fn.stop()));
    await table?.drop();
    await extension?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('runs each function under Node.js 22, the runtime its template names', () => {
    expect(synthesized('CommentFunction').runtime).toBe(lambdaRuntime);
    expect(synthesized('ArticleFunction').runtime).toBe(lambdaRuntime);

    expect(comment.nodeVersion).toMatch(/^v22\./);
    expect(article.nodeVersion).toMatch(/^v22\./);
  });

  it('loads each handler from the bundled index.mjs, with its source map beside it', () => {
    for (const prefix of ['CommentFunction', 'ArticleFunction']) {
      const fn = synthesized(prefix);
      expect(fn.handler).toBe('index.handler');
      expect(existsSync(join(fn.codeDir, 'index.mjs'))).toBe(true);
      expect(existsSync(join(fn.codeDir, 'index.mjs.map'))).toBe(true);
    }
  });

  it('accepts a comment and lists it, rendered, when submitted through the comment bundle', async () => {
    const submitted = await call(comment, {
      method: 'POST',
      path: '/api/comment',
      query: 'lang=en-US',
      // The renderer and KaTeX are chunks of their own, loaded by this first write.
      body: {
        comment: 'Shipped **as built** :smile: $x^2$',
        url: '/deployed',
        nick: 'Ann',
        mail: '',
        link: '',
      },
    });

    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ errno: 0, data: { nick: 'Ann', url: '/deployed' } });
    const listed = await call(comment, {
      path: '/api/comment',
      query: 'path=%2Fdeployed&pageSize=10&page=1&lang=en-US&sortBy=insertedAt_desc',
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatchObject({ count: 1, totalPages: 1 });
    expect(listed.body.data.data[0]).toMatchObject({
      objectId: submitted.body.data.objectId,
      comment: expect.stringContaining('<strong>as built</strong> 😄 <math><semantics><mrow><msup>'),
      like: 0,
    });
  });

  it('counts a like sent to the comment bundle', async () => {
    const submitted = await call(comment, {
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'Like me.', url: '/deployed-like', nick: 'Bob', mail: '', link: '' },
      // Not the address of the other test's comment: a second comment from it would wait out the rate limit.
      sourceIp: '203.0.113.8',
    });
    expect(submitted.status).toBe(200);
    const id = submitted.body.data.objectId as string;

    const liked = await call(comment, {
      method: 'PUT',
      path: `/api/comment/${encodeURIComponent(id)}`,
      query: 'lang=en-US',
      body: { like: true },
    });

    expect(liked.status).toBe(200);
    expect(liked.body.errno).toBe(0);
    const after = await call(comment, { path: '/api/comment', query: 'path=%2Fdeployed-like' });
    expect(after.body.data.data[0]).toMatchObject({ objectId: id, like: 1 });
  });

  it('serves the sign-in page from the chunk the comment bundle imports on its first page request', async () => {
    const result = await comment.invoke(buildEvent({ path: '/ui/login' }));

    expect(result.statusCode).toBe(200);
    expect(result.body).toContain('Use a passkey');
  });

  it('counts a pageview sent to the article bundle and reads it back', async () => {
    const counted = await call(article, {
      method: 'POST',
      path: '/api/article',
      query: 'lang=en-US',
      body: { path: '/deployed', type: 'time', action: 'inc' },
    });

    expect(counted.status).toBe(200);
    expect(counted.body.errno).toBe(0);
    const read = await call(article, { path: '/api/article', query: 'path=%2Fdeployed&type=time' });
    expect(read.body.data).toEqual([{ time: 1 }]);
  });

  it('logs a failure at its TypeScript source lines, through the source map, when the table is missing', async () => {
    const broken = await start('ArticleFunction', `missing-${randomBytes(4).toString('hex')}`);

    const answer = await call(broken, { path: '/api/article', query: 'path=%2Fdeployed&type=time' });

    expect(answer.status).toBe(500);
    expect(broken.logs()).toContain('"level":"error"');
    // The invocation's request id, by which CloudWatch Logs is searched.
    expect(broken.logs()).toMatch(/"requestId":"request-\d+"/);
    expect(broken.logs()).toMatch(/functions\/[\w/.-]+\.ts:\d+:\d+/);
  });
});
