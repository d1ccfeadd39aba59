import { type ResolveViewer, requireAdmin } from '../shared/auth/viewer.js';
import { type CommentStatus, type ListedComment, newestFirstById } from '../shared/domain/comment.js';
import { createAnswerBudget } from '../shared/domain/answer-budget.js';
import { authorsOf, type ReadAuthorProfiles } from '../shared/domain/profile-overlay.js';
import { fitTexts } from '../shared/domain/bounded-comments.js';
import { limits } from '../shared/domain/limits.js';
import { type Presentation, presentComment } from '../shared/domain/present-comment.js';
import { coercedInt } from '../shared/domain/coerced-int.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { ModerationRepository } from '../shared/table/moderation-repository.js';
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
  authors,
  presentation,
}: {
  readonly viewer: ResolveViewer;
  readonly moderation: Queues;
  /** The account authors' current profiles (one batched read, cached), overlaid on their comments. */
  readonly authors: ReadAuthorProfiles;
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
    const first = (query.page - 1) * query.pageSize;
    // A search reads the whole queues and counts what matches; a plain page reads the keys up to its end
    // and its own comments alone, and its page count comes from the site counters.
    const searching = Boolean(query.keyword) || query.owner === 'mine';
    const { sizes, total, comments } = searching
      ? await searchQueues(moderation, statuses, first, query.pageSize, {
          keyword: query.keyword?.toLowerCase(),
          mail: query.owner === 'mine' ? viewer.email.toLowerCase() : undefined,
        })
      : await readPage(moderation, statuses, first, query.pageSize);
    const options = { ...presentation, legacy: request.legacy, authors: await authorsOf(authors, comments) };
    return envelope({
      page: query.page,
      totalPages: Math.ceil(total / query.pageSize),
      pageSize: query.pageSize,
      spamCount: sizes.spam,
      waitingCount: sizes.waiting,
      // Bounded like every list: each comment of the page, whole while the answer's budget allows.
      data: fitTexts(
        comments.map((comment) =>
          presentForAdmin(presentComment(comment, options, { withUrl: true }), comment, request.lang),
        ),
        request.lang,
        createAnswerBudget(),
      ),
    });
  };
}

type Queues = Pick<ModerationRepository, 'listByStatus' | 'pageByStatus' | 'queueSizes'>;

/** One page of the moderation list, the queue sizes, and how many comments the list has in all. */
interface ModerationPage {
  readonly sizes: Record<CommentStatus, number>;
  readonly total: number;
  readonly comments: readonly ListedComment[];
}

/** The page `first`..`first + count` of the comments of `statuses` that match, newest first: reads whole queues. */
async function searchQueues(
  moderation: Queues,
  statuses: readonly CommentStatus[],
  first: number,
  count: number,
  wanted: { readonly keyword?: string; readonly mail?: string },
): Promise<ModerationPage> {
  const [lists, sizes] = await Promise.all([
    Promise.all(statuses.map((status) => moderation.listByStatus(status))),
    moderation.queueSizes(),
  ]);
  const { keyword, mail } = wanted;
  const matches = (comment: ListedComment) =>
    (!keyword ||
      [comment.orig, comment.nick, comment.mail].some((text) => text.toLowerCase().includes(keyword))) &&
    (mail === undefined || comment.mail.toLowerCase() === mail);
  const found = lists.flat().filter(matches).sort(newestFirstById);
  return { sizes, total: found.length, comments: found.slice(first, first + count) };
}

/**
 * The page `first`..`first + count` of the comments of `statuses`, newest first: the keys up to its end and
 * its own comments (ModerationRepository.pageByStatus); a page past the end of a deep list reads no keys.
 */
async function readPage(
  moderation: Queues,
  statuses: readonly CommentStatus[],
  first: number,
  count: number,
): Promise<ModerationPage> {
  const queued = (sizes: Record<CommentStatus, number>) =>
    statuses.map((status) => sizes[status]).reduce((a, b) => a + b, 0);
  if (first >= limits.listDeepPageKeys) {
    // A deep page: the counters first, as the article list does.
    const sizes = await moderation.queueSizes();
    const total = queued(sizes);
    const comments = first < total ? await moderation.pageByStatus(statuses, first, count) : [];
    return { sizes, total, comments };
  }
  const [comments, sizes] = await Promise.all([
    moderation.pageByStatus(statuses, first, count),
    moderation.queueSizes(),
  ]);
  return { sizes, total: queued(sizes), comments };
}
