import { type DynamoDBDocumentClient, GetCommand, NumberValue, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CommentStatus, ListedComment, StoredComment } from '../domain/comment.js';
import type { SortOrder } from '../domain/comment-schemas.js';
import { limits } from '../domain/limits.js';
import { pageOfRoots, type StoredThread } from '../domain/thread.js';
import { type RangeRead, readCommentRange } from './article-comments.js';
import { fromCommentItem, threadAttributes } from './comment-item.js';
import {
  attributes,
  entities,
  indexNames,
  keys,
  likeSortStep,
  parseCommentSk,
  statusPartition,
  threadRange,
} from './keys.js';
import { readRootKeys, type RootKeys } from './roots-index.js';
import { type InsertGuards, type InsertRefusal, submitItems } from './submit-items.js';
import { transactWrite } from './transact.js';

/** The result of a like or unlike: the count after it, unless the comment is not one visitors can like. */
export type VoteOutcome = { outcome: 'changed' | 'unchanged'; like: number } | { outcome: 'missing' };

/** A comment named by its id, with what it takes to find its item: its url, and its root for a reply. */
export interface CommentRef {
  readonly url: string;
  readonly id: string;
  readonly rid?: string;
}

/** Where a comment lives, found from its id alone. */
export interface CommentLocation extends CommentRef {
  /** Its like count as the id index last saw it (eventually consistent). */
  readonly like: number;
}

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

/** Reads and writes comments. */
export interface CommentRepository {
  /**
   * Page `page` of the threads of `url`: the page counters and the keys of the roots up to the page's
   * end in parallel, then the page's threads in parallel. Nothing of the roots before the page but
   * their keys is read, and nothing held from visitors unless `withHeld`.
   */
  listPage(query: PageQuery): Promise<StoredPage>;
  /** The site's `count` newest approved comments, newest first. */
  recent(count: number): Promise<readonly ListedComment[]>;
  /**
   * Comment `ref`, read consistently, or undefined when there is none: a reply is looked for where its
   * status may have put it, its held place only `withHeld` (an administrator's read).
   */
  find(ref: CommentRef, options?: { withHeld?: boolean }): Promise<ListedComment | undefined>;
  /** Stores `comment` with its guards and counters, or says why not. */
  insert(
    comment: StoredComment,
    guards: InsertGuards,
  ): Promise<{ ok: true } | { ok: false; reason: InsertRefusal }>;
  /** Finds the url (and thread root) of comment `id`. */
  locate(id: string): Promise<CommentLocation | undefined>;
  /**
   * Records (like) or withdraws (unlike) the vote of `voterHash` on a comment, once per voter, and
   * answers the count: `target.like` (the id index's copy, which may lag a moment) moved by the vote.
   * Only a comment visitors can see (approved) can be liked: a held one is `missing`.
   */
  vote(target: CommentLocation, voterHash: string, like: boolean): Promise<VoteOutcome>;
}

