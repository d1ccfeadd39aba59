import { AppError } from '../domain/errors.js';
import { translate } from '../domain/messages.js';
import type { ApiRequest } from './request.js';

/** The 404 of a path no route serves, worded as Waline words it. */
export function routeNotFound(request: ApiRequest): AppError {
  return new AppError(
    'not_found',
    translate(request.lang, 'routeNotFound', { path: request.path.slice(0, 200) }),
  );
}

/** The 405 of a known path asked with a method it does not serve. */
export function methodNotAllowed(request: ApiRequest): AppError {
  return new AppError(
    'method_not_allowed',
    translate(request.lang, 'methodNotAllowed', {
      method: request.method.slice(0, 16),
      path: request.path.slice(0, 200),
    }),
  );
}
