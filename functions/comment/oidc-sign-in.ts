import * as oauth from 'oauth4webapi';
import { identityFromClaims } from '../shared/domain/identity-claims.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { OidcIssuerSetting } from '../shared/sign-in-provider-settings.js';
import { type SignInProvider, SignInRefusal } from './sign-in-provider.js';

/** What {@link createOidcSignIn} takes besides the issuer's setting. */
export interface OidcSignInDependencies {
  readonly clientSecret: SecretSource;
  /** Milliseconds since the epoch (for how long the issuer's metadata is reused). */
  readonly now: () => number;
  /** How long one request to the issuer may take; 5 s by default (the function has 10). */
  readonly timeoutMs?: number;
}

/** How long a warm instance reuses an issuer's discovered metadata. */
const metadataTtlMs = 60 * 60 * 1000;

/** The scopes asked for: the ID token's `sub`, and the profile and address claims. */
const scope = 'openid profile email';

/**
 * Sign-in with one OpenID Connect issuer (Cognito, Google, Microsoft, Auth0, Keycloak…), through oauth4webapi:
 * discovery from the issuer's `.well-known/openid-configuration`, the authorization code flow with PKCE (S256),
 * `state` and `nonce`, the code exchanged with the client secret, and the ID token's issuer, audience, expiry,
 * issue time and nonce checked by the library. The identity is `oidc:<issuer>` and `sub`.
 * http is allowed only for an issuer on loopback (settings refuse any other: sign-in-provider-settings.ts).
 */
export function createOidcSignIn(
  setting: OidcIssuerSetting,
  { clientSecret, now, timeoutMs = 5000 }: OidcSignInDependencies,
): SignInProvider {
  const issuerUrl = new URL(setting.issuer);
  const requestOptions = {
    signal: () => AbortSignal.timeout(timeoutMs),
    [oauth.allowInsecureRequests]: issuerUrl.protocol === 'http:',
  };
  const client: oauth.Client = { client_id: setting.clientId };
  let discovered: { readonly server: oauth.AuthorizationServer; readonly until: number } | undefined;

  const authorizationServer = async (): Promise<oauth.AuthorizationServer> => {
    if (discovered && discovered.until > now()) return discovered.server;
    try {
      const response = await oauth.discoveryRequest(issuerUrl, { ...requestOptions, algorithm: 'oidc' });
      const server = await oauth.processDiscoveryResponse(issuerUrl, response);
      discovered = { server, until: now() + metadataTtlMs };
      return server;
    } catch (cause) {
      throw new SignInRefusal(
        'unreachable',
        `${setting.label} could not be reached, or did not describe itself as an OpenID Connect issuer. Try again later.`,
        { cause },
      );
    }
  };

  return {
    key: setting.key,
    label: setting.label,
    issuer: setting.issuer,

    async authorizationUrl({ redirectUri, state, nonce, codeChallenge }) {
      const server = await authorizationServer();
      if (!server.authorization_endpoint) {
        throw new SignInRefusal('unreachable', `${setting.label} names no authorization endpoint.`);
      }
      const url = new URL(server.authorization_endpoint);
      for (const [name, value] of Object.entries({
        client_id: setting.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope,
        state,
        nonce,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      })) {
        url.searchParams.set(name, value);
      }
      return url;
    },

    async identityOf({ callbackUrl, redirectUri, state, nonce, codeVerifier }) {
      const server = await authorizationServer();
      let parameters: URLSearchParams;
      try {
        parameters = oauth.validateAuthResponse(server, client, callbackUrl, state);
      } catch (cause) {
        if (cause instanceof oauth.AuthorizationResponseError) {
          throw new SignInRefusal(
            'denied',
            `${setting.label} did not sign you in (${safeCode(cause.error)}).`,
            { cause },
          );
        }
        throw new SignInRefusal('invalid', `${setting.label}'s answer was not a valid sign-in.`, { cause });
      }
      const secret = await clientSecret();
      if (!secret)
        throw new SignInRefusal('unavailable', `Sign-in with ${setting.label} is not available now.`);
      const authentication = usesBasicAuthentication(server)
        ? oauth.ClientSecretBasic(secret)
        : oauth.ClientSecretPost(secret);
      let claims: oauth.IDToken | undefined;
      try {
        const response = await oauth.authorizationCodeGrantRequest(
          server,
          client,
          authentication,
          parameters,
          redirectUri,
          codeVerifier,
          requestOptions,
        );
        const result = await oauth.processAuthorizationCodeResponse(server, client, response, {
          expectedNonce: nonce,
          requireIdToken: true,
        });
        claims = oauth.getValidatedIdTokenClaims(result);
      } catch (cause) {
        if (cause instanceof TypeError || (cause instanceof Error && cause.name === 'TimeoutError')) {
          throw new SignInRefusal('unreachable', `${setting.label} could not be reached. Try again later.`, {
            cause,
          });
        }
        throw new SignInRefusal(
          'invalid',
          `${setting.label}'s answer could not be verified (its ID token was not for this site, not for this sign-in, or expired).`,
          { cause },
        );
      }
      const identity = claims && identityFromClaims(`oidc:${setting.issuer}`, claims);
      if (!identity) throw new SignInRefusal('invalid', `${setting.label} did not say who you are.`);
      return identity;
    },
  };
}

/** client_secret_basic unless the issuer lists only other methods (the spec's default is basic). */
function usesBasicAuthentication(server: oauth.AuthorizationServer): boolean {
  const methods = server.token_endpoint_auth_methods_supported;
  return !methods || methods.includes('client_secret_basic') || !methods.includes('client_secret_post');
}

/** An OAuth error code as the page may show it: its own charset (RFC 6749), bounded. */
export function safeCode(code: unknown): string {
  return typeof code === 'string' && /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(code) ? code : 'error';
}
