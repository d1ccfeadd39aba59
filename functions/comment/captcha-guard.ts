import type { Config } from '../shared/config.js';
import { AppError } from '../shared/domain/errors.js';
import type { Lang } from '../shared/domain/messages.js';
import { translate } from '../shared/domain/messages.js';
import { logError } from '../shared/log.js';
import type { CaptchaSecretSource } from '../shared/secrets/captcha-secret.js';
import { acceptedHostnames, type CaptchaField } from '../shared/spam/captcha.js';
import type { HashCaptchaToken } from '../shared/spam/captcha-token-hash.js';
import type { VerifyCaptcha } from '../shared/spam/captcha-verifier.js';
import type { ClaimCaptchaToken } from '../shared/table/captcha-tokens.js';

/** The tokens a body may carry, under the widget's names. */
export type CaptchaTokens = Partial<Record<CaptchaField, string>>;

/**
 * What a request owes the captcha, decided before anything costly: nothing (no captcha in force); a token to
 * verify; or `unknown` when the secret could not be read (whether a captcha is in force is then unknown).
 */
export type CaptchaDemand =
  | { readonly kind: 'none' }
  | { readonly kind: 'token'; readonly field: CaptchaField; readonly secret: string; readonly token: string }
  | { readonly kind: 'unknown'; readonly reason: string };

/** How a demand was met: passed (or none), or the provider could not be asked (`reason`). Refusals throw. */
export type CaptchaOutcome = { readonly passed: true } | { readonly passed: false; readonly reason: string };

/** The request's parts the check reads. */
export interface CaptchaRequest {
  /** The client address (`remoteip`). */
  readonly sourceIp: string;
  /** The Host the request came to: this server's own pages may carry tokens too. */
  readonly host: string | undefined;
  readonly lang: Lang;
}

/** The captcha check of comments and sign-ins, in two steps: a cheap demand, then the provider's verdict. */
export interface CaptchaGuard {
  /**
   * Reads which captcha is in force and takes its token from `tokens`; throws a 403 naming the field when the
   * token is missing. No call to the provider yet.
   */
  demand(tokens: CaptchaTokens, request: CaptchaRequest): Promise<CaptchaDemand>;
  /**
   * Asks the provider about the demanded token and, when it passed, records it as used. Throws a 403 naming
   * the field and the rule when it is refused or was used before; an unreachable provider is not thrown, but
   * answered (`passed: false`), for the caller to decide (a comment waits, a sign-in is refused).
   */
  verify(demand: CaptchaDemand, request: CaptchaRequest): Promise<CaptchaOutcome>;
}

/** What the guard takes. */
export interface CaptchaGuardDependencies {
  /** The captcha in force (secrets/captcha-secret.ts); undefined when none is configured. */
  readonly secret: CaptchaSecretSource | undefined;
  readonly verifyCaptcha: VerifyCaptcha;
  readonly claimCaptchaToken: ClaimCaptchaToken;
  readonly hashCaptchaToken: HashCaptchaToken;
  readonly config: Pick<Config, 'ALLOWED_ORIGINS' | 'SITE_URL' | 'RECAPTCHA_V3_MIN_SCORE'>;
  readonly now: () => number;
}

const providerNames: Record<CaptchaField, string> = { turnstile: 'Turnstile', recaptchaV3: 'reCAPTCHA v3' };

/** Builds the captcha check (Waline's `useCaptchaCheck`, with the rules Waline leaves out: captcha.ts). */
export function createCaptchaGuard(dependencies: CaptchaGuardDependencies): CaptchaGuard {
  const { secret, verifyCaptcha, claimCaptchaToken, hashCaptchaToken, config, now } = dependencies;
  return {
    async demand(tokens, request) {
      if (!secret) return { kind: 'none' };
      let inForce;
      try {
        inForce = await secret();
      } catch (error) {
        const reason = 'the captcha secret could not be read';
        logError(reason, { error: error instanceof Error ? error.message : String(error) });
        return { kind: 'unknown', reason };
      }
      if (!inForce) return { kind: 'none' };
      const { field } = inForce;
      const token = tokens[field];
      if (token === undefined || token === '') {
        throw new AppError('forbidden', translate(request.lang, 'captchaRequired', { field }), {
          [field]: `required: solve the captcha (${providerNames[field]}) and send its token`,
        });
      }
      return { kind: 'token', field, secret: inForce.secret, token };
    },

    async verify(demand, request) {
      if (demand.kind === 'none') return { passed: true };
      if (demand.kind === 'unknown') return { passed: false, reason: demand.reason };
      const { field } = demand;
      const refuse = (rule: string) =>
        new AppError('forbidden', translate(request.lang, 'captchaRefused', { field, rule }), {
          [field]: rule,
        });
      const judgement = await verifyCaptcha({
        secret: demand.secret,
        token: demand.token,
        remoteIp: request.sourceIp,
        expectation: {
          field,
          hostnames: acceptedHostnames({
            allowedOrigins: config.ALLOWED_ORIGINS,
            siteUrl: config.SITE_URL,
            ownHost: request.host,
          }),
          minScore: config.RECAPTCHA_V3_MIN_SCORE,
        },
      });
      if (judgement.outcome === 'unreachable') {
        logError(`${providerNames[field]} could not verify a token`, { reason: judgement.reason });
        return { passed: false, reason: judgement.reason };
      }
      if (judgement.outcome === 'refused') throw refuse(judgement.rule);
      if (!(await claimCaptchaToken(hashCaptchaToken(demand.token), now()))) {
        throw refuse('must be used once; this token was used before: solve the captcha again');
      }
      return { passed: true };
    },
  };
}
