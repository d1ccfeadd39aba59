import { describe, expect, it, vi } from 'vitest';
import {
  type CaptchaGuardDependencies,
  createCaptchaGuard,
} from '../../../../functions/comment/captcha-guard.js';
import { AppError } from '../../../../functions/shared/domain/errors.js';
import type { CaptchaQuestion } from '../../../../functions/shared/spam/captcha-verifier.js';

const request = { sourceIp: '203.0.113.9', host: 'api.example', lang: 'en' } as const;

/** The guard over fakes: a secret source, a verifier answering `outcome`, and a claim of used tokens. */
function guardWith(overrides: Partial<CaptchaGuardDependencies> = {}) {
  const questions: CaptchaQuestion[] = [];
  const claimed: [string, number][] = [];
  const guard = createCaptchaGuard({
    secret: async () => ({ field: 'turnstile', secret: 's' }),
    verifyCaptcha: async (question) => {
      questions.push(question);
      return { outcome: 'passed' };
    },
    claimCaptchaToken: async (hash, at) => {
      claimed.push([hash, at]);
      return true;
    },
    hashCaptchaToken: (token) => `hash(${token})`,
    config: { ALLOWED_ORIGINS: ['https://blog.example'], SITE_URL: undefined, RECAPTCHA_V3_MIN_SCORE: 0.7 },
    now: () => 42,
    ...overrides,
  });
  return { guard, questions, claimed };
}

describe('createCaptchaGuard', () => {
  it('demands nothing, and passes, when no captcha is configured or none is in force', async () => {
    for (const secret of [undefined, async () => undefined]) {
      const { guard, questions } = guardWith({ secret });

      const demand = await guard.demand({}, request);

      expect(demand).toEqual({ kind: 'none' });
      expect(await guard.verify(demand, request)).toEqual({ passed: true });
      expect(questions).toEqual([]);
    }
  });

  it('refuses a missing token of the field in force, even when the other field is sent', async () => {
    const { guard } = guardWith();

    const refusal = await guard.demand({ recaptchaV3: 't' }, request).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      status: 403,
      message: 'turnstile: this site asks for a captcha; solve it and send again.',
      details: { turnstile: 'required: solve the captcha (Turnstile) and send its token' },
    });
  });

  it("asks with the visitor's IP, this server's and the site's hosts and the least score, then claims the token", async () => {
    const { guard, questions, claimed } = guardWith();

    const outcome = await guard.verify(await guard.demand({ turnstile: 'tok' }, request), request);

    expect(outcome).toEqual({ passed: true });
    expect(questions).toEqual([
      {
        secret: 's',
        token: 'tok',
        remoteIp: '203.0.113.9',
        expectation: {
          field: 'turnstile',
          hostnames: new Set(['blog.example', 'api.example']),
          minScore: 0.7,
        },
      },
    ]);
    expect(claimed).toEqual([['hash(tok)', 42]]);
  });

  it('refuses a token the provider refused, naming the field and the rule, and claims nothing', async () => {
    const { guard, claimed } = guardWith({
      verifyCaptcha: async () => ({ outcome: 'refused', rule: 'must be made for the action social' }),
    });

    const refusal = await guard
      .verify(await guard.demand({ turnstile: 'tok' }, request), request)
      .catch((error: unknown) => error);

    expect(refusal).toMatchObject({
      status: 403,
      message: 'turnstile: the captcha was not passed (must be made for the action social).',
      details: { turnstile: 'must be made for the action social' },
    });
    expect(claimed).toEqual([]);
  });

  it('answers, rather than throws, when the provider or the secret cannot be reached', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const unreachable = guardWith({
      verifyCaptcha: async () => ({ outcome: 'unreachable', reason: 'timeout' }),
    });
    const unreadable = guardWith({
      secret: async () => {
        throw new Error('extension down');
      },
    });

    const demand = await unreadable.guard.demand({}, request);

    expect(
      await unreachable.guard.verify(await unreachable.guard.demand({ turnstile: 'tok' }, request), request),
    ).toEqual({ passed: false, reason: 'timeout' });
    expect(unreachable.claimed).toEqual([]);
    expect(demand).toEqual({ kind: 'unknown', reason: 'the captcha secret could not be read' });
    expect(await unreadable.guard.verify(demand, request)).toEqual({
      passed: false,
      reason: 'the captcha secret could not be read',
    });
    vi.restoreAllMocks();
  });
});
