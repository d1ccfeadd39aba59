import { ownCommentRefused, requireCommenter } from './edit-own-comment.js';
import { findComment } from './find-comment.js';
import type { ResolveCaller } from '../shared/auth/viewer.js';
import type { CommentRepository } from '../shared/table/comment-repository.js';
import type { ModerationRepository } from '../shared/table/moderation-repository.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';

/**
 * `DELETE /api/comment/{id}` from a signed-in account. An administrator's goes to delete-comment.ts, as before
 * (the comment and the replies that answer it). An author's deletes their own comment (its `userId` is theirs):
 * removed when nobody answered it, else left as the deleted placeholder that keeps the replies
 * (ModerationRepository.removeOwn), the counters moved in the same transaction. Anonymous: 401. Not the author,
 * or an anonymous comment: 403. No time limit: a delete takes nothing back from anyone but the author.
 */
export function createDeleteOwnComment({
  caller,
  comments,
  moderation,
  adminDelete,
}: {
  readonly caller: ResolveCaller;
  readonly comments: Pick<CommentRepository, 'locate'>;
  readonly moderation: Pick<ModerationRepository, 'removeOwn'>;
  /** An administrator's delete (delete-comment.ts). */
  readonly adminDelete: Router;
}): Router {
  return async (request) => {
    const viewer = requireCommenter(await caller(request.authorization), request.lang, 'deleteNeedsSignIn');
    if (viewer.type === 'administrator') return adminDelete(request);
    const target = await findComment(comments, request);
    const result = await moderation.removeOwn(target, viewer.id);
    switch (result.outcome) {
      case 'deleted':
      case 'placeholder':
        return envelope('');
      case 'missing':
        throw new AppError('not_found', translate(request.lang, 'commentNotFound', { id: target.id }));
      case 'refused':
        throw ownCommentRefused(request.lang, target.id, result.refusal);
      case 'conflict':
        throw new AppError('duplicate', translate(request.lang, 'statusChanged', { id: target.id }));
      default:
        throw new Error(`unhandled outcome: ${result satisfies never}`);
    }
  };
}
