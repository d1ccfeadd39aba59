import type { HttpHandler } from '../shared/http/http-types.js';
import type { Services } from '../shared/services.js';

/** The comment function: routes a request to its operation. */
export function createCommentHandler(_services: Services): HttpHandler {
  return async () => ({ statusCode: 501, headers: { 'content-type': 'application/json' }, body: '{"errno":500,"errmsg":"not yet"}' });
}
