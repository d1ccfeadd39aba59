import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { createHttpFunction } from '../shared/http/http-function.js';
import type { HttpHandler } from '../shared/http/http-types.js';
import { parseResourcePath } from '../shared/http/resource-path.js';
import { methodNotAllowed, routeNotFound } from '../shared/http/route-errors.js';
import type { Services } from '../shared/services.js';
import { createCountComments } from './count-comments.js';
import { createLikeComment } from './like-comment.js';
import { createListComments } from './list-comments.js';
import { createRecentComments } from './recent-comments.js';
import { createSubmitComment } from './submit-comment.js';

/** The comment function: list, count, recent, submit and like; also answers unknown routes. */
export function createCommentHandler(services: Services): HttpHandler {
  const list = createListComments(services);
  const count = createCountComments(services);
  const recent = createRecentComments(services);
  const submit = createSubmitComment(services);
  const like = createLikeComment(services);

  return createHttpFunction(
    async (request) => {
      const target = parseResourcePath(request.path);
      if (target?.resource !== 'comment') throw routeNotFound(request);
      if (target.id === undefined) {
        if (request.method === 'POST') return submit(request);
        if (request.method !== 'GET') throw methodNotAllowed(request);
        switch (request.query('type')) {
          case 'count':
            return count(request);
          case 'recent':
            return recent(request);
          case 'list':
            throw new AppError('unauthorized', translate(request.lang, 'adminListNeedsSignIn'));
          default:
            return list(request);
        }
      }
      const withId = { ...request, id: request.id ?? target.id };
      if (request.method === 'PUT') return like(withId);
      if (request.method === 'DELETE')
        throw new AppError('unauthorized', translate(request.lang, 'deleteNeedsSignIn'));
      throw methodNotAllowed(request);
    },
    { allowedOrigins: services.config.ALLOWED_ORIGINS },
  );
}
