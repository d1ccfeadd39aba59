import { AppError } from '../domain/errors.js';
import { translate } from '../domain/messages.js';
import type { Lang } from '../domain/messages.js';
import type { AdminRepository } from '../table/admin-repository.js';
import type { SecretSource } from '../secrets/parameter-secret.js';
import { bearerToken, checkToken } from './token.js';

/** A signed-in administrator, as the token says. */
export interface Viewer {
  readonly id: string;
  readonly email: string;
}

/** The administrator behind an `Authorization` header, or undefined for anyone else. */
export type ResolveViewer = (authorization: string | undefined) => Promise<Viewer | undefined>;

/** What telling an administrator from anyone else takes. */
export interface ViewerDependencies {
  /**
   * The key that signs sign-in tokens; undefined when sign-in is not configured. `{ refresh: true }`
   * asks for the key again after a token failed verification with it (it may have been rotated).
   */
  readonly tokenSecret: SecretSource;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly admins: Pick<AdminRepository, 'find'>;
}

/**
 * Resolves the administrator behind a bearer token. A missing, malformed, expired or foreign token
 * (the widget sends `Bearer undefined`) simply means anonymous.
 */
export function createViewerResolver(services: ViewerDependencies): ResolveViewer {
  return (authorization) => resolveViewer(services, authorization);
}

async function resolveViewer(
  services: ViewerDependencies,
  authorization: string | undefined,
): Promise<Viewer | undefined> {
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
  if (!check.ok) return undefined;
  const { claims } = check;
  // The account must still exist with the id the token names: re-adding an administrator (a new
  // password) gives a new id, which revokes every token issued before. One GetItem, for
  // requests that carry a valid token only.
  const account = await services.admins.find(claims.email);
  return account?.id === claims.sub ? { id: claims.sub, email: claims.email } : undefined;
}

/** The signed-in administrator behind `authorization`, or a 401 in `lang` that says what to do. */
export async function requireAdmin(
  viewer: ResolveViewer,
  authorization: string | undefined,
  lang: Lang,
): Promise<Viewer> {
  const admin = await viewer(authorization);
  if (!admin) throw new AppError('unauthorized', translate(lang, 'adminRequired'));
  return admin;
}
// STUB-CORE (not committed): stands for wip-core's Caller until it is merged.
import type { Account } from '../domain/account.js';
export type Caller =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'banned' }
  | {
      readonly kind: 'account';
      readonly viewer: Viewer & { type: 'administrator' | 'guest'; sessionVersion: number; account: Account };
    };
export type ResolveCaller = (authorization: string | undefined) => Promise<Caller>;
export function createCallerResolver(services: ViewerDependencies): ResolveCaller {
  const viewer = createViewerResolver(services);
  return async (authorization) => {
    const found = await viewer(authorization);
    if (!found) return { kind: 'anonymous' };
    const admin = await services.admins.find(found.email);
    const account: Account = {
      id: found.id,
      email: found.email,
      displayName: admin?.displayName ?? found.email,
      ...(admin?.link ? { link: admin.link } : {}),
      type: 'administrator',
      state: 'active',
      passwordHash: '',
      sessionVersion: 0,
      createdAt: 0,
    };
    return { kind: 'account', viewer: { ...found, type: 'administrator', sessionVersion: 0, account } };
  };
}
