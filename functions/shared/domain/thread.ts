import { isRoot, type ListedComment } from './comment.js';
import type { SortOrder } from './comment-schemas.js';

/** One root of a page with every visible reply of its thread, oldest first. */
export interface Thread {
  readonly root: ListedComment;
  /** Replies, flat, oldest first; each with the comment it answers when that is in the thread. */
  readonly children: ReadonlyArray<{ readonly reply: ListedComment; readonly parent?: ListedComment }>;
}

/** A page of the list as the widget reads it. */
export interface ThreadPage {
  readonly page: number;
  readonly pageSize: number;
  /** Pages of roots. */
  readonly totalPages: number;
  /** All visible comments of the article, replies included. */
  readonly count: number;
  readonly threads: readonly Thread[];
}

const byId = (a: ListedComment, b: ListedComment) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const rootOrders: Record<SortOrder, (a: ListedComment, b: ListedComment) => number> = {
  // ULIDs sort by insertion time; comparing ids also breaks ties in the same direction.
  insertedAt_desc: (a, b) => byId(b, a),
  insertedAt_asc: byId,
  like_desc: (a, b) => b.like - a.like || byId(b, a),
};

/**
 * Threads, sorts and pages an article's comments: sticky roots first, then `sortBy`; pages count
 * roots; every visible reply sits flat under its root, always oldest first.
 */
export function buildThreadPage(
  comments: readonly ListedComment[],
  query: { page: number; pageSize: number; sortBy: SortOrder },
  isVisible: (comment: ListedComment) => boolean,
): ThreadPage {
  const visible = comments.filter(isVisible);
  const roots = visible.filter(isRoot);
  const order = rootOrders[query.sortBy];
  roots.sort((a, b) => Number(b.sticky) - Number(a.sticky) || order(a, b));

  const first = (query.page - 1) * query.pageSize;
  const pageRoots = roots.slice(first, first + query.pageSize);
  const repliesByRoot = new Map<string, ListedComment[]>(pageRoots.map((root) => [root.id, []]));
  for (const comment of visible) {
    if (comment.rid !== undefined) repliesByRoot.get(comment.rid)?.push(comment);
  }

  const threads = pageRoots.map((root) => {
    const replies = (repliesByRoot.get(root.id) ?? []).sort(byId);
    const inThread = new Map([root, ...replies].map((comment) => [comment.id, comment]));
    return {
      root,
      children: replies.map((reply) => {
        const parent = reply.pid === undefined ? undefined : inThread.get(reply.pid);
        return parent ? { reply, parent } : { reply };
      }),
    };
  });

  return {
    page: query.page,
    pageSize: query.pageSize,
    totalPages: Math.ceil(roots.length / query.pageSize),
    count: visible.length,
    threads,
  };
}
