import { createAnswerBudget } from '../shared/domain/answer-budget.js';
import { authorsOf, type ReadAuthorProfiles } from '../shared/domain/profile-overlay.js';
import { fitTexts } from '../shared/domain/bounded-comments.js';
import { recentQuerySchema } from '../shared/domain/comment-schemas.js';
import { type Presentation, presentComment } from '../shared/domain/present-comment.js';
import { bare, envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { CommentRepository } from '../shared/table/comment-repository.js';
import type { LevelsOf } from '../shared/domain/comment-levels.js';
import { levelsByComment, withLevel } from './comment-level.js';

/**
 * `GET /api/comment?type=recent&count=N`: the site's `count` newest approved comments (one Query per MB
 * of them), each whole while the answer's budget allows and with `textOmitted: true` past it; with LEVELS set,
 * each with its author's `level` (one batched read of their counters).
 */
export function createRecentComments({
  comments,
  authors,
  presentation,
  levelsOf,
}: {
  readonly comments: Pick<CommentRepository, 'recent'>;
  /** The account authors' current profiles (one batched read, cached), overlaid on their comments. */
  readonly authors: ReadAuthorProfiles;
  readonly presentation: Presentation;
  readonly levelsOf?: LevelsOf;
}): Router {
  return async (request) => {
    const { count } = parseInput(
      recentQuerySchema,
      { count: request.query('count') || undefined },
      request.lang,
    );
    const recent = await comments.recent(count);
    const options = { ...presentation, legacy: request.legacy, authors: await authorsOf(authors, recent) };
    const levels = await levelsByComment(levelsOf, recent);
    const data = fitTexts(
      recent.map((comment) =>
        withLevel(presentComment(comment, options, { withUrl: true }), levels.get(comment.id)),
      ),
      request.lang,
      createAnswerBudget(),
    );
    return request.legacy ? bare(data) : envelope(data);
  };
}
