import * as oauth from 'oauth4webapi';
import { displayNameOf, webUrlOf } from '../shared/domain/identity-claims.js';
import { isPlainAddress } from '../shared/domain/mail-address.js';
import type { ExternalIdentity } from '../shared/domain/external-identity.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { GithubSetting } from '../shared/sign-in-provider-settings.js';
import { safeCode } from './oidc-sign-in.js';
import { type SignInProvider, SignInRefusal } from './sign-in-provider.js';

/** What {@link createGithubSignIn} takes besides GitHub's setting. */
export interface GithubSignInDependencies {
  readonly clientSecret: SecretSource;
  /** How long one request to GitHub may take; 5 s by default. */
  readonly timeoutMs?: number;
}

/** GitHub's profile and its addresses are a few kilobytes; anything far larger is not one. */
const maxAnswerBytes = 256 * 1024;

/**
 * Sign-in with GitHub (or a GitHub Enterprise server) through its OAuth2 web flow: the code with `state` and
 * PKCE, exchanged with the client secret (oauth4webapi), then `GET /user` and `GET /user/emails` with the token.
 * The account is keyed by GitHub's numeric id (a renamed login keeps its account); the address is the primary
 * one only when GitHub says it is verified, and none otherwise.
 */
export function createGithubSignIn(
  setting: GithubSetting,
  { clientSecret, timeoutMs = 5000 }: GithubSignInDependencies,
): SignInProvider {
  const server: oauth.AuthorizationServer = {
    issuer: setting.url,
    authorization_endpoint: `${setting.url}/login/oauth/authorize`,
    token_endpoint: `${setting.url}/login/oauth/access_token`,
  };
  const client: oauth.Client = { client_id: setting.clientId };
  const insecure = (url: string) => new URL(url).protocol === 'http:';
  const requestOptions = {
    signal: () => AbortSignal.timeout(timeoutMs),
    [oauth.allowInsecureRequests]: insecure(setting.url),
  };

  const api = async (path: string, token: string): Promise<unknown> => {
    const response = await fetch(`${setting.apiUrl}${path}`, {
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'user-agent': 'Marginalia',
        'x-github-api-version': '2022-11-28',
      },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`GitHub answered ${path} with ${response.status}`);
    }
    return JSON.parse(await boundedText(response, maxAnswerBytes));
  };

  return {
    key: setting.key,
    label: setting.label,
    issuer: setting.url,

    async authorizationUrl({ redirectUri, state, codeChallenge }) {
      const url = new URL(server.authorization_endpoint!);
      for (const [name, value] of Object.entries({
        client_id: setting.clientId,
        redirect_uri: redirectUri,
        scope: 'read:user user:email',
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      })) {
        url.searchParams.set(name, value);
      }
      return url;
    },

    async identityOf({ callbackUrl, redirectUri, state, codeVerifier }) {
      let parameters: URLSearchParams;
      try {
        parameters = oauth.validateAuthResponse(server, client, callbackUrl, state);
      } catch (cause) {
        if (cause instanceof oauth.AuthorizationResponseError) {
          throw new SignInRefusal('denied', `GitHub did not sign you in (${safeCode(cause.error)}).`, {
            cause,
          });
        }
        throw new SignInRefusal('invalid', "GitHub's answer was not a valid sign-in.", { cause });
      }
      const secret = await clientSecret();
      if (!secret) throw new SignInRefusal('unavailable', 'Sign-in with GitHub is not available now.');
      let token: string;
      try {
        const response = await oauth.authorizationCodeGrantRequest(
          server,
          client,
          oauth.ClientSecretPost(secret),
          parameters,
          redirectUri,
          codeVerifier,
          requestOptions,
        );
        token = (await oauth.processAuthorizationCodeResponse(server, client, response)).access_token;
      } catch (cause) {
        throw new SignInRefusal('invalid', 'GitHub did not accept this sign-in. Start again.', { cause });
      }
      try {
        const user = await api('/user', token);
        const emails = await api('/user/emails', token);
        const identity = identityOfGithubUser(user, emails, githubProvider(setting.url));
        if (identity) return identity;
      } catch (cause) {
        throw new SignInRefusal('unreachable', 'GitHub could not be asked who you are. Try again later.', {
          cause,
        });
      }
      throw new SignInRefusal('invalid', 'GitHub did not say who you are.');
    },
  };
}

/**
 * The provider of accounts from the GitHub at `url`: `github` for github.com, `github:<url>` for an Enterprise
 * server, whose numeric ids are another GitHub's (user 42 there is not github.com's user 42).
 */
export function githubProvider(url: string): string {
  return url === 'https://github.com' ? 'github' : `github:${url}`;
}

/**
 * The identity of GitHub's `GET /user` and `GET /user/emails` answers: `provider` (see {@link githubProvider}) and
 * the numeric id, never the login (which its owner may change, and someone else then take); the primary address
 * only if verified.
 */
export function identityOfGithubUser(
  user: unknown,
  emails: unknown,
  provider = 'github',
): ExternalIdentity | undefined {
  if (typeof user !== 'object' || user === null) return undefined;
  const { id, login, name, avatar_url: avatarUrl, html_url: htmlUrl, blog } = user as Record<string, unknown>;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return undefined;
  const primary = Array.isArray(emails)
    ? (emails as unknown[]).find(
        (entry): entry is { email: string } =>
          typeof entry === 'object' &&
          entry !== null &&
          (entry as Record<string, unknown>).primary === true &&
          (entry as Record<string, unknown>).verified === true &&
          typeof (entry as Record<string, unknown>).email === 'string' &&
          isPlainAddress((entry as Record<string, string>).email ?? ''),
      )
    : undefined;
  const link =
    webUrlOf(blog) ??
    webUrlOf(typeof blog === 'string' && blog ? `https://${blog}` : undefined) ??
    webUrlOf(htmlUrl);
  const avatar = webUrlOf(avatarUrl);
  return {
    provider,
    subject: String(id),
    profile: {
      displayName: displayNameOf(name, login),
      ...(link ? { link } : {}),
      ...(avatar ? { avatar } : {}),
    },
    ...(primary ? { email: { address: primary.email.trim(), verified: true } } : {}),
  };
}

/** The body as text, refused past `maxBytes` (GitHub's answers are small; a stand-in's may not be). */
async function boundedText(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`an answer over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
