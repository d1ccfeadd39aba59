import type { Config } from '../config.js';
import { createParameterSecret, type SecretSource, type SecretsExtension } from './parameter-secret.js';

/** Akismet keys are letters and digits; the key is also the host name the check calls, so nothing else passes. */
const akismetKeyPattern = /^[A-Za-z0-9]{1,64}$/;

/**
 * The Akismet key: `AKISMET_KEY` locally, or the SSM SecureString named by `AKISMET_KEY_PARAMETER`, read
 * through the Parameters and Secrets extension like the token key (token-secret.ts), so that the key is
 * in neither the template nor the function's configuration. Undefined (no source) when neither is set;
 * the source gives undefined while the parameter does not exist (Akismet is then off).
 */
export function createAkismetKey(
  config: Pick<Config, 'AKISMET_KEY' | 'AKISMET_KEY_PARAMETER' | 'SECRETS_CACHE_SECONDS'>,
  extension: SecretsExtension,
  options: { readonly now?: () => number } = {},
): SecretSource | undefined {
  if (config.AKISMET_KEY) {
    const key = config.AKISMET_KEY;
    return async () => key;
  }
  const name = config.AKISMET_KEY_PARAMETER;
  if (!name) return undefined;
  return createParameterSecret(extension, {
    name,
    feature: 'the Akismet check',
    problem: (value) =>
      akismetKeyPattern.test(value) ? undefined : 'is not an Akismet key (letters and digits)',
    ttlMs: config.SECRETS_CACHE_SECONDS * 1000,
    now: options.now,
  });
}
