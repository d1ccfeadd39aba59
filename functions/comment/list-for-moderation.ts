import { type ResolveViewer, requireAdmin } from '../shared/auth/viewer.js';
import type { CommentStatus, ListedComment } from '../shared/domain/comment.js';
import { createAnswerBudget } from '../shared/domain/answer-budget.js';
import { fitTexts } from '../shared/domain/bounded-comments.js';
import { limits } from '../shared/domain/limits.js';
import { type Presentation, presentComment } from '../shared/domain/present-comment.js';
import { coercedInt } from '../shared/domain/coerced-int.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { ModerationRepository } from '../shared/storage/moderation-repository.js';
import { presentForAdmin } from './present-for-admin.js';

const moderationListQuerySchema = z.object({
  page: coercedInt({ min: 1, max: 100_000, default: 1 }),
  pageSize: coercedInt({ min: 1, max: limits.pageSizeMax, default: 10 }),
  status: z.optional(z.enum(['approved', 'waiting', 'spam'])),
  keyword: z.optional(z.string().check(z.maxLength(200))),
  owner: z.optional(z.enum(['mine', 'all'])),
});

/**
 * `GET /api/comment?type=list` for administrators, as Waline answers it: the site's comments of a
 * status (all statuses when none is given), newest first, filtered by `keyword` (in the text, the
 * nick or the mail) and `owner=mine`, with `waitingCount` and `spamCount`, from the recent index's
 * status partitions.
 */
export function createListForModeration({
  viewer: resolveViewer,
  moderation,
  presentation,
}: {
  readonly viewer: ResolveViewer;
  readonly moderation: Pick<ModerationRepository, 'listByStatus' | 'queueSizes'>;
  readonly presentation: Presentation;
}): Router {
  return async (request) => {
    const viewer = await requireAdmin(resolveViewer, request.authorization, request.lang);
    const query = parseInput(
      moderationListQuerySchema,
      {
        page: request.query('page') || undefined,
        pageSize: request.query('pageSize') || undefined,
        status: request.query('status') || undefined,
        keyword: request.query('keyword') || undefined,
        owner: request.query('owner') || undefined,
      },
      request.lang,
    );
    const statuses: CommentStatus[] = query.status ? [query.status] : ['approved', 'waiting', 'spam'];
    // A search reads the whole queue; a plain page reads only as far as it shows, and its page
    // count comes from the site counters.
    const searching = Boolean(query.keyword) || query.owner === 'mine';
    const [lists, sizes] = await Promise.all([
      Promise.all(
        statuses.map((status) =>
          moderation.listByStatus(status, searching ? undefined : query.page * query.pageSize),
        ),
      ),
      moderation.queueSizes(),
    ]);
    const keyword = query.keyword?.toLowerCase();
    const matches = (comment: ListedComment) =>
      (!keyword ||
        [comment.orig, comment.nick, comment.mail].some((text) => text.toLowerCase().includes(keyword))) &&
      (query.owner !== 'mine' || comment.mail.toLowerCase() === viewer.email.toLowerCase());
    const all = lists
      .flat()
      .filter(matches)
      .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const total = searching ? all.length : statuses.map((status) => sizes[status]).reduce((a, b) => a + b, 0);
    const first = (query.page - 1) * query.pageSize;
    const options = { ...presentation, legacy: request.legacy };
    return envelope({
      page: query.page,
      totalPages: Math.ceil(total / query.pageSize),
      pageSize: query.pageSize,
      spamCount: sizes.spam,
      waitingCount: sizes.waiting,
      // Bounded like every list: each comment of the page, whole while the answer's budget allows.
      data: fitTexts(
        all
          .slice(first, first + query.pageSize)
          .map((comment) => presentForAdmin(presentComment(comment, options, { withUrl: true }), comment)),
        request.lang,
        createAnswerBudget(),
      ),
    });
  };
}
