import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaptchaVerifier } from '../../../../../functions/shared/spam/captcha-verifier.js';
import {
  type FakeCaptchaVerifier,
  startFakeCaptchaVerifier,
  turnstilePass,
} from '../../../../support/fake-captcha-verifier.js';

const expectation = { field: 'turnstile', hostnames: new Set(['blog.example']), minScore: 0.5 } as const;
const question = { secret: 'the-secret', token: 'the-token', remoteIp: '203.0.113.9', expectation };

describe('createCaptchaVerifier', () => {
  let fake: FakeCaptchaVerifier;
  const verifier = (timeoutMs?: number) =>
    createCaptchaVerifier({ turnstileUrl: fake.turnstileUrl, recaptchaUrl: fake.recaptchaUrl, timeoutMs });

  beforeAll(async () => {
    fake = await startFakeCaptchaVerifier();
  });
  afterAll(() => fake.close());

  it("posts the secret, the token and the visitor's IP as a form to the provider of the token's field", async () => {
    fake.answerWith(turnstilePass());
    fake.questions.length = 0;

    expect(await verifier()(question)).toEqual({ outcome: 'passed' });
    await verifier()({ ...question, expectation: { ...expectation, field: 'recaptchaV3' } });

    expect(fake.questions).toEqual([
      { path: '/turnstile', form: { secret: 'the-secret', response: 'the-token', remoteip: '203.0.113.9' } },
      { path: '/recaptcha', form: { secret: 'the-secret', response: 'the-token', remoteip: '203.0.113.9' } },
    ]);
  });

  it('judges the answer by the rules: a token for another site is refused', async () => {
    fake.answerWith(turnstilePass('evil.example'));

    expect(await verifier()(question)).toMatchObject({ outcome: 'refused' });
  });

  it('takes a 4xx for a refusal, but 408 and 429 (the provider busy) for unreachable', async () => {
    fake.answerWith({ json: { success: false }, status: 400 });
    expect(await verifier()(question)).toEqual({
      outcome: 'refused',
      rule: 'was refused by the provider (HTTP 400)',
    });

    for (const status of [408, 429]) {
      fake.answerWith({ json: { success: false }, status });
      expect(await verifier()(question)).toEqual({
        outcome: 'unreachable',
        reason: `the provider answered ${status}`,
      });
    }
  });

  it('takes a 5xx, an answer that is not JSON, or no server for unreachable, never a refusal', async () => {
    fake.answerWith({ json: { success: false }, status: 503 });
    expect(await verifier()(question)).toEqual({
      outcome: 'unreachable',
      reason: 'the provider answered 503',
    });

    fake.answerWith({ raw: '<html>busy</html>', status: 200 });
    expect(await verifier()(question)).toEqual({
      outcome: 'unreachable',
      reason: 'the provider answered something other than JSON',
    });

    const nowhere = createCaptchaVerifier({
      turnstileUrl: 'http://127.0.0.1:1/',
      recaptchaUrl: 'http://127.0.0.1:1/',
    });
    expect(await nowhere(question)).toEqual({
      outcome: 'unreachable',
      reason: 'the provider could not be reached',
    });
  });

  it('gives up on a provider that does not answer in time, and never waits more than 3 s', async () => {
    fake.answerWith('hang');

    const startedAt = Date.now();
    expect(await verifier(200)(question)).toEqual({
      outcome: 'unreachable',
      reason: 'the provider did not answer within 200 ms',
    });
    expect(Date.now() - startedAt).toBeLessThan(2000);
    expect(await verifier(60_000)({ ...question, token: 'slow' })).toEqual({
      outcome: 'unreachable',
      reason: 'the provider did not answer within 3000 ms',
    });
  });
});
