import type { Config } from '../config.js';
import type { CaptchaField } from '../spam/captcha.js';
import { createParameterSecret, type SecretSource, type SecretsExtension } from './parameter-secret.js';

/** The captcha in force: the body field its token comes in, and its provider's secret. */
export interface CaptchaSecret {
  readonly field: CaptchaField;
  readonly secret: string;
}

/**
 * Reads the captcha in force: Turnstile's when its secret is set, else reCAPTCHA v3's, else undefined (no
 * captcha). Throws when a secret could not be read (the extension failed): whether a captcha is in force is
 * then unknown.
 */
export type CaptchaSecretSource = () => Promise<CaptchaSecret | undefined>;

/** A captcha secret longer than this is no secret a provider gave. */
const maxSecretChars = 512;

/**
 * The captcha secret, as Waline reads it: `TURNSTILE_SECRET` first, else `RECAPTCHA_V3_SECRET`; on AWS each may
 * be the SSM SecureString named by `TURNSTILE_SECRET_PARAMETER` / `RECAPTCHA_V3_SECRET_PARAMETER`, read through
 * the Parameters and Secrets extension like the Akismet key (akismet-key.ts), so a captcha can be turned on,
 * rotated or off without a deploy; a parameter that does not exist counts as unset. Undefined (no source, no
 * read ever) when none of the four is set.
 */
export function createCaptchaSecret(
  config: Pick<
    Config,
    | 'TURNSTILE_SECRET'
    | 'TURNSTILE_SECRET_PARAMETER'
    | 'RECAPTCHA_V3_SECRET'
    | 'RECAPTCHA_V3_SECRET_PARAMETER'
    | 'SECRETS_CACHE_SECONDS'
  >,
  /** The Parameters and Secrets extension (on AWS); undefined: the parameters are not read (local mode). */
  extension: SecretsExtension | undefined,
  options: { readonly now?: () => number } = {},
): CaptchaSecretSource | undefined {
  const source = (plain: string | undefined, name: string | undefined, feature: string) => {
    if (plain) return async () => plain;
    if (!name || !extension) return undefined;
    return createParameterSecret(extension, {
      name,
      feature,
      problem: (value) =>
        value.length > maxSecretChars ? `is longer than ${maxSecretChars} characters` : undefined,
      ttlMs: config.SECRETS_CACHE_SECONDS * 1000,
      now: options.now,
    });
  };
  const sources: [CaptchaField, SecretSource][] = [];
  const turnstile = source(
    config.TURNSTILE_SECRET,
    config.TURNSTILE_SECRET_PARAMETER,
    'the Turnstile captcha',
  );
  if (turnstile) sources.push(['turnstile', turnstile]);
  const recaptcha = source(
    config.RECAPTCHA_V3_SECRET,
    config.RECAPTCHA_V3_SECRET_PARAMETER,
    'the reCAPTCHA v3 captcha',
  );
  if (recaptcha) sources.push(['recaptchaV3', recaptcha]);
  if (sources.length === 0) return undefined;
  return async () => {
    for (const [field, read] of sources) {
      const secret = await read();
      if (secret) return { field, secret };
    }
    return undefined;
  };
}
