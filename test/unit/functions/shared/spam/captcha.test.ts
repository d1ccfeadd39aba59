import { describe, expect, it } from 'vitest';
import {
  acceptedHostnames,
  type CaptchaExpectation,
  judgeCaptchaAnswer,
} from '../../../../../functions/shared/spam/captcha.js';

const turnstile: CaptchaExpectation = {
  field: 'turnstile',
  hostnames: new Set(['blog.example']),
  minScore: 0.5,
};
const recaptcha: CaptchaExpectation = { ...turnstile, field: 'recaptchaV3' };
const pass = { success: true, hostname: 'blog.example', action: 'social' };

describe('judgeCaptchaAnswer', () => {
  it('passes a successful token solved on a configured site for the action social', () => {
    expect(judgeCaptchaAnswer(pass, turnstile)).toEqual({ outcome: 'passed' });
    expect(judgeCaptchaAnswer({ ...pass, hostname: 'Blog.Example' }, turnstile)).toEqual({
      outcome: 'passed',
    });
    expect(judgeCaptchaAnswer({ ...pass, score: 0.5 }, recaptcha)).toEqual({ outcome: 'passed' });
  });

  it('refuses a token the provider did not accept, repeating its plain error codes only', () => {
    expect(
      judgeCaptchaAnswer(
        { success: false, 'error-codes': ['timeout-or-duplicate', '<b>x</b>', 'a', 'b', 'c'] },
        turnstile,
      ),
    ).toEqual({
      outcome: 'refused',
      rule: 'must be a token the captcha provider accepts (it said: timeout-or-duplicate, a, b); solve the captcha again',
    });
    expect(judgeCaptchaAnswer({ success: false }, turnstile)).toEqual({
      outcome: 'refused',
      rule: 'must be a token the captcha provider accepts; solve the captcha again',
    });
  });

  it('refuses a token solved on another site, or on none it names', () => {
    for (const hostname of ['evil.example', undefined, 42]) {
      expect(judgeCaptchaAnswer({ ...pass, hostname }, turnstile)).toEqual({
        outcome: 'refused',
        rule: 'must be solved on a site this server is configured for',
      });
    }
    expect(
      judgeCaptchaAnswer({ ...pass, hostname: 'evil.example' }, { ...turnstile, hostnames: undefined }),
    ).toEqual({ outcome: 'passed' });
  });

  it('refuses a token made for another action, or none', () => {
    for (const action of ['login', undefined, '']) {
      expect(judgeCaptchaAnswer({ ...pass, action }, turnstile)).toEqual({
        outcome: 'refused',
        rule: 'must be made for the action social',
      });
    }
  });

  it('refuses a reCAPTCHA token scored below the least score, or without a score; Turnstile has none', () => {
    for (const score of [0.49, undefined, '0.9']) {
      expect(judgeCaptchaAnswer({ ...pass, score }, recaptcha)).toEqual({
        outcome: 'refused',
        rule: 'must score at least the least score this server accepts',
      });
    }
    expect(judgeCaptchaAnswer({ ...pass, score: 0.1 }, { ...recaptcha, minScore: 0 })).toEqual({
      outcome: 'passed',
    });
    expect(judgeCaptchaAnswer({ ...pass, score: 0.1 }, turnstile)).toEqual({ outcome: 'passed' });
  });

  it('takes an answer without a boolean success for no answer: unreachable, not refused', () => {
    for (const answer of [null, 'ok', [], { success: 'true' }, {}]) {
      expect(judgeCaptchaAnswer(answer, turnstile)).toEqual({
        outcome: 'unreachable',
        reason: 'the provider answered without a success field',
      });
    }
  });
});

describe('acceptedHostnames', () => {
  it("names the hosts of ALLOWED_ORIGINS, of SITE_URL and this server's own, in lower case", () => {
    expect(
      acceptedHostnames({
        allowedOrigins: ['https://Blog.example', 'http://docs.example:8080', '*'],
        siteUrl: 'https://www.blog.example/posts/',
        ownHost: 'API.example:443',
      }),
    ).toEqual(new Set(['blog.example', 'docs.example', 'www.blog.example', 'api.example']));
  });

  it('accepts any hostname only when ALLOWED_ORIGINS is * and SITE_URL is unset', () => {
    expect(acceptedHostnames({ allowedOrigins: ['*'], siteUrl: undefined, ownHost: '127.0.0.1:8360' })).toBe(
      undefined,
    );
    expect(
      acceptedHostnames({ allowedOrigins: ['*'], siteUrl: 'https://blog.example', ownHost: undefined }),
    ).toEqual(new Set(['blog.example']));
    expect(
      acceptedHostnames({ allowedOrigins: ['https://blog.example'], siteUrl: undefined, ownHost: undefined }),
    ).toEqual(new Set(['blog.example']));
  });
});
