import { z } from 'zod';
import { commentIdSchema, likeBodySchema } from '../shared/domain/comment-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { translate } from '../shared/domain/messages.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { Services } from '../shared/services.js';

const idParamsSchema = z.object({ id: commentIdSchema });

/** How long to wait for the id index to catch up before a comment counts as missing. */
const indexLagMs = 250;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `PUT /api/comment/{id}` with exactly `{"like": true|false}`: no sign-in needed, counted once per
 * voter (a salted hash of the client IP). Two round trips (three when the id is brand new): find the comment's url, then one
 * transaction that writes the voter mark and moves the count. Any other body is an edit, which
 * needs a signed-in author or administrator.
 */
export function createLikeComment({ comments, config }: Services): Router {
  return async (request) => {
    const { id } = parseInput(idParamsSchema, { id: request.id }, request.lang);
    const vote = likeBodySchema.safeParse(request.jsonBody());
    if (!vote.success) throw new AppError('unauthorized', translate(request.lang, 'signInRequired'));

    // The id index is eventually consistent: a comment posted a moment ago may not be in it yet.
    const location = (await comments.locate(id)) ?? (await pause(indexLagMs).then(() => comments.locate(id)));
    if (!location) throw new AppError('not_found', translate(request.lang, 'commentNotFound', { id }));
    const like = vote.data.like;
    const outcome = await comments.vote(
      { id, url: location.url },
      hashIp(config.IP_HASH_SALT, request.sourceIp),
      like,
    );
    if (outcome === 'missing')
      throw new AppError('not_found', translate(request.lang, 'commentNotFound', { id }));

    const delta = outcome === 'changed' ? (like ? 1 : -1) : 0;
    // The index copy of `like` may lag a concurrent vote by a moment; the stored count is exact.
    return envelope({ objectId: id, url: location.url, like: Math.max(0, location.like + delta) });
  };
}
