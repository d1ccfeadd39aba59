import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAkismetCheck } from '../../functions/shared/spam/akismet.js';
import { saveTestAdministrator, testAdministrator } from '../support/administrator.js';
import {
  type FakeCaptchaVerifier,
  startFakeCaptchaVerifier,
  turnstilePass,
} from '../support/fake-captcha-verifier.js';
import { type LocalHttpServer, startLocalHttpServer } from '../support/local-http-server.js';
import { type RecordingServer, startRecordingServer } from '../support/recording-server.js';
import { createTestTable, type TestTable } from '../support/test-table.js';

/**
 * The captcha through the local HTTP API, as the widget reaches it: the real handlers over DynamoDB Local, a
 * fake siteverify on loopback (TURNSTILE_VERIFY_URL, RECAPTCHA_VERIFY_URL) and Akismet's stand-in recording
 * every question. A refused post stores nothing and asks Akismet nothing (so it was not rendered either).
 */
describe('the captcha, end to end', () => {
  let table: TestTable;
  let verifier: FakeCaptchaVerifier;
  let akismet: RecordingServer;
  let turnstileServer: LocalHttpServer;
  let recaptchaServer: LocalHttpServer;
  let tokens = 0;
  /** A token never sent before. */
  const freshToken = () => `token-${Date.now()}-${(tokens += 1)}`;

  beforeAll(async () => {
    table = await createTestTable();
    verifier = await startFakeCaptchaVerifier();
    // Akismet answers `false`: not spam.
    akismet = await startRecordingServer(() => ({
      headers: { 'content-type': 'text/plain' },
      body: 'false',
    }));
    const spamCheck = createAkismetCheck({
      key: 'k',
      siteUrl: 'https://blog.example',
      endpoint: `${akismet.endpoint}/1.1/comment-check`,
    });
    const env = {
      IPQPS: '0',
      ALLOWED_ORIGINS: 'https://blog.example',
      JWT_TOKEN: 'j'.repeat(32),
      TURNSTILE_VERIFY_URL: verifier.turnstileUrl,
      RECAPTCHA_VERIFY_URL: verifier.recaptchaUrl,
    };
    turnstileServer = await startLocalHttpServer(
      table,
      { ...env, TURNSTILE_SECRET: 'turnstile-secret', TURNSTILE_KEY: '0x4AAAAAAAtest' },
      { comment: { spamCheck } },
    );
    recaptchaServer = await startLocalHttpServer(
      table,
      {
        ...env,
        RECAPTCHA_V3_SECRET: 'recaptcha-secret',
        RECAPTCHA_V3_KEY: '6Lc-test_key',
        RECAPTCHA_V3_MIN_SCORE: '0.5',
      },
      { comment: { spamCheck } },
    );
    await saveTestAdministrator(turnstileServer.services);
  });
  afterAll(async () => {
    await turnstileServer?.close();
    await recaptchaServer?.close();
    await verifier?.close();
    await akismet?.close();
    await table?.drop();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON the server sends
  type Json = any;
  const postTo = async (server: LocalHttpServer, path: string, body: Record<string, unknown>) => {
    const response = await fetch(`${server.base}${path}?lang=en-US`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://blog.example' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const comment = (url: string, captcha: Record<string, string> = {}) => ({
    comment: `hello from ${url}`,
    url,
    nick: 'Ann',
    ...captcha,
  });
  /** Every item stored under the page `url` (comments, their duplicate marks, counters). */
  const storedUnder = async (url: string) =>
    (
      await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: `URL#${url}` } },
        }),
      )
    ).Items ?? [];

  /** Posts `body` to `server`, expecting a 403 that names `field`; checks nothing was stored or asked of Akismet. */
  const expectRefused = async (server: LocalHttpServer, body: ReturnType<typeof comment>, field: string) => {
    const asked = akismet.requests.length;

    const answer = await postTo(server, '/api/comment', body);

    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ errno: 403, details: { [field]: expect.any(String) } });
    expect(answer.body.errmsg).toContain(field);
    expect(await storedUnder(body.url)).toEqual([]);
    expect(akismet.requests.length).toBe(asked);
    return answer.body;
  };

  it('stores a comment whose token passed, after asking the provider with the secret and the IP', async () => {
    verifier.answerWith(turnstilePass());
    const token = freshToken();

    const answer = await postTo(
      turnstileServer,
      '/api/comment',
      comment('/captcha-pass', { turnstile: token }),
    );

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'approved' });
    expect(verifier.questions.at(-1)).toEqual({
      path: '/turnstile',
      form: { secret: 'turnstile-secret', response: token, remoteip: '127.0.0.1' },
    });
    expect(akismet.requests.at(-1)?.body).toContain('comment_content=hello+from+%2Fcaptcha-pass');
  });

  it('refuses a post without the token, naming the field, and asks the provider nothing', async () => {
    const asked = verifier.questions.length;

    const body = await expectRefused(turnstileServer, comment('/captcha-missing'), 'turnstile');

    expect(body.details.turnstile).toMatch(/^required/);
    expect(verifier.questions.length).toBe(asked);
  });

  it('refuses a token the provider does not accept', async () => {
    verifier.answerWith({ json: { success: false, 'error-codes': ['invalid-input-response'] } });

    const body = await expectRefused(
      turnstileServer,
      comment('/captcha-failed', { turnstile: freshToken() }),
      'turnstile',
    );

    expect(body.details.turnstile).toContain('invalid-input-response');
  });

  it('refuses a token solved on a site this server is not configured for', async () => {
    verifier.answerWith(turnstilePass('evil.example'));

    const body = await expectRefused(
      turnstileServer,
      comment('/captcha-hostname', { turnstile: freshToken() }),
      'turnstile',
    );

    expect(body.details.turnstile).toBe('must be solved on a site this server is configured for');
  });

  it('refuses a token made for another action than social', async () => {
    verifier.answerWith({ json: { ...turnstilePass().json, action: 'login' } });

    const body = await expectRefused(
      turnstileServer,
      comment('/captcha-action', { turnstile: freshToken() }),
      'turnstile',
    );

    expect(body.details.turnstile).toBe('must be made for the action social');
  });

  it('refuses a reCAPTCHA token scored below RECAPTCHA_V3_MIN_SCORE, and stores one scored above', async () => {
    const answer = (score: number) => ({ json: { ...turnstilePass().json, score } });
    verifier.answerWith(answer(0.3));

    const body = await expectRefused(
      recaptchaServer,
      comment('/captcha-score', { recaptchaV3: freshToken() }),
      'recaptchaV3',
    );
    verifier.answerWith(answer(0.9));
    const passed = await postTo(
      recaptchaServer,
      '/api/comment',
      comment('/captcha-score-ok', { recaptchaV3: freshToken() }),
    );

    expect(body.details.recaptchaV3).toBe('must score at least the least score this server accepts');
    expect(verifier.questions.at(-1)?.path).toBe('/recaptcha');
    expect(passed.status).toBe(200);
  });

  it('refuses a token used before, even one the provider would pass again', async () => {
    verifier.answerWith(turnstilePass());
    const token = freshToken();
    expect(
      (await postTo(turnstileServer, '/api/comment', comment('/captcha-first', { turnstile: token }))).status,
    ).toBe(200);

    const body = await expectRefused(
      turnstileServer,
      comment('/captcha-reused', { turnstile: token }),
      'turnstile',
    );

    expect(body.details.turnstile).toMatch(/used before/);
  });

  it('holds the comment as waiting when the provider answers 5xx, and asks Akismet nothing', async () => {
    verifier.answerWith({ json: { error: 'busy' }, status: 502 });
    const asked = akismet.requests.length;

    const answer = await postTo(
      turnstileServer,
      '/api/comment',
      comment('/captcha-5xx', { turnstile: freshToken() }),
    );

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'waiting' });
    expect(await storedUnder('/captcha-5xx')).toContainEqual(
      expect.objectContaining({ status: { S: 'waiting' } }),
    );
    expect(akismet.requests.length).toBe(asked);
  });

  it('holds the comment as waiting when the provider never answers, within about 3 s', async () => {
    verifier.answerWith('hang');

    const startedAt = Date.now();
    const answer = await postTo(
      turnstileServer,
      '/api/comment',
      comment('/captcha-timeout', { turnstile: freshToken() }),
    );

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'waiting' });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2900);
    expect(await storedUnder('/captcha-timeout')).toContainEqual(
      expect.objectContaining({ status: { S: 'waiting' } }),
    );
  });

  it('guards sign-in: no token is a 403, a refused one a 403, an unreachable provider a 503, a good one signs in', async () => {
    const signIn = (captcha: Record<string, string>) =>
      postTo(turnstileServer, '/api/token', {
        email: testAdministrator.email,
        password: testAdministrator.password,
        ...captcha,
      });

    const missing = await signIn({});
    verifier.answerWith({ json: { success: false } });
    const refused = await signIn({ turnstile: freshToken() });
    verifier.answerWith({ json: {}, status: 500 });
    const unreachable = await signIn({ turnstile: freshToken() });
    verifier.answerWith(turnstilePass());
    const passed = await signIn({ turnstile: freshToken() });

    expect(missing).toMatchObject({
      status: 403,
      body: { details: { turnstile: expect.stringMatching(/^required/) } },
    });
    expect(refused).toMatchObject({ status: 403, body: { details: { turnstile: expect.any(String) } } });
    expect(unreachable).toMatchObject({
      status: 503,
      body: { errno: 503, errmsg: expect.stringContaining('captcha provider could not be reached') },
    });
    expect(passed.status).toBe(200);
    expect(passed.body.data.token).toEqual(expect.any(String));
  });

  it('lets a signed-in administrator comment without a token', async () => {
    verifier.answerWith(turnstilePass());
    const token = (
      await postTo(turnstileServer, '/api/token', {
        email: testAdministrator.email,
        password: testAdministrator.password,
        turnstile: freshToken(),
      })
    ).body.data.token;
    const asked = verifier.questions.length;

    const response = await fetch(`${turnstileServer.base}/api/comment?lang=en-US`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(comment('/captcha-admin')),
    });

    expect(response.status).toBe(200);
    expect(verifier.questions.length).toBe(asked);
  });
});
