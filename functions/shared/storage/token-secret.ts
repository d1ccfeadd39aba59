import type { Config } from '../config.js';
import { createParameterSecret, type SecretSource, type SecretsExtension } from './parameter-secret.js';

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
  if (config.JWT_TOKEN) {
    const secret = config.JWT_TOKEN;
    return async () => secret;
  }
  const name = config.JWT_SECRET_PARAMETER;
  if (!name) return async () => undefined;
  return createParameterSecret(extension, {
    name,
    feature: 'sign-in',
    problem: (value) => (value.length < 32 ? 'is shorter than 32 characters' : undefined),
    ttlMs: config.SECRETS_CACHE_SECONDS * 1000,
    now: options.now,
  });
}
