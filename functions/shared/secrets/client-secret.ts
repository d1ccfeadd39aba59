import type { Config } from '../config.js';
import { createParameterSecret, type SecretSource, type SecretsExtension } from './parameter-secret.js';

/** A client secret as an issuer's console shows it: printable, no spaces, bounded. */
const clientSecretPattern = /^[\x21-\x7e]{1,512}$/;

/**
 * An OAuth client's secret (an OIDC issuer's or GitHub's): the plain value locally, or the SSM SecureString
 * `clientSecretParameter` names, read through the Parameters and Secrets extension like the Akismet key
 * (akismet-key.ts), only when a callback needs it. Without the extension (local mode) a parameter reads as
 * undefined: that provider's sign-ins are refused, with a page that says it is not available.
 */
export function createClientSecret(
  setting: {
    readonly clientSecret?: string;
    readonly clientSecretParameter?: string;
    readonly label: string;
  },
  config: Pick<Config, 'SECRETS_CACHE_SECONDS'>,
  extension: SecretsExtension | undefined,
  options: { readonly now?: () => number } = {},
): SecretSource {
  if (setting.clientSecret) {
    const secret = setting.clientSecret;
    return async () => secret;
  }
  const name = setting.clientSecretParameter;
  if (!name || !extension) return async () => undefined;
  return createParameterSecret(extension, {
    name,
    feature: `sign-in with ${setting.label}`,
    problem: (value) => (clientSecretPattern.test(value) ? undefined : 'is not a client secret'),
    ttlMs: config.SECRETS_CACHE_SECONDS * 1000,
    now: options.now,
  });
}
