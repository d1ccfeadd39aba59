import type { Account } from '../domain/account.js';
import { AppError } from '../domain/errors.js';
import { translate } from '../domain/messages.js';
import type { Lang } from '../domain/messages.js';
import type { AccountRepository } from '../table/account-repository.js';
import type { SecretSource } from '../secrets/parameter-secret.js';
import { bearerToken, checkToken, type TokenClaims } from './token.js';

/** A signed-in account that may act: active, not banned, its token of its current session version. */
export interface Viewer {
  readonly id: string;
  readonly email: string;
  readonly type: 'administrator' | 'guest';
  readonly sessionVersion: number;
  /** The account as read for this request (never shown as is: it holds the password hash). */
  readonly account: Account;
}

/**
 * Who sent a request: nobody known (no token, a token that is not good, or an account that may not act
 * yet: unconfirmed, awaiting approval), a banned account (its token was validly signed for it: posts answer
 * 403, reads treat it as anonymous), or an account that may act.
 */
export type Caller =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'banned' }
  | { readonly kind: 'account'; readonly viewer: Viewer };

/** The caller behind an `Authorization` header. */
export type ResolveCaller = (authorization: string | undefined) => Promise<Caller>;

/** The account behind an `Authorization` header when it may act, or undefined for anyone else. */
export type ResolveViewer = (authorization: string | undefined) => Promise<Viewer | undefined>;

/** What telling who sent a request takes. */
export interface ViewerDependencies {
  /**
   * The key that signs sign-in tokens; undefined when sign-in is not configured. `{ refresh: true }`
   * asks for the key again after a token failed verification with it (it may have been rotated).
   */
  readonly tokenSecret: SecretSource;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly accounts: Pick<AccountRepository, 'findById'>;
}

const anonymous: Caller = { kind: 'anonymous' };

/**
 * Resolves the caller behind a bearer token. A missing, malformed, expired or foreign token (the widget
 * sends `Bearer undefined`) simply means anonymous; so does a token of an older session version (revoked:
 * a password change, "sign out everywhere", a ban) and one of an account that is not active.
 */
export function createCallerResolver(services: ViewerDependencies): ResolveCaller {
  return (authorization) => resolveCaller(services, authorization);
}

/** Resolves the account that may act behind a bearer token: undefined for anonymous and banned callers. */
export function createViewerResolver(services: ViewerDependencies): ResolveViewer {
  return viewerOf(createCallerResolver(services));
}

/** The viewer of a caller resolver: the account that may act, undefined for anyone else. */
export function viewerOf(resolve: ResolveCaller): ResolveViewer {
  return async (authorization) => {
    const caller = await resolve(authorization);
    return caller.kind === 'account' ? caller.viewer : undefined;
  };
}

/** The claims of a good token in `authorization`, or undefined. */
async function tokenClaims(
  services: ViewerDependencies,
  authorization: string | undefined,
): Promise<TokenClaims | undefined> {
  const token = bearerToken(authorization);
  if (!token || token === 'undefined') return undefined;
  const secret = await services.tokenSecret();
  if (!secret) return undefined;
  let check = await checkToken(secret, token, services.now());
  if (!check.ok && check.refusal === 'signature') {
    // Signed with another key: the key may have been rotated since this instance read it. The source
    // reads it again at most every so often, so forged tokens cannot make each request do so.
    const fresh = await services.tokenSecret({ refresh: true });
    if (fresh && fresh !== secret) check = await checkToken(fresh, token, services.now());
  }
  return check.ok ? check.claims : undefined;
}

async function resolveCaller(
  services: ViewerDependencies,
  authorization: string | undefined,
): Promise<Caller> {
  const claims = await tokenClaims(services, authorization);
  if (!claims) return anonymous;
  // One GetItem, for requests that carry a valid token only: the account as it is now decides.
  const account = await services.accounts.findById(claims.sub);
  if (!account) return anonymous;
  // Before the version: a ban revokes the account's tokens, yet its holder is told it is banned.
  if (account.type === 'banned') return { kind: 'banned' };
  if (account.sessionVersion !== claims.ver || account.state !== 'active') return anonymous;
  return {
    kind: 'account',
    viewer: {
      id: account.id,
      email: account.email,
      type: account.type,
      sessionVersion: account.sessionVersion,
      account,
    },
  };
}

/** Whether `viewer` is an administrator's: what every moderation and administration route asks. */
export function isAdministrator(viewer: Viewer | undefined): viewer is Viewer & { type: 'administrator' } {
  return viewer?.type === 'administrator';
}

/** The signed-in administrator behind `authorization`, or a 401 in `lang` that says what to do. */
export async function requireAdmin(
  viewer: ResolveViewer,
  authorization: string | undefined,
  lang: Lang,
): Promise<Viewer> {
  const admin = await viewer(authorization);
  if (!isAdministrator(admin)) throw new AppError('unauthorized', translate(lang, 'adminRequired'));
  return admin;
}

/** The signed-in account behind `authorization` (any type that may act), or a 401 in `lang`. */
export async function requireAccount(
  viewer: ResolveViewer,
  authorization: string | undefined,
  lang: Lang,
): Promise<Viewer> {
  const account = await viewer(authorization);
  if (!account) throw new AppError('unauthorized', translate(lang, 'accountRequired'));
  return account;
}
