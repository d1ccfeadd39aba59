import type { Config } from '../config.js';
import { createSigningKeySecret, type SecretSource, type SecretsExtension } from './parameter-secret.js';

/**
 * The key that signs sign-in tokens: `JWT_TOKEN` locally, or the SSM SecureString named by
 * `JWT_SECRET_PARAMETER`, read through the Parameters and Secrets extension when a route first needs
 * it, again every `SECRETS_CACHE_SECONDS` (so a rotated key signs everyone out within minutes), and
 * on demand when a token fails verification (so tokens signed with the new key are accepted at once).
 * Undefined when neither is set: sign-in is then off and every visitor is anonymous.
 */
export function createTokenSecret(
  config: Pick<Config, 'JWT_TOKEN' | 'JWT_SECRET_PARAMETER' | 'SECRETS_CACHE_SECONDS'>,
  extension: SecretsExtension,
  options: { readonly now?: () => number } = {},
): SecretSource {
  return createSigningKeySecret(extension, {
    plain: config.JWT_TOKEN,
    name: config.JWT_SECRET_PARAMETER,
    feature: 'sign-in',
    ttlMs: config.SECRETS_CACHE_SECONDS * 1000,
    now: options.now,
  });
}
