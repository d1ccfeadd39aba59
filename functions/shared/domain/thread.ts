import type { ListedComment } from './comment.js';
import type { SortOrder } from './comment-schemas.js';

/** A thread as storage reads it: its root, the replies read (in key order), and whether more were left. */
export interface StoredThread {
  readonly root: ListedComment;
  readonly replies: readonly ListedComment[];
  /** True when the thread has replies beyond those read (the per-thread cap, or the read budget). */
  readonly moreReplies: boolean;
}

/** One root of a page with the replies of its thread that were read, oldest first. */
export interface Thread {
  readonly root: ListedComment;
  /** Replies, flat, oldest first; each with the comment it answers when that is in the thread. */
  readonly children: ReadonlyArray<{ readonly reply: ListedComment; readonly parent?: ListedComment }>;
  readonly moreReplies: boolean;
}

/** A page of the list as the widget reads it. */
export interface ThreadPage {
  readonly page: number;
  readonly pageSize: number;
  /** Pages of roots. */
  readonly totalPages: number;
  /** All comments of the article the viewer may see, replies included. */
  readonly count: number;
  readonly threads: readonly Thread[];
}

/** A root as the roots indexes list it: enough to order it. */
export interface RootKey {
  readonly id: string;
  readonly like: number;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The order of roots in each sort, as the roots indexes hold it: ULIDs sort by insertion time, so the
 * time sorts compare ids; the like sort compares like counts, then ids (its index key is the count times
 * 2^96 plus the id's top bits, read backwards).
 */
export const rootOrders: Record<SortOrder, (a: RootKey, b: RootKey) => number> = {
  insertedAt_desc: (a, b) => byId(b, a),
  insertedAt_asc: byId,
  like_desc: (a, b) => b.like - a.like || byId(b, a),
};

/** Merges lists that are each in `sortBy` order into one list in that order. */
export function mergeRootKeys(lists: readonly (readonly RootKey[])[], sortBy: SortOrder): RootKey[] {
  return lists.flat().sort(rootOrders[sortBy]);
}

/** The roots of page `page`: pinned ones first, then the rest, each group in `sortBy` order. */
export function pageOfRoots(
  pinned: readonly RootKey[],
  flow: readonly RootKey[],
  query: { page: number; pageSize: number },
): RootKey[] {
  const first = (query.page - 1) * query.pageSize;
  return [...pinned, ...flow].slice(first, first + query.pageSize);
}

/** Pairs each reply of a thread with the comment it answers, replies oldest first. */
export function pairReplies(thread: StoredThread): Thread {
  const replies = [...thread.replies].sort(byId);
  const inThread = new Map([thread.root, ...replies].map((comment) => [comment.id, comment]));
  return {
    root: thread.root,
    moreReplies: thread.moreReplies,
    children: replies.map((reply) => {
      const parent = reply.pid === undefined ? undefined : inThread.get(reply.pid);
      return parent ? { reply, parent } : { reply };
    }),
  };
}
