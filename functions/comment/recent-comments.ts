import { recentQuerySchema } from '../shared/domain/comment-schemas.js';
import { presentComment } from '../shared/domain/present-comment.js';
import { bare, envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { Services } from '../shared/services.js';

/** `GET /api/comment?type=recent&count=N`: the site's newest approved comments, one Query. */
export function createRecentComments({ comments, presentation }: Services): Router {
  return async (request) => {
    const { count } = parseInput(
      recentQuerySchema,
      { count: request.query('count') || undefined },
      request.lang,
    );
    const options = { ...presentation, legacy: request.legacy };
    const data = (await comments.recent(count)).map((comment) =>
      presentComment(comment, options, { withUrl: true }),
    );
    return request.legacy ? bare(data) : envelope(data);
  };
}
