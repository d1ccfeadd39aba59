import { type ResolveViewer, requireAdmin } from '../shared/auth/viewer.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import type { CommentRepository } from '../shared/table/comment-repository.js';
import type { ModerationRepository } from '../shared/table/moderation-repository.js';
import { findComment } from './find-comment.js';

/**
 * `DELETE /api/comment/{id}` from an administrator: removes the comment and the replies that
 * answer it (a root takes its whole thread), with their counters, as Waline does.
 */
export function createDeleteComment({
  viewer,
  comments,
  moderation,
}: {
  readonly viewer: ResolveViewer;
  readonly comments: Pick<CommentRepository, 'locate'>;
  readonly moderation: Pick<ModerationRepository, 'remove'>;
}): Router {
  return async (request) => {
    await requireAdmin(viewer, request.authorization, request.lang);
    const target = await findComment(comments, request);
    if ((await moderation.remove(target)) === 'conflict') {
      throw new AppError('duplicate', translate(request.lang, 'statusChanged', { id: target.id }));
    }
    return envelope('');
  };
}
