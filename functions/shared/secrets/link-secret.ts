import type { Config } from '../config.js';
import { createSigningKeySecret, type SecretSource, type SecretsExtension } from './parameter-secret.js';

/**
 * The key that signs the links in mails (shared/notify/link-token.ts): `LINK_SECRET` locally, or the SSM
 * SecureString named by `LINK_SECRET_PARAMETER`, read through the Parameters and Secrets extension when a
 * link is first built or read, again every `SECRETS_CACHE_SECONDS`, and on demand when a link fails
 * verification (it may have been rotated). Undefined when neither is set: no mail can carry a link, and
 * every link is refused. A key of its own, not the sign-in key: the notifier, which holds it, cannot sign in.
 */
export function createLinkSecret(
  config: Pick<Config, 'LINK_SECRET' | 'LINK_SECRET_PARAMETER' | 'SECRETS_CACHE_SECONDS'>,
  extension: SecretsExtension,
  options: { readonly now?: () => number } = {},
): SecretSource {
  return createSigningKeySecret(extension, {
    plain: config.LINK_SECRET,
    name: config.LINK_SECRET_PARAMETER,
    feature: 'the links in mails (unsubscribe, moderate from the mail)',
    ttlMs: config.SECRETS_CACHE_SECONDS * 1000,
    now: options.now,
  });
}
