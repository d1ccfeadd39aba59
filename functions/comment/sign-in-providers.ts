import type { Config } from '../shared/config.js';
import { createClientSecret } from '../shared/secrets/client-secret.js';
import type { SecretsExtension } from '../shared/secrets/parameter-secret.js';
import { createGithubSignIn } from './github-sign-in.js';
import { createOidcSignIn } from './oidc-sign-in.js';
import type { SignInProvider } from './sign-in-provider.js';

/**
 * The sign-in providers `config` names (OIDC_ISSUER's issuers, then GitHub), each with its client secret: the
 * plain value, or on AWS the SSM parameter read through `extension` (handler.ts passes it; local mode does not).
 */
export function createSignInProviders(
  config: Pick<Config, 'oidcIssuers' | 'github' | 'SECRETS_CACHE_SECONDS'>,
  extension: SecretsExtension | undefined,
  now: () => number,
): SignInProvider[] {
  const secretOf = (setting: Parameters<typeof createClientSecret>[0]) =>
    createClientSecret(setting, config, extension, { now });
  return [
    ...(config.oidcIssuers ?? []).map((setting) =>
      createOidcSignIn(setting, { clientSecret: secretOf(setting), now }),
    ),
    ...(config.github ? [createGithubSignIn(config.github, { clientSecret: secretOf(config.github) })] : []),
  ];
}
