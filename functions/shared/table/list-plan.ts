/**
 * The plan of a list page's reads, pure: which ranges a page reads, in which round trips, and when without
 * texts. [list-page.ts](./list-page.ts) runs it: it reads what {@link planRootKeys} says, builds the page's
 * plan ({@link planPage}), then sends each round's reads ({@link nextReads}) side by side, records what they
 * brought ({@link recordReads}), and asks again until the plan has nothing left to read. A page reads:
 *
 * 1. its counters and the keys of the roots up to its end (the roots index, keys only), in parallel; a deep
 *    page its counters first, and nothing more when it is past the end;
 * 2. its threads, first round: newest or oldest first, ONE range Query per part of the threads of its
 *    unpinned roots (neighbours in the table: ids are ULIDs), stopped at its roots and 100 replies; beside
 *    it, each by its own Query, the pinned roots outside that range, or by likes (roots scattered over the
 *    article) every root: a first wave of 10, nothing being read yet to judge the size of a comment by;
 * 3. the threads not read yet, each by its own Query, in page order, in waves as large as what is left of
 *    the read budget holds; once it is spent, all the rest at once, without their texts;
 * 4. one thread after another, in page order, those that have more, while the budget lasts. */
import type { CommentStatus } from '../domain/comment.js';
import type { SortOrder } from '../domain/comment-schemas.js';
import { limits } from '../domain/limits.js';
import { pageOfRoots, type RootKey } from '../domain/thread.js';
import type { RangeRead } from './article-comments.js';
import { rootsPartition, threadRange } from './keys.js';
import { budgetLeft, type ReadBudget, readsLeft, spend, unspentBudget } from './read-budget.js';
import { spanRange, splitSpanRead, type ThreadPart, threadSpan } from './thread-span.js';

/** What of a page's query its plan depends on. */
export interface PageShape {
  readonly url: string;
  readonly page: number;
  readonly pageSize: number;
  readonly sortBy: SortOrder;
  /** Administrators see waiting and spam comments too, in place. */
  readonly withHeld: boolean;
}

/** Step 1: the roots-index partitions a page reads, one Query each, all in parallel. */
export interface RootKeysPlan {
  /** The partitions of pinned roots, then of the others: one per status the viewer may see. */
  readonly pinned: readonly string[];
  readonly flow: readonly string[];
  /** The keys read of each: no further than the page (the roots before it, and its own). */
  readonly limit: number;
  /** The roots before the page: past the roots the counters count, the page is past the end. */
  readonly before: number;
  /** A deep page reads its counters first, so that a page past the end reads no keys at all. */
  readonly countersFirst: boolean;
}

/** The roots of an article in page order: pinned ones, then the rest (each in the sort's order). */
export interface RootKeys {
  readonly pinned: readonly RootKey[];
  readonly flow: readonly RootKey[];
}

/** Step 1 of page `shape`: its root keys, beside its counters or after them. */
export function planRootKeys(shape: PageShape): RootKeysPlan {
  const statuses: CommentStatus[] = shape.withHeld ? ['approved', 'waiting', 'spam'] : ['approved'];
  const partitions = (pinned: boolean) => statuses.map((status) => rootsPartition(shape.url, status, pinned));
  const before = (shape.page - 1) * shape.pageSize;
  return {
    pinned: partitions(true),
    flow: partitions(false),
    limit: shape.page * shape.pageSize,
    before,
    countersFirst: before >= limits.listDeepPageKeys,
  };
}

/** The reads of a page's threads, as its root keys decide them. */
export interface PagePlan {
  /** The page's roots, in page order. */
  readonly rootIds: readonly string[];
  /** The parts of each thread read: its visible part, and for an administrator its held replies. */
  readonly parts: readonly ThreadPart[];
  /** The roots whose threads the first round reads by one range Query per part (a time sort's page). */
  readonly spanned: readonly string[];
  /** The replies a thread read on its own gets in its first read: its share of the page's. */
  readonly replies: number;
}

