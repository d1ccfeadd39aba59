import type { Config } from '../config.js';
import { createSigningKeySecret, type SecretSource, type SecretsExtension } from './parameter-secret.js';

/**
 * The key the site's backend signs its single sign-on assertions with (HS256, comment/sign-in-with-sso.ts):
 * `SSO_SECRET` locally, or the SSM SecureString named by `SSO_SECRET_PARAMETER`, read through the Parameters
 * and Secrets extension like the token key (token-secret.ts): when an assertion first needs it, again every
 * `SECRETS_CACHE_SECONDS`, and on demand when an assertion fails verification with it (it may have been
 * rotated). Undefined when neither is set (or the parameter does not exist): HS256 assertions are then refused.
 */
export function createSsoSecret(
  config: Pick<Config, 'SSO_SECRET' | 'SSO_SECRET_PARAMETER' | 'SECRETS_CACHE_SECONDS'>,
  extension: SecretsExtension,
  options: { readonly now?: () => number } = {},
): SecretSource {
  return createSigningKeySecret(extension, {
    plain: config.SSO_SECRET,
    name: config.SSO_SECRET_PARAMETER,
    feature: 'single sign-on with the site (HS256 assertions)',
    ttlMs: config.SECRETS_CACHE_SECONDS * 1000,
    now: options.now,
  });
}
