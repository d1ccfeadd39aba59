import { newUlid } from '../domain/new-ulid.js';
import { type DynamoDBDocumentClient, GetCommand, NumberValue, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ListedComment, StoredComment } from '../domain/comment.js';
import { fromCommentItem, threadAttributes } from './comment-item.js';
import { queryCards, withTexts } from './card-index.js';
import { readBesideLayoutCheck } from './layout.js';
import { attributes, entities, indexNames, keys, likeSortStep, parseCommentSk } from './keys.js';
import { createListPage, type ListPage } from './list-page.js';
import { createPageFeed, type PageFeed } from './page-feed.js';
import { projection } from './projection.js';
import { storedCount } from './stored-count.js';
import { type InsertGuards, type InsertRefusal, submitItems } from './submit-items.js';
import { transactWrite } from './transact.js';

// Named with the repository by the code that fakes or caches its pages.
export type { PageQuery, StoredPage } from './list-page.js';

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

/** Reads and writes comments. */
export interface CommentRepository {
  /** A page of an article's threads (list-page.ts, where its requests are sent). */
  readonly listPage: ListPage;
  /**
   * The site's `count` newest approved comments, newest first: their cards from approved-by-time, then
   * their texts while a budget of bytes allows (card-index.ts); past it, marked `textLeftOut`.
   */
  recent(count: number): Promise<readonly ListedComment[]>;
  /** The newest approved comments of one page, for its feed (page-feed.ts, where its request is sent). */
  readonly pageFeed: PageFeed;
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
  return {
    listPage: createListPage(client, tableName, ensureLayout),
    pageFeed: createPageFeed(client, tableName, ensureLayout),

    async recent(count) {
      // The card index exists, filled, only in this layout: an unmigrated table answers 503.
      const cards = await readBesideLayoutCheck(ensureLayout, () =>
        queryCards(client, tableName, 'approved', count),
      );
      return withTexts(client, tableName, cards);
    },

    async find(ref, options = {}) {
      const read = async (key: ReturnType<typeof keys.root>) => {
        const output = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: key,
            ...projection(threadAttributes),
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
      const { items, refusalAt } = submitItems(tableName, comment, guards, newUlid(comment.insertedAt));
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
        like: storedCount(item.like),
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
