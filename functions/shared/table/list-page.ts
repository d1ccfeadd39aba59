import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { limits } from '../domain/limits.js';
import type { StoredThread } from '../domain/thread.js';
import { type RangeRead, readCommentRange } from './article-comments.js';
import { fromCommentItem, shellAttributes, threadAttributes } from './comment-item.js';
import { keys } from './keys.js';
import {
  nextReads,
  type PagePlan,
  type PageShape,
  type PartRead,
  partKey,
  planPage,
  planRootKeys,
  type PlannedRead,
  type Progress,
  recordReads,
  type RootKeys,
  startProgress,
} from './list-plan.js';
import { projection } from './projection.js';
import { budgetLeft, type ReadBudget, spend } from './read-budget.js';
import { readRootKeys } from './root-keys.js';
import { storedCount } from './stored-count.js';

/** What a page of the list asks for. */
export interface PageQuery extends PageShape {
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
 * Page `page` of the threads of `url`, read as [list-plan.ts](./list-plan.ts) plans it: the page counters
 * and the keys of the roots up to the page's end in parallel, then the page's threads in rounds. Nothing
 * of the roots before the page but their keys is read, and nothing held from visitors unless `withHeld`.
 */
export type ListPage = (query: PageQuery) => Promise<StoredPage>;

/** What the page numbers come from. */
type PageCounts = Pick<StoredPage, 'roots' | 'comments'>;

/**
 * Builds the list's page read on `client` and `tableName`; `ensureLayout` (the roots index exists only
 * in this layout) runs beside the first reads.
 */
export function createListPage(
  client: DynamoDBDocumentClient,
  tableName: string,
  ensureLayout: () => Promise<void> = async () => undefined,
): ListPage {
  return async (query) => {
    const { counts, roots } = await readCountsAndKeys(client, tableName, query, ensureLayout);
    if (!roots) return { ...counts, threads: [] };
    const plan = planPage(query, roots);
    const progress = await readThreads(client, tableName, query, plan);
    return { ...counts, threads: plan.rootIds.flatMap((rootId) => toThread(progress, rootId, query) ?? []) };
  };
}

/**
 * The page counters and the root keys, in parallel; for a deep page, the counters first, and no key at
 * all when the page is past the end (`roots` then absent).
 */
async function readCountsAndKeys(
  client: DynamoDBDocumentClient,
  tableName: string,
  query: PageQuery,
  ensureLayout: () => Promise<void>,
): Promise<{ counts: PageCounts; roots?: RootKeys }> {
  const plan = planRootKeys(query);
  const readKeys = () => readRootKeys(client, tableName, plan, query.sortBy);
  const readCounts = () => readPageCounts(client, tableName, query);
  if (plan.countersFirst) {
    const [, counts] = await Promise.all([ensureLayout(), readCounts()]);
    if (plan.before >= counts.roots) return { counts };
    return { counts, roots: await readKeys() };
  }
  // The layout check first among the failures: an older table's missing index is no 500.
  const [layout, counts, roots] = await Promise.allSettled([ensureLayout(), readCounts(), readKeys()]);
  for (const outcome of [layout, counts, roots]) if (outcome.status === 'rejected') throw outcome.reason;
  return {
    counts: (counts as PromiseFulfilledResult<PageCounts>).value,
    roots: (roots as PromiseFulfilledResult<RootKeys>).value,
  };
}

/** The page counters: what the viewer may see, held comments and roots included for an administrator. */
async function readPageCounts(
  client: DynamoDBDocumentClient,
  tableName: string,
  query: PageQuery,
): Promise<PageCounts> {
  const output = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.pageCounters(query.url),
      ...(query.consistent ? { ConsistentRead: true } : {}),
      ...projection(['comments', 'roots', 'held', 'heldRoots']),
    }),
  );
  const count = (name: string) => storedCount(output.Item?.[name]);
  return query.withHeld
    ? { roots: count('roots') + count('heldRoots'), comments: count('comments') + count('held') }
    : { roots: count('roots'), comments: count('comments') };
}

/** The page's threads as `plan` reads them: each round's reads side by side, until it has none left. */
async function readThreads(
  client: DynamoDBDocumentClient,
  tableName: string,
  query: PageQuery,
  plan: PagePlan,
): Promise<Progress> {
  let progress = startProgress;
  for (let reads = nextReads(plan, progress); reads.length > 0; reads = nextReads(plan, progress)) {
    const budget = progress.budget;
    const round = await Promise.all(
      reads.map(async (read) => ({ read, result: await sendRead(client, tableName, query, read, budget) })),
    );
    progress = recordReads(progress, round);
  }
  return progress;
}

/**
 * One read of the plan: one Query of its range, with the texts or (a shell) without; a read further goes
 * on, page after page, while `budget` and what it reads itself leave room.
 */
async function sendRead(
  client: DynamoDBDocumentClient,
  tableName: string,
  query: PageQuery,
  read: PlannedRead,
  budget: ReadBudget,
): Promise<RangeRead> {
  let spent = budget;
  return readCommentRange(client, tableName, query.url, read.range, {
    names: read.kind === 'shell' ? shellAttributes : threadAttributes,
    consistent: query.consistent ?? false,
    limit: read.limit,
    ...(read.kind === 'further' ? { after: read.after } : {}),
    onPage: (items) => {
      spent = spend(spent, items);
    },
    // The first reads are one Query each: the page's threads are read side by side, and only then, one by
    // one, further (only one read further is under way at a time: the budget it sees is the page's).
    goOn: () => read.kind === 'further' && budgetLeft(spent),
  });
}

/** The thread of `rootId` as read, or undefined when its root is gone or (for a visitor) not approved. */
function toThread(progress: Progress, rootId: string, query: PageQuery): StoredThread | undefined {
  const nothingRead: PartRead = { items: [], more: false };
  const visible = progress.parts.get(partKey(rootId, 'visible')) ?? nothingRead;
  const held = progress.parts.get(partKey(rootId, 'held')) ?? nothingRead;
  const [rootItem, ...replyItems] = visible.items;
  if (!rootItem) return undefined;
  const root = {
    ...fromCommentItem(rootItem),
    ...(visible.withoutText ? { textLeftOut: true as const } : {}),
  };
  // The first key of the range is the root's own, unless the root was deleted meanwhile.
  if (root.id !== rootId || root.rid !== undefined) return undefined;
  // The index lags the table by a moment: a root moderated meanwhile is not shown to visitors.
  if (!query.withHeld && root.status !== 'approved') return undefined;
  // Each range gave its oldest replies: together, in id order, the first ones are the thread's oldest.
  const replies = [...replyItems, ...held.items]
    .map(fromCommentItem)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limits.repliesPerThread);
  return {
    root,
    replies,
    moreReplies: visible.more || held.more || replyItems.length + held.items.length > replies.length,
  };
}