/** Builds the comment repository on `client` and `tableName`; `ensureLayout` runs before layout-bound reads. */
export function createCommentRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
  ensureLayout: () => Promise<void> = async () => undefined,
): CommentRepository {
  const readPageCounts = async (url: string, withHeld: boolean, consistent: boolean) => {
    const output = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.pageCounters(url),
        ...(consistent ? { ConsistentRead: true } : {}),
        ProjectionExpression: 'comments, #roots, held, heldRoots',
        ExpressionAttributeNames: { '#roots': 'roots' },
      }),
    );
    const count = (name: string) => Math.max(0, Number(output.Item?.[name]) || 0);
    return withHeld
      ? { roots: count('roots') + count('heldRoots'), comments: count('comments') + count('held') }
      : { roots: count('roots'), comments: count('comments') };
  };

  /** Counts what a page's reads brought, and stops further reads once one answer could carry no more. */
  const createReadBudget = () => {
    let chars = 0;
    return {
      count: (items: readonly Record<string, unknown>[]) => {
        for (const item of items) chars += String(item.orig ?? '').length + String(item.html ?? '').length;
      },
      goOn: () => chars < limits.listReadChars,
    };
  };
  type ReadBudget = ReturnType<typeof createReadBudget>;

  /** A thread as first read: its ranges, each with what was read and where it stopped. */
  interface ThreadRead {
    readonly rootId: string;
    readonly visible: RangeRead;
    readonly held: RangeRead;
  }

  /**
   * The first read of a thread: one Query of its visible range (the root first, then its oldest replies)
   * and, for administrators, one of its held range, each stopped at `replies` replies.
   */
  const readThreadStart = async (
    url: string,
    rootId: string,
    replies: number,
    options: { withHeld: boolean; consistent: boolean; budget: ReadBudget },
  ): Promise<ThreadRead> => {
    const read = (part: 'visible' | 'held', limit: number) =>
      readCommentRange(client, tableName, url, threadRange(rootId, part), {
        names: threadAttributes,
        consistent: options.consistent,
        limit,
        onPage: options.budget.count,
        // One Query: the page's threads are read side by side, and only then, one by one, further.
        goOn: () => false,
      });
    const [visible, held] = await Promise.all([
      read('visible', 1 + replies),
      options.withHeld ? read('held', replies) : Promise.resolve<RangeRead>({ items: [], more: false }),
    ]);
    return { rootId, visible, held };
  };

  /** Reads further into a thread's range that stopped early, while the page's budget allows. */
  const readFurther = async (
    url: string,
    rootId: string,
    part: 'visible' | 'held',
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

  /** The thread a read brought, or undefined when its root is gone or (for a visitor) not approved. */
  const toThread = (read: ThreadRead, withHeld: boolean): StoredThread | undefined => {
    const [rootItem, ...replyItems] = read.visible.items;
    if (!rootItem) return undefined;
    const root = fromCommentItem(rootItem);
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
  };

  return {
    async listPage(query) {
      const { url, page, pageSize, sortBy, withHeld } = query;
      const consistent = query.consistent ?? false;
      const statuses: CommentStatus[] = withHeld ? ['approved', 'waiting', 'spam'] : ['approved'];
      const skipped = (page - 1) * pageSize;
      const readKeys = () =>
        readRootKeys(client, tableName, { url, statuses, sortBy, limit: page * pageSize });
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
      // The first read of every thread side by side, a few replies each: what one page may read at once
      // is bounded (limits.listFirstReadReplies), whatever the threads hold.
      const replies = Math.min(
        limits.repliesPerThread,
        Math.max(1, Math.floor(limits.listFirstReadReplies / pageSize)),
      );
      const started = await Promise.all(
        pageRoots.map((root) => readThreadStart(url, root.id, replies, { withHeld, consistent, budget })),
      );
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
    },

    async recent(count) {
      const comments: ListedComment[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const output = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: indexNames.recent,
            KeyConditionExpression: '#partition = :approved',
            ExpressionAttributeNames: { '#partition': attributes.recentPk },
            ExpressionAttributeValues: { ':approved': statusPartition('approved') },
            // ULID sort keys: descending order is newest first, and Limit stops the read there. A Query
            // stops at 1 MB too: large comments take more than one to reach `count`.
            ScanIndexForward: false,
            Limit: count - comments.length,
            ExclusiveStartKey: startKey,
          }),
        );
        comments.push(...(output.Items ?? []).map(fromCommentItem));
        startKey = output.LastEvaluatedKey;
      } while (startKey && comments.length < count);
      return comments;
    },

    async find(ref, options = {}) {
      const read = async (key: ReturnType<typeof keys.root>) => {
        const output = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: key,
            ProjectionExpression: threadAttributes.map((_, i) => `#p${i}`).join(', '),
            ExpressionAttributeNames: Object.fromEntries(threadAttributes.map((name, i) => [`#p${i}`, name])),
            // A reply may follow its parent within a second; an eventually consistent read could miss it.
            ConsistentRead: true,
          }),
        );
        return output.Item ? fromCommentItem(output.Item) : undefined;
      };
      if (ref.rid === undefined) return read(keys.root(ref.url, ref.id));
      // A reply is under its root, visible or held: both places are read at once, for an administrator.
      const [visible, held] = await Promise.all([
        read(keys.reply(ref.url, ref.rid, ref.id, false)),
        options.withHeld ? read(keys.reply(ref.url, ref.rid, ref.id, true)) : undefined,
      ]);
      return visible ?? held;
    },

    async insert(comment, guards) {
      const { items, refusalAt } = submitItems(tableName, comment, guards);
      const outcome = await transactWrite(client, { TransactItems: items });
      if (outcome.ok) return { ok: true };
      const reason = outcome.failedConditions.map((index) => refusalAt[index]).find(Boolean);
      if (!reason) throw new Error(`Transaction refused by an unguarded item: ${outcome.failedConditions}`);
      return { ok: false, reason };
    },

    async locate(id) {
      const [, output] = await Promise.all([
        ensureLayout(),
        client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: indexNames.byId,
            KeyConditionExpression: '#id = :id',
            ExpressionAttributeNames: { '#id': attributes.commentId },
            ExpressionAttributeValues: { ':id': id },
            Limit: 1,
          }),
        ),
      ]);
      const item = output.Items?.[0];
      const place = typeof item?.sk === 'string' ? parseCommentSk(item.sk) : undefined;
      if (!item || !place || typeof item.url !== 'string') return undefined;
      return {
        url: item.url,
        id,
        ...(place.replyId === undefined ? {} : { rid: place.rootId }),
        like: Math.max(0, Number(item.like) || 0),
      };
    },

    async vote(target, voterHash, like) {
      const root = target.rid === undefined;
      const voteKey = keys.likeVote(target.id, voterHash);
      const outcome = await transactWrite(client, {
        TransactItems: [
          like
            ? {
                Put: {
                  TableName: tableName,
                  Item: { ...voteKey, entity: entities.vote },
                  // The voter's mark is the vote: a second like by the same voter changes nothing.
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              }
            : {
                Delete: {
                  TableName: tableName,
                  Key: voteKey,
                  // Only a voter who liked can take it back.
                  ConditionExpression: 'attribute_exists(pk)',
                },
              },
          {
            Update: {
              TableName: tableName,
              Key: keys.comment({ ...target, status: 'approved' }),
              // ADD moves the count, and a root's like sort value with it, in place: votes at the same
              // moment never conflict, and the index order follows the count exactly.
              UpdateExpression: root ? 'ADD #like :one, #likeSort :step' : 'ADD #like :one',
              // Only a comment visitors can see is liked, never a bare item for one deleted meanwhile;
              // a count never goes below zero.
              ConditionExpression: `attribute_exists(pk) AND #status = :approved${like ? '' : ' AND #like > :zero'}`,
              ExpressionAttributeNames: {
                '#like': 'like',
                '#status': 'status',
                ...(root ? { '#likeSort': attributes.likeSort } : {}),
              },
              ExpressionAttributeValues: {
                ':one': like ? 1 : -1,
                ':approved': 'approved',
                ...(like ? {} : { ':zero': 0 }),
                ...(root
                  ? { ':step': like ? likeSortStep : NumberValue.from(`-${likeSortStep.toString()}`) }
                  : {}),
              },
            },
          },
        ],
      });
      // The id index's copy of the count may lag a concurrent vote by a moment; the stored count is exact.
      const counted = (delta: number) => ({ like: Math.max(0, target.like + delta) });
      if (outcome.ok) return { outcome: 'changed', ...counted(like ? 1 : -1) };
      if (outcome.failedConditions.includes(0)) return { outcome: 'unchanged', ...counted(0) };
      return like ? { outcome: 'missing' } : { outcome: 'unchanged', ...counted(0) };
    },
  };
}
