import { commentIdSchema } from '../shared/domain/comment-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import * as z from '../shared/domain/zod.js';
import { type ApiRequest, parseInput } from '../shared/http/request.js';
import type { CommentLocation, CommentRepository } from '../shared/storage/comment-repository.js';

const idParamsSchema = z.object({ id: commentIdSchema });

/** How long to wait for the id index to catch up before a comment counts as missing. */
const indexLagMs = 250;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The comment named by the `{id}` of the path, found through the id index: 400 for an id that
 * cannot be one, 404 for one that does not exist. The index is eventually consistent, so a
 * comment posted a moment ago is looked for once more before it counts as missing.
 */
export async function findComment(
  comments: CommentRepository,
  request: ApiRequest,
): Promise<CommentLocation & { id: string }> {
  const { id } = parseInput(idParamsSchema, { id: request.id }, request.lang);
  const location = (await comments.locate(id)) ?? (await pause(indexLagMs).then(() => comments.locate(id)));
  if (!location) throw new AppError('not_found', translate(request.lang, 'commentNotFound', { id }));
  return { ...location, id };
}
