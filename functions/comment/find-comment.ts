import { commentIdSchema } from '../shared/domain/comment-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import * as z from '../shared/domain/zod.js';
import { type ApiRequest, parseInput } from '../shared/http/request.js';
import { retry } from '../shared/retry.js';
import type { CommentLocation, CommentRepository } from '../shared/table/comment-repository.js';

/** What finding a comment from its id takes: the id index. */
export type CommentLocator = Pick<CommentRepository, 'locate'>;

const idParamsSchema = z.object({ id: commentIdSchema });

/**
 * Two looks, 250 ms apart, before a comment counts as missing: the time the id index takes to catch up.
 * The whole wait, no jitter: it waits for the index, not for other clients to go away.
 */
const indexLagPolicy = { attempts: 2, firstDelayMs: 250, jitter: false } as const;

/**
 * The comment named by the `{id}` of the path, found through the id index: 400 for an id that
 * cannot be one, 404 for one that does not exist. The index is eventually consistent, so a
 * comment posted a moment ago is looked for once more before it counts as missing.
 */
export async function findComment(
  comments: CommentLocator,
  request: ApiRequest,
): Promise<CommentLocation & { id: string }> {
  const { id } = parseInput(idParamsSchema, { id: request.id }, request.lang);
  const location = await retry(() => comments.locate(id), {
    ...indexLagPolicy,
    retryResult: (found) => found === undefined,
  });
  if (!location) throw new AppError('not_found', translate(request.lang, 'commentNotFound', { id }));
  return { ...location, id };
}
