import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import type { CommentStatus } from '../domain/comment.js';
import type { SortOrder } from '../domain/comment-schemas.js';
import { limits } from '../domain/limits.js';
import { mergeRootKeys, pageOfRoots, type RootKey, type StoredThread } from '../domain/thread.js';
import { type RangeRead, readCommentRange } from './article-comments.js';
import { fromCommentItem, shellAttributes, threadAttributes } from './comment-item.js';
import {
  attributes,
  indexNames,
  keys,
  likesOfSortValue,
  parseCommentSk,
  rootsPartition,
  threadRange,
} from './keys.js';
import { projection } from './projection.js';
import { storedCount } from './stored-count.js';
import { readThreadSpan, type ThreadPart, threadSpan } from './thread-span.js';

/** What a page of the list asks for. */
export interface PageQuery {
  readonly url: string;
  readonly page: number;
  readonly pageSize: number;
  readonly sortBy: SortOrder;
  /** Administrators see waiting and spam comments too, in place. */
  readonly withHeld: boolean;
  /** Reads the counters and threads consistently (after a write of this instance). */
  readonly consistent?: boolean;
}

/** One page of an article's threads as stored, with the counts the page numbers come from. */
export interface StoredPage {
  /** The page's roots in order, each with the replies read. */
  readonly threads: readonly StoredThread[];
  /** Roots the viewer may see: the pages count these. */
  readonly roots: number;
  /** Comments the viewer may see, replies included. */
  readonly comments: number;
}

/**
 * Page `page` of the threads of `url`: the page counters and the keys of the roots up to the page's
 * end in parallel, then the page's threads (in a time sort, one range Query; by likes, one Query each, in
 * parallel, in waves the page's read budget holds, and without their texts once it is spent). Nothing of
 * the roots before the page but their keys is read, and nothing held from visitors unless `withHeld`.
 */
export type ListPage = (query: PageQuery) => Promise<StoredPage>;

/** The roots of an article in page order: pinned ones, then the rest (each in the sort's order). */
interface RootKeys {
  readonly pinned: RootKey[];
  readonly flow: RootKey[];
}

/** What a read of one part of a thread brought; `withoutText` when it read the comments' shells only. */
type PartRead = RangeRead & { readonly withoutText?: true };

/** A thread as first read: its ranges, each with what was read and where it stopped. */
interface ThreadRead {
  readonly rootId: string;
  readonly visible: PartRead;
  readonly held: PartRead;
}

/** The key of one part of a thread among a page's reads. */
const partKey = (rootId: string, part: ThreadPart) => `${part}:${rootId}`;

/** The parts of one page root that are still to be read. */
interface RootToRead {
  readonly rootId: string;
  readonly parts: readonly ThreadPart[];
}

/** Counts what a page's reads brought, and stops further reads once one answer could carry no more. */
function createReadBudget() {
  let chars = 0;
  let largest = 0;
  return {
    count: (items: readonly Record<string, unknown>[]) => {
      for (const item of items) {
        const size = String(item.orig ?? '').length + String(item.html ?? '').length;
        chars += size;
        largest = Math.max(largest, size);
      }
    },
    goOn: () => chars < limits.listReadChars,
    /**
     * How many reads of up to `items` comments each what is left of the budget holds, judging each comment
     * by the largest read so far; before any was read, a first wave of `limits.listFirstWaveReads`.
     */
    readsLeft: (items: number) =>
      largest === 0
        ? limits.listFirstWaveReads
        : Math.floor((limits.listReadChars - chars) / (items * largest)),
  };
}
type ReadBudget = ReturnType<typeof createReadBudget>;

/** How a page's threads are first read: with or without their held replies, consistently or not. */
interface StartOptions {
  readonly withHeld: boolean;
  readonly consistent: boolean;
  readonly budget: ReadBudget;
}

/** The read of a range nobody asked for (a visitor's held replies). */
const nothingRead: RangeRead = { items: [], more: false };

