import { AppError } from '../domain/errors.js';
import { translate } from '../domain/messages.js';
import type { ApiRequest } from '../http/request.js';
import type { Services } from '../services.js';
import { bearerToken, checkToken } from './token.js';

/** A signed-in administrator, as the token says. */
export interface Viewer {
  readonly id: string;
  readonly email: string;
}

/**
 * The administrator behind the request's bearer token, or undefined. A missing, malformed,
 * expired or foreign token (the widget sends `Bearer undefined`) simply means anonymous.
 */
export async function resolveViewer(
  services: Pick<Services, 'tokenSecret' | 'now' | 'admins'>,
  request: ApiRequest,
): Promise<Viewer | undefined> {
  const token = bearerToken(request.authorization);
  if (!token || token === 'undefined') return undefined;
  const secret = await services.tokenSecret();
  if (!secret) return undefined;
  let check = checkToken(secret, token, services.now());
  if (!check.ok && check.refusal === 'signature') {
    // Signed with another key: the key may have been rotated since this instance read it. The source
    // reads it again at most every so often, so forged tokens cannot make each request do so.
    const fresh = await services.tokenSecret({ refresh: true });
    if (fresh && fresh !== secret) check = checkToken(fresh, token, services.now());
  }
  if (!check.ok) return undefined;
  const { claims } = check;
  // The account must still exist with the id the token names: re-adding an administrator (a new
  // password) gives a new id, which revokes every token issued before. One GetItem, for
  // requests that carry a valid token only.
  const account = await services.admins.find(claims.email);
  return account?.id === claims.sub ? { id: claims.sub, email: claims.email } : undefined;
}

/** The signed-in administrator, or a 401 that says what to do. */
export async function requireAdmin(
  services: Pick<Services, 'tokenSecret' | 'now' | 'admins'>,
  request: ApiRequest,
): Promise<Viewer> {
  const viewer = await resolveViewer(services, request);
  if (!viewer) throw new AppError('unauthorized', translate(request.lang, 'adminRequired'));
  return viewer;
}
