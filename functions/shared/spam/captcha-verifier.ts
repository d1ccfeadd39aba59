import { type CaptchaExpectation, type CaptchaJudgement, judgeCaptchaAnswer } from './captcha.js';

/** One token to verify: the secret of its provider, the visitor's IP, and what the token must have been solved for. */
export interface CaptchaQuestion {
  readonly secret: string;
  readonly token: string;
  /** The client address as API Gateway saw it (`remoteip`). */
  readonly remoteIp: string;
  readonly expectation: CaptchaExpectation;
}

/** Asks the token's provider about it and judges the answer (captcha.ts). Never throws. */
export type VerifyCaptcha = (question: CaptchaQuestion) => Promise<CaptchaJudgement>;

/** A provider that does not answer within this is unreachable: the comment waits rather than the request. */
const defaultTimeoutMs = 3000;

/**
 * The siteverify call of both providers: a POST of a form with `secret`, `response` and `remoteip` (Turnstile
 * takes only that; Google takes it as well as a GET query, and a form keeps the secret out of any URL log). A
 * timeout (at most 3 s), a network error, a 5xx, 408 or 429, or an answer that is not JSON is `unreachable`,
 * never a refusal: the visitor is not to blame for the provider. Any other 4xx is the provider refusing what it
 * was sent (a malformed token, or a wrong secret the owner must fix): a refusal, so that junk tokens cannot
 * turn into comments held for moderation.
 */
export function createCaptchaVerifier(options: {
  /** TURNSTILE_VERIFY_URL. */
  readonly turnstileUrl: string;
  /** RECAPTCHA_VERIFY_URL. */
  readonly recaptchaUrl: string;
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}): VerifyCaptcha {
  const send = options.fetch ?? fetch;
  const timeoutMs = Math.min(options.timeoutMs ?? defaultTimeoutMs, defaultTimeoutMs);
  return async ({ secret, token, remoteIp, expectation }) => {
    const url = expectation.field === 'turnstile' ? options.turnstileUrl : options.recaptchaUrl;
    let answer: unknown;
    try {
      const response = await send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ secret, response: token, remoteip: remoteIp }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (
        response.status >= 400 &&
        response.status < 500 &&
        response.status !== 408 &&
        response.status !== 429
      ) {
        return { outcome: 'refused', rule: `was refused by the provider (HTTP ${response.status})` };
      }
      if (!response.ok) return { outcome: 'unreachable', reason: `the provider answered ${response.status}` };
      answer = JSON.parse(text);
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return {
        outcome: 'unreachable',
        reason: timedOut
          ? `the provider did not answer within ${timeoutMs} ms`
          : error instanceof SyntaxError
            ? 'the provider answered something other than JSON'
            : 'the provider could not be reached',
      };
    }
    return judgeCaptchaAnswer(answer, expectation);
  };
}
