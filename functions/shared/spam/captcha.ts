/**
 * The captcha providers Waline's widget speaks to, named by the body field their token comes in
 * (`turnstile: <token>` for Cloudflare Turnstile, `recaptchaV3: <token>` for Google reCAPTCHA v3).
 */
export type CaptchaField = 'turnstile' | 'recaptchaV3';

/** The action the widget asks the provider for (Waline's `social`): a token made for anything else is refused. */
export const captchaAction = 'social';

/** What a token must have been solved for. */
export interface CaptchaExpectation {
  readonly field: CaptchaField;
  /** The hostnames (lower case) a token may have been solved on; undefined: any ({@link acceptedHostnames}). */
  readonly hostnames: ReadonlySet<string> | undefined;
  /** reCAPTCHA only: the least score that passes (RECAPTCHA_V3_MIN_SCORE). */
  readonly minScore: number;
}

/**
 * What became of a token: it passed; it was refused, `rule` saying which rule it broke (in words, for the
 * 403's details); or the provider could not be asked (`reason`, for the log and the owner).
 */
export type CaptchaJudgement =
  | { readonly outcome: 'passed' }
  | { readonly outcome: 'refused'; readonly rule: string }
  | { readonly outcome: 'unreachable'; readonly reason: string };

/** Error codes are the provider's words (`timeout-or-duplicate`): at most a few, short and plain, are repeated. */
const errorCodePattern = /^[a-z0-9-]{1,64}$/;

/**
 * Judges a provider's siteverify answer (already parsed from JSON). It passes only when all hold: `success`
 * is true; `hostname` is one the site is configured for; `action` is `social`; for reCAPTCHA, `score` is at
 * least the least score. An answer that is not an object with a boolean `success` is no answer: the
 * provider is treated as unreachable, so the comment waits rather than being refused for the provider's fault.
 * (Single use is checked apart, once the token has passed: captcha-tokens.ts.)
 */
export function judgeCaptchaAnswer(answer: unknown, expectation: CaptchaExpectation): CaptchaJudgement {
  if (
    typeof answer !== 'object' ||
    answer === null ||
    typeof (answer as { success?: unknown }).success !== 'boolean'
  ) {
    return { outcome: 'unreachable', reason: 'the provider answered without a success field' };
  }
  const { success, hostname, action, score } = answer as Record<string, unknown>;
  if (success !== true) {
    const codes = (answer as Record<string, unknown>)['error-codes'];
    const named = Array.isArray(codes)
      ? codes
          .filter((code): code is string => typeof code === 'string' && errorCodePattern.test(code))
          .slice(0, 3)
      : [];
    return {
      outcome: 'refused',
      rule: `must be a token the captcha provider accepts${named.length > 0 ? ` (it said: ${named.join(', ')})` : ''}; solve the captcha again`,
    };
  }
  const host = typeof hostname === 'string' ? hostname.toLowerCase() : undefined;
  if (expectation.hostnames !== undefined && (host === undefined || !expectation.hostnames.has(host))) {
    return { outcome: 'refused', rule: 'must be solved on a site this server is configured for' };
  }
  if (action !== captchaAction) {
    return { outcome: 'refused', rule: `must be made for the action ${captchaAction}` };
  }
  if (expectation.field === 'recaptchaV3' && !(typeof score === 'number' && score >= expectation.minScore)) {
    return { outcome: 'refused', rule: 'must score at least the least score this server accepts' };
  }
  return { outcome: 'passed' };
}

/**
 * The hostnames a token may have been solved on: those of the ALLOWED_ORIGINS entries (`*` names none), of
 * SITE_URL, and of this server itself (`ownHost`, the Host the request came to: its own pages, the sign-in page
 * and, locally, the demo). Undefined, any hostname, only when ALLOWED_ORIGINS is `*` and SITE_URL is unset:
 * then no site is configured to compare with.
 */
export function acceptedHostnames(site: {
  readonly allowedOrigins: readonly string[];
  readonly siteUrl: string | undefined;
  readonly ownHost: string | undefined;
}): ReadonlySet<string> | undefined {
  if (site.allowedOrigins.includes('*') && site.siteUrl === undefined) return undefined;
  const hostnameOf = (url: string) => (URL.canParse(url) ? new URL(url).hostname.toLowerCase() : undefined);
  const names = [
    ...site.allowedOrigins.filter((origin) => origin !== '*').map(hostnameOf),
    site.siteUrl === undefined ? undefined : hostnameOf(site.siteUrl),
    site.ownHost === undefined ? undefined : hostnameOf(`http://${site.ownHost}`),
  ];
  return new Set(names.filter((name): name is string => name !== undefined && name !== ''));
}
