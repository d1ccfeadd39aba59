import { requireAdmin } from '../shared/auth/viewer.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import type { Services } from '../shared/services.js';
import { findComment } from './find-comment.js';

/**
 * `DELETE /api/comment/{id}` from an administrator: removes the comment and the replies that
 * answer it (a root takes its whole thread), with their counters, as Waline does.
 */
export function createDeleteComment(services: Services): Router {
  return async (request) => {
    await requireAdmin(services, request);
    const target = await findComment(services.comments, request);
    if ((await services.moderation.remove(target)) === 'conflict') {
      throw new AppError('duplicate', translate(request.lang, 'statusChanged', { id: target.id }));
    }
    return envelope('');
  };
}