/** The plan of the threads of page `shape`, whose roots up to its end are `roots`. */
export function planPage(shape: PageShape, roots: RootKeys): PagePlan {
  const pageRoots = pageOfRoots(roots.pinned, roots.flow, shape);
  return {
    rootIds: pageRoots.map((root) => root.id),
    parts: shape.withHeld ? ['visible', 'held'] : ['visible'],
    // A time sort's page is a span of neighbouring threads, read by one Query; the most liked roots are
    // scattered over the article, each thread is read on its own.
    spanned:
      shape.sortBy === 'like_desc' ? [] : threadSpan(pageRoots, new Set(roots.pinned.map((root) => root.id))),
    // What a page reads at once is bounded (limits.listFirstReadReplies replies), whatever its threads hold:
    // a thread read on its own gets its share (a span gets them all, to share as they come).
    replies: Math.min(
      limits.repliesPerThread,
      Math.max(1, Math.floor(limits.listFirstReadReplies / shape.pageSize)),
    ),
  };
}

/** One Query of a page's threads: of `range` (sort keys, both ends included), at most `limit` items. */
interface RangeQuery {
  readonly part: ThreadPart;
  readonly range: { readonly from: string; readonly to: string };
  readonly limit: number;
}

/** The first read of neighbouring threads: one Query, split by root once read ({@link splitSpanRead}). */
export interface SpanRead extends RangeQuery {
  readonly kind: 'span';
  readonly rootIds: readonly string[];
}

/**
 * A read of one part of one thread: its first read (`thread`, one Query); its first read once the budget
 * is spent (`shell`, one Query without the texts: the root, and whether a reply follows); or a read on
 * from where its first read stopped (`further`, after `after`, page after page while the budget lasts).
 */
export interface ThreadRead extends RangeQuery {
  readonly kind: 'thread' | 'shell' | 'further';
  readonly rootId: string;
  readonly after?: Record<string, unknown>;
}

/** One read a page's plan asks for. */
export type PlannedRead = SpanRead | ThreadRead;

/** What one part of a thread read: `withoutText` when only its shells, `readOn` once read further. */
export type PartRead = RangeRead & { readonly withoutText?: true; readonly readOn?: true };

/** What a page's reads have brought so far. */
export interface Progress {
  /** The rounds of reads sent so far. */
  readonly rounds: number;
  /** What each part of the page's threads read, by {@link partKey}; absent before its first read. */
  readonly parts: ReadonlyMap<string, PartRead>;
  readonly budget: ReadBudget;
}

/** A page before any read of its threads. */
export const startProgress: Progress = { rounds: 0, parts: new Map(), budget: unspentBudget };

/** The key of one part of a thread among a page's reads. */
export const partKey = (rootId: string, part: ThreadPart): string => `${part}:${rootId}`;

/** A root of the page and the parts of its thread still to read. */
interface RootToRead {
  readonly rootId: string;
  readonly parts: readonly ThreadPart[];
}

/** The next round of a page's reads (all of them side by side), or none when the page is read. */
export function nextReads(plan: PagePlan, progress: Progress): PlannedRead[] {
  if (progress.rounds === 0) {
    // The first wave of the threads read on their own, and beside it the span's Query per part.
    const alone = plan.rootIds
      .filter((rootId) => !plan.spanned.includes(rootId))
      .map((rootId) => ({ rootId, parts: plan.parts }));
    const spans = plan.spanned.length > 0 ? plan.parts.map((part) => spanRead(plan.spanned, part)) : [];
    return [...wave(plan, progress.budget, alone), ...spans];
  }
  // The threads not read yet (the span stopped before them, or the first wave had no room for them).
  const unread = plan.rootIds
    .map((rootId) => ({
      rootId,
      parts: plan.parts.filter((part) => !progress.parts.has(partKey(rootId, part))),
    }))
    .filter((root) => root.parts.length > 0);
  if (unread.length > 0) return wave(plan, progress.budget, unread);
  const further = nextFurther(plan, progress);
  return further ? [further] : [];
}

