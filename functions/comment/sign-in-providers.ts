import type { Config } from '../shared/config.js';
import { once } from '../shared/once.js';
import { createClientSecret } from '../shared/secrets/client-secret.js';
import type { SecretsExtension } from '../shared/secrets/parameter-secret.js';
import type { SignInProvider } from './sign-in-provider.js';

// The flows and oauth4webapi, loaded on the first sign-in with a provider: the bundles keep them in a chunk of
// their own (lib/bundle-options.ts), so a cold start that serves comments neither reads nor evaluates them.
const loadOidc = once(() => import('./oidc-sign-in.js'));
const loadGithub = once(() => import('./github-sign-in.js'));

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
      loadedOnUse(setting.key, setting.label, setting.issuer, async () =>
        (await loadOidc()).createOidcSignIn(setting, { clientSecret: secretOf(setting), now }),
      ),
    ),
    ...(config.github
      ? [
          loadedOnUse(config.github.key, config.github.label, config.github.url, async () =>
            (await loadGithub()).createGithubSignIn(config.github!, {
              clientSecret: secretOf(config.github!),
            }),
          ),
        ]
      : []),
  ];
}

/** A provider whose flow is built on its first use: its name and issuer are known without loading it. */
function loadedOnUse(
  key: string,
  label: string,
  issuer: string,
  build: () => Promise<SignInProvider>,
): SignInProvider {
  const provider = once(build);
  return {
    key,
    label,
    issuer,
    authorizationUrl: async (flow) => (await provider()).authorizationUrl(flow),
    identityOf: async (flow) => (await provider()).identityOf(flow),
  };
}
