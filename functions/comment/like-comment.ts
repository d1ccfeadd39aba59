import { likeBodySchema } from '../shared/domain/comment-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { translate } from '../shared/domain/messages.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { CommentRepository } from '../shared/table/comment-repository.js';
import { findComment } from './find-comment.js';

/**
 * `PUT /api/comment/{id}` with exactly `{"like": true|false}`: no sign-in needed, counted once per
 * voter (a salted hash of the client IP). Two round trips (three when the id is brand new): find
 * the comment's url, then one transaction that writes the voter mark and moves the count.
 */
export function createLikeComment({
  comments,
  ipHashSalt,
}: {
  readonly comments: Pick<CommentRepository, 'locate' | 'vote'>;
  /** The salt of the voter's IP hash. */
  readonly ipHashSalt: string;
}): Router {
  return async (request) => {
    const { like } = parseInput(likeBodySchema, request.jsonBody(), request.lang);
    const target = await findComment(comments, request);
    const result = await comments.vote(target, hashIp(ipHashSalt, request.sourceIp), like);
    if (result.outcome === 'missing') {
      throw new AppError('not_found', translate(request.lang, 'commentNotFound', { id: target.id }));
    }
    return envelope({ objectId: target.id, url: target.url, like: result.like });
  };
}