/** The first read of the threads of `rootIds`, one part: the page's roots and the first read's replies. */
function spanRead(rootIds: readonly string[], part: ThreadPart): SpanRead {
  return {
    kind: 'span',
    part,
    rootIds,
    range: spanRange(rootIds, part),
    // Bounded by the page, whatever the span holds: its roots and the first read's replies (at most 200
    // items, and at most 1 MB as every Query), as the threads' own first reads would bring together. The
    // held part holds no root.
    limit: (part === 'visible' ? rootIds.length : 0) + limits.listFirstReadReplies,
  };
}

/**
 * The first reads of `roots` (in page order) that the budget holds now, judging each comment by the largest
 * read so far (a thread read brings its root and its share of replies per part); at least one, so that a
 * page of the largest comments reads the texts one answer can carry, a thread at a time. Once the budget
 * is spent, all of them at once without their texts.
 */
function wave(plan: PagePlan, budget: ReadBudget, roots: readonly RootToRead[]): ThreadRead[] {
  const reads = (kind: 'thread' | 'shell') => (root: RootToRead) =>
    root.parts.map((part) => threadRead(kind, root.rootId, part, plan.replies));
  if (!budgetLeft(budget)) return roots.flatMap(reads('shell'));
  const room = Math.max(1, readsLeft(budget, 1 + plan.replies * plan.parts.length));
  return roots.slice(0, room).flatMap(reads('thread'));
}

/** The first read of one part of a thread, with its texts or (`shell`) without. */
function threadRead(kind: 'thread' | 'shell', rootId: string, part: ThreadPart, replies: number): ThreadRead {
  const root = part === 'visible' ? 1 : 0;
  // Without texts, a reply tells that the part holds some, which the answer then says it left out.
  const limit = kind === 'shell' ? root + 1 : root + replies;
  return { kind, part, rootId, range: threadRange(rootId, part), limit };
}

/**
 * The first part, in page order (a thread's visible part before its held one), whose first read stopped
 * before its end and before `limits.repliesPerThread` replies: read on from there, once, while the budget
 * lasts. Undefined once the budget is spent, or when no part has more.
 */
function nextFurther(plan: PagePlan, progress: Progress): ThreadRead | undefined {
  if (!budgetLeft(progress.budget)) return undefined;
  for (const rootId of plan.rootIds) {
    for (const part of plan.parts) {
      const read = progress.parts.get(partKey(rootId, part));
      if (!read?.more || !read.next || read.readOn) continue;
      const limit = limits.repliesPerThread + (part === 'visible' ? 1 : 0) - read.items.length;
      if (limit > 0) {
        return { kind: 'further', part, rootId, range: threadRange(rootId, part), limit, after: read.next };
      }
    }
  }
  return undefined;
}

/** One read of a round, and what it brought. */
export interface ReadDone {
  readonly read: PlannedRead;
  readonly result: RangeRead;
}

/** The progress of a page once a round of reads came back. */
export function recordReads(progress: Progress, round: readonly ReadDone[]): Progress {
  const parts = new Map(progress.parts);
  let budget = progress.budget;
  for (const { read, result } of round) {
    budget = spend(budget, result.items);
    if (read.kind === 'span') {
      for (const [rootId, range] of splitSpanRead(read.rootIds, read.part, result)) {
        parts.set(partKey(rootId, read.part), range);
      }
    } else {
      const key = partKey(read.rootId, read.part);
      parts.set(key, read.kind === 'further' ? readOn(parts.get(key), result) : firstRead(read, result));
    }
  }
  return { rounds: progress.rounds + 1, parts, budget };
}

/** What a thread's own first read brought; of a shell read, the root alone, `more` when a reply followed. */
function firstRead(read: ThreadRead, result: RangeRead): PartRead {
  if (read.kind !== 'shell') return result;
  const shown = read.part === 'visible' ? result.items.slice(0, 1) : [];
  return { items: shown, more: result.more || result.items.length > shown.length, withoutText: true };
}

/** A part's first read followed by what reading on brought. */
function readOn(first: PartRead | undefined, further: RangeRead): PartRead {
  return {
    items: [...(first?.items ?? []), ...further.items],
    more: further.more,
    ...(further.next ? { next: further.next } : {}),
    readOn: true,
  };
}
