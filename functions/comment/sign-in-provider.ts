import type { ExternalIdentity } from '../shared/domain/external-identity.js';

/**
 * A party readers sign in with through a redirect and a callback (issue 28): an OpenID Connect issuer
 * (oidc-sign-in.ts) or GitHub (github-sign-in.ts). oauth-routes.ts runs the flow around it: state, nonce, PKCE,
 * the browser's cookie, the account and its token.
 */
export interface SignInProvider {
  /** The path segment of its route (`/api/oauth/oidc-1`, `/api/oauth/github`). */
  readonly key: string;
  /** The button's text after "Sign in with". */
  readonly label: string;
  /** The issuer (or GitHub's URL) a flow is bound to. */
  readonly issuer: string;
  /** Where to send the browser to sign in. */
  authorizationUrl(flow: {
    readonly redirectUri: string;
    readonly state: string;
    readonly nonce: string;
    readonly codeChallenge: string;
  }): Promise<URL>;
  /**
   * Reads the provider's answer at the callback (`callbackUrl`: the redirect URI with the provider's query),
   * exchanges the code and answers the identity; throws a {@link SignInRefusal} for anything refused.
   */
  identityOf(flow: {
    readonly callbackUrl: URL;
    readonly redirectUri: string;
    readonly state: string;
    readonly nonce: string;
    readonly codeVerifier: string;
  }): Promise<ExternalIdentity>;
}

/** Why a provider's sign-in did not end in an identity: each says so plainly on the callback's page. */
export type SignInRefusalReason = 'denied' | 'unreachable' | 'invalid' | 'unavailable';

/** A sign-in the provider (or its answer) refused; the message is safe to show: no code, token or secret. */
export class SignInRefusal extends Error {
  constructor(
    readonly reason: SignInRefusalReason,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SignInRefusal';
  }
}
