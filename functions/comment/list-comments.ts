import { isAdministrator, type ResolveViewer } from '../shared/auth/viewer.js';
import { createAnswerBudget } from '../shared/domain/answer-budget.js';
import { fitTexts } from '../shared/domain/bounded-comments.js';
import { listQuerySchema } from '../shared/domain/comment-schemas.js';
import {
  type Presentation,
  type PublicComment,
  presentComment,
  presentReplyUser,
} from '../shared/domain/present-comment.js';
import { pairReplies } from '../shared/domain/thread.js';
import { bare, envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput, singleQuery } from '../shared/http/request.js';
import type { ListPage } from '../shared/table/list-page.js';

/**
 * `GET /api/comment?path&page&pageSize&sortBy`: one page of an article's threads. It reads the page
 * counters and the keys of the roots up to the page's end, then the page's threads: nothing of the
 * article beyond what the page shows but the keys of the roots before it.
 *
 * The answer stays within `answerBudgetBytes`: every root of the page is in it (paging never skips
 * one), with its text while the budget allows (else `textOmitted: true`); then the replies, thread by
 * thread, while it allows. A thread with replies left out carries `moreReplies: true`.
 */
export function createListComments({
  viewer,
  comments,
  presentation,
}: {
  readonly viewer: ResolveViewer;
  readonly comments: { readonly listPage: ListPage };
  readonly presentation: Presentation;
}): Router {
  return async (request) => {
    // Each is given once: which of two paths (or orders) the caller meant cannot be guessed.
    const query = parseInput(
      listQuerySchema,
      {
        path: singleQuery(request, 'path'),
        page: singleQuery(request, 'page') || undefined,
        pageSize: singleQuery(request, 'pageSize') || undefined,
        sortBy: singleQuery(request, 'sortBy') || undefined,
      },
      request.lang,
    );
    // Administrators see waiting and spam comments too, to moderate them in place (as on Waline).
    const admin = isAdministrator(await viewer(request.authorization));
    const { path: url, ...paging } = query;
    const stored = await comments.listPage({ url, ...paging, withHeld: admin });
    const options = { ...presentation, legacy: request.legacy };
    const threads = stored.threads.map(pairReplies);

    const budget = createAnswerBudget();
    const roots = fitTexts(
      threads.map(({ root }) => presentComment(root, options)),
      request.lang,
      budget,
    );
    let full = false;
    const data = threads.map(({ children, moreReplies }, index) => {
      const replies: PublicComment[] = [];
      for (const { reply, parent } of children) {
        const item = {
          ...presentComment(reply, options),
          ...(parent ? { reply_user: presentReplyUser(parent, options) } : {}),
        };
        // Once one reply does not fit, no later one is tried: replies stay in order, with no holes.
        if (full || !budget.take(item)) {
          full = true;
          break;
        }
        replies.push(item);
      }
      const left = moreReplies || replies.length < children.length;
      return {
        ...(roots[index] as PublicComment),
        children: replies,
        ...(left ? { moreReplies: true as const } : {}),
      };
    });
    const page = {
      page: query.page,
      totalPages: Math.ceil(stored.roots / query.pageSize),
      pageSize: query.pageSize,
      count: stored.comments,
      data,
    };
    return request.legacy ? bare(page) : envelope(page);
  };
}
