import { AppError } from '../domain/errors.js';
import { translate } from '../domain/messages.js';
import type { ApiRequest } from '../http/request.js';
import type { Services } from '../services.js';
import { bearerToken, verifyToken } from './token.js';

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
  services: Pick<Services, 'tokenSecret' | 'now'>,
  request: ApiRequest,
): Promise<Viewer | undefined> {
  const token = bearerToken(request.authorization);
  if (!token || token === 'undefined') return undefined;
  const secret = await services.tokenSecret();
  if (!secret) return undefined;
  const claims = verifyToken(secret, token, services.now());
  return claims ? { id: claims.sub, email: claims.email } : undefined;
}

/** The signed-in administrator, or a 401 that says what to do. */
export async function requireAdmin(
  services: Pick<Services, 'tokenSecret' | 'now'>,
  request: ApiRequest,
): Promise<Viewer> {
  const viewer = await resolveViewer(services, request);
  if (!viewer) throw new AppError('unauthorized', translate(request.lang, 'adminRequired'));
  return viewer;
}