/** The thread a read brought, or undefined when its root is gone or (for a visitor) not approved. */
function toThread(read: ThreadRead, withHeld: boolean): StoredThread | undefined {
  const [rootItem, ...replyItems] = read.visible.items;
  if (!rootItem) return undefined;
  const root = {
    ...fromCommentItem(rootItem),
    ...(read.visible.withoutText ? { textLeftOut: true as const } : {}),
  };
  // The first key of the range is the root's own, unless the root was deleted meanwhile.
  if (root.id !== read.rootId || root.rid !== undefined) return undefined;
  // The index lags the table by a moment: a root moderated meanwhile is not shown to visitors.
  if (!withHeld && root.status !== 'approved') return undefined;
  // Each range gave its oldest replies: together, in id order, the first ones are the thread's oldest.
  const replies = [...replyItems, ...read.held.items]
    .map(fromCommentItem)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limits.repliesPerThread);
  return {
    root,
    replies,
    moreReplies:
      read.visible.more || read.held.more || replyItems.length + read.held.items.length > replies.length,
  };
}

/**
 * Builds the list's page read on `client` and `tableName`; `ensureLayout` (the roots index exists only
 * in this layout) runs beside the first reads.
 */
export function createListPage(
  client: DynamoDBDocumentClient,
  tableName: string,
  ensureLayout: () => Promise<void> = async () => undefined,
): ListPage {
  /** The page counters: what the viewer may see, held comments and roots included for an administrator. */
  const readPageCounts = async (url: string, withHeld: boolean, consistent: boolean) => {
    const output = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.pageCounters(url),
        ...(consistent ? { ConsistentRead: true } : {}),
        ...projection(['comments', 'roots', 'held', 'heldRoots']),
      }),
    );
    const count = (name: string) => storedCount(output.Item?.[name]);
    return withHeld
      ? { roots: count('roots') + count('heldRoots'), comments: count('comments') + count('held') }
      : { roots: count('roots'), comments: count('comments') };
  };

  /**
   * The first `limit` root keys of one roots-index partition in `sortBy` order: keys only, so a key
   * costs about a hundred bytes of read, whatever its comment holds.
   */
  const readRootPartition = async (partition: string, sortBy: SortOrder, limit: number) => {
    const roots: RootKey[] = [];
    let startKey: QueryCommandOutput['LastEvaluatedKey'];
    do {
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: sortBy === 'like_desc' ? indexNames.rootsByLike : indexNames.rootsByTime,
          KeyConditionExpression: '#roots = :partition',
          // Keys only: the time index holds no like sort value (its sort needs none).
          ...projection(sortBy === 'like_desc' ? [attributes.sk, attributes.likeSort] : [attributes.sk], {
            '#roots': attributes.rootsPk,
          }),
          ExpressionAttributeValues: { ':partition': partition },
          // Oldest first reads the index forwards; newest first and most liked read it backwards.
          ScanIndexForward: sortBy === 'insertedAt_asc',
          // No further than the page: the keys of the roots before it, and its own.
          Limit: limit - roots.length,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of output.Items ?? []) {
        const place = parseCommentSk(String(item.sk));
        if (place && place.replyId === undefined) {
          roots.push({ id: place.rootId, like: likesOfSortValue(item.likeSort) });
        }
      }
      startKey = output.LastEvaluatedKey;
    } while (startKey && roots.length < limit);
    return roots;
  };

  /**
   * The first `limit` roots of `url` among `statuses`, pinned and not, in `sortBy` order: one Query per
   * (status, pinned or not) partition, all in parallel.
   */
  const readRootKeys = async (
    url: string,
    statuses: readonly CommentStatus[],
    sortBy: SortOrder,
    limit: number,
  ): Promise<RootKeys> => {
    const read = (pinned: boolean) =>
      Promise.all(
        statuses.map((status) => readRootPartition(rootsPartition(url, status, pinned), sortBy, limit)),
      );
    const [pinned, flow] = await Promise.all([read(true), read(false)]);
    return { pinned: mergeRootKeys(pinned, sortBy), flow: mergeRootKeys(flow, sortBy) };
  };

  /** The first read of one part of a thread: one Query of its range, stopped at `limit` items. */
  const readPartStart = (
    url: string,
    rootId: string,
    part: ThreadPart,
    limit: number,
    options: { consistent: boolean; budget: ReadBudget },
  ) =>
    readCommentRange(client, tableName, url, threadRange(rootId, part), {
      names: threadAttributes,
      consistent: options.consistent,
      limit,
      onPage: options.budget.count,
      // One Query: the page's threads are read side by side, and only then, one by one, further.
      goOn: () => false,
    });

  /**
   * One part of a thread read without its texts, once the page's budget is spent: the root (of the visible
   * part), and whether the part holds a reply, which the answer then says it left out.
   */
  const readPartShell = async (
    url: string,
    rootId: string,
    part: ThreadPart,
    consistent: boolean,
  ): Promise<PartRead> => {
    const read = await readCommentRange(client, tableName, url, threadRange(rootId, part), {
      names: shellAttributes,
      consistent,
      // The root and one reply of the visible part, one reply of the held part: enough to tell whether
      // the thread has replies.
      limit: part === 'visible' ? 2 : 1,
      goOn: () => false,
    });
    const shown = part === 'visible' ? read.items.slice(0, 1) : [];
    return { items: shown, more: read.more || read.items.length > shown.length, withoutText: true };
  };

  /**
   * The first reads of the parts of `roots` (in page order) that nothing has read yet: in waves as large as
   * what is left of the page's budget holds (judging each comment by the largest read so far), and once it
   * is spent, the rest without their texts, all at once. A page of the largest comments thus reads the
   * texts one answer can carry rather than all of them, in a few more round trips; a page of common
   * comments is one wave.
   */
  const readRoots = async (
    url: string,
    roots: readonly RootToRead[],
    replies: number,
    options: StartOptions,
  ): Promise<Map<string, PartRead>> => {
    const reads = new Map<string, PartRead>();
    const itemsPerRoot = 1 + replies + (options.withHeld ? replies : 0);
    let next = 0;
    while (next < roots.length) {
      const room = options.budget.goOn() ? Math.max(1, options.budget.readsLeft(itemsPerRoot)) : 0;
      const wave = room === 0 ? roots.slice(next) : roots.slice(next, next + room);
      next += wave.length;
      await Promise.all(
        wave.flatMap(({ rootId, parts }) =>
          parts.map(async (part) => {
            const read =
              room === 0
                ? await readPartShell(url, rootId, part, options.consistent)
                : await readPartStart(url, rootId, part, part === 'visible' ? 1 + replies : replies, options);
            reads.set(partKey(rootId, part), read);
          }),
        ),
      );
    }
    return reads;
  };

  /**
   * The first read of a page's threads: for a time sort, the threads of its span ({@link threadSpan}) with
   * one Query per part (readThreadSpan), the pinned roots outside it on their own beside it; then each part
   * of a root that Query did not reach (it stops at its Limit or at 1 MB), by {@link readRoots}. The most
   * liked roots are scattered over the article: each thread is read on its own, by readRoots too.
   */
  const readPageStart = async (
    url: string,
    pageRoots: readonly RootKey[],
    spanned: readonly string[],
    replies: number,
    options: StartOptions,
  ): Promise<ThreadRead[]> => {
    const parts: ThreadPart[] = options.withHeld ? ['visible', 'held'] : ['visible'];
    const inSpan = new Set(spanned);
    const span = async (part: ThreadPart) => {
      const read = await readThreadSpan(client, tableName, url, spanned, part, {
        consistent: options.consistent,
        onPage: options.budget.count,
      });
      return [...read].map(([rootId, range]) => [partKey(rootId, part), range] as const);
    };
    const firstReads = await Promise.all([
      readRoots(
        url,
        pageRoots.filter((root) => !inSpan.has(root.id)).map((root) => ({ rootId: root.id, parts })),
        replies,
        options,
      ),
      ...parts.map(span),
    ]);
    const reads = new Map<string, PartRead>(firstReads.flatMap((read) => [...read]));
    const unreached = pageRoots
      .map((root) => ({ rootId: root.id, parts: parts.filter((part) => !reads.has(partKey(root.id, part))) }))
      .filter((root) => root.parts.length > 0);
    for (const [key, read] of await readRoots(url, unreached, replies, options)) reads.set(key, read);
    return pageRoots.map((root) => ({
      rootId: root.id,
      visible: reads.get(partKey(root.id, 'visible')) ?? nothingRead,
      held: reads.get(partKey(root.id, 'held')) ?? nothingRead,
    }));
  };

  /** Reads further into a thread's range that stopped early, while the page's budget allows. */
  const readFurther = async (
    url: string,
    rootId: string,
    part: ThreadPart,
    range: RangeRead,
    options: { consistent: boolean; budget: ReadBudget; limit: number },
  ): Promise<RangeRead> => {
    if (!range.more || !range.next || options.limit <= 0 || !options.budget.goOn()) return range;
    const further = await readCommentRange(client, tableName, url, threadRange(rootId, part), {
      names: threadAttributes,
      consistent: options.consistent,
      limit: options.limit,
      after: range.next,
      onPage: options.budget.count,
      goOn: options.budget.goOn,
    });
    return {
      items: [...range.items, ...further.items],
      more: further.more,
      ...(further.next ? { next: further.next } : {}),
    };
  };

  return async (query) => {
    const { url, page, pageSize, sortBy, withHeld } = query;
    const consistent = query.consistent ?? false;
    const statuses: CommentStatus[] = withHeld ? ['approved', 'waiting', 'spam'] : ['approved'];
    const skipped = (page - 1) * pageSize;
    const readKeys = () => readRootKeys(url, statuses, sortBy, page * pageSize);
    let counts: { roots: number; comments: number };
    let roots: RootKeys;
    if (skipped >= limits.listDeepPageKeys) {
      // A deep page: the counters first, so that a page past the end reads no keys at all.
      const [, counted] = await Promise.all([ensureLayout(), readPageCounts(url, withHeld, consistent)]);
      counts = counted;
      if (skipped >= counts.roots) return { ...counts, threads: [] };
      roots = await readKeys();
    } else {
      // The layout check first among the failures: an older table's missing index is no 500.
      const [layout, counted, keysRead] = await Promise.allSettled([
        ensureLayout(),
        readPageCounts(url, withHeld, consistent),
        readKeys(),
      ]);
      for (const outcome of [layout, counted, keysRead])
        if (outcome.status === 'rejected') throw outcome.reason;
      counts = (counted as PromiseFulfilledResult<{ roots: number; comments: number }>).value;
      roots = (keysRead as PromiseFulfilledResult<RootKeys>).value;
    }
    const pageRoots = pageOfRoots(roots.pinned, roots.flow, query);
    const budget = createReadBudget();
    // The first read of every thread at once, a few replies each (a thread read on its own gets its
    // share; a span gets them all, to share as they come): what one page may read at once is bounded
    // (limits.listFirstReadReplies), whatever the threads hold.
    const replies = Math.min(
      limits.repliesPerThread,
      Math.max(1, Math.floor(limits.listFirstReadReplies / pageSize)),
    );
    const options = { withHeld, consistent, budget };
    // A time sort's page is a span of neighbouring threads, read by one Query; the most liked roots are
    // scattered over the article, each thread is read on its own.
    const spanned =
      sortBy === 'like_desc' ? [] : threadSpan(pageRoots, new Set(roots.pinned.map((root) => root.id)));
    const started = await readPageStart(url, pageRoots, spanned, replies, options);
    // Then, in page order, the threads that have more, while the page's budget allows.
    const threads: StoredThread[] = [];
    for (const read of started) {
      const limit = (range: RangeRead, base: number) => limits.repliesPerThread + base - range.items.length;
      const visible = await readFurther(url, read.rootId, 'visible', read.visible, {
        consistent,
        budget,
        limit: limit(read.visible, 1),
      });
      const held = withHeld
        ? await readFurther(url, read.rootId, 'held', read.held, {
            consistent,
            budget,
            limit: limit(read.held, 0),
          })
        : read.held;
      const thread = toThread({ rootId: read.rootId, visible, held }, withHeld);
      if (thread) threads.push(thread);
    }
    return { ...counts, threads };
  };
}
