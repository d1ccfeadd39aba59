import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { type CommentStatus, isRoot, type ListedComment } from '../domain/comment.js';
import { readCommentRange } from './article-comments.js';
import type { CommentRef } from './comment-repository.js';
import { fromCommentItem, indexAttributes, listedAttributes } from './comment-item.js';
import { combine, contribution, counterUpdates, noDelta } from './counter-deltas.js';
import { attributes, indexNames, type Key, keys, statusPartition, threadRange } from './keys.js';
import { transactWrite } from './transact.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A comment as moderation reads it: the listed fields and its duplicate-mark hash. */
export type ModeratedComment = ListedComment & { readonly contentHash?: string };

/** What an administrator can do to comments. Each change moves the counters in the same transaction. */
export interface ModerationRepository {
  /** One comment, read consistently wherever its status put it. */
  get(ref: CommentRef): Promise<ModeratedComment | undefined>;
  /**
   * Moves a comment to `next` (a reply changes key between visible and held); false when it changed
   * meanwhile (nothing written).
   */
  setStatus(comment: ModeratedComment, next: CommentStatus): Promise<boolean>;
  /** Pins or unpins a comment as it was read; false when it changed status or is gone. */
  setSticky(comment: ModeratedComment, sticky: boolean): Promise<boolean>;
  /** Replaces a comment's text and HTML, never its author; false when it no longer exists. */
  edit(comment: ModeratedComment, text: { orig: string; html: string }): Promise<boolean>;
  /**
   * Deletes a comment, the replies that answer it, and their duplicate marks, reading only its thread;
   * returns how many, or `conflict` when one of them changed status meanwhile (that part was not
   * deleted: try again).
   */
  remove(ref: CommentRef): Promise<number | 'conflict'>;
  /** The newest `limit` comments of `status` (all of them without a limit), newest first. */
  listByStatus(status: CommentStatus, limit?: number): Promise<ListedComment[]>;
  /** How many comments of each status the site has (from its counters). */
  queueSizes(): Promise<Record<CommentStatus, number>>;
}

/** Items per transaction (DynamoDB allows 100): a comment, its mark, and the two counter updates. */
const commentsPerTransaction = 45;

const withHash = (item: Record<string, unknown>): ModeratedComment => {
  const hash = item.contentHash;
  return { ...fromCommentItem(item), ...(typeof hash === 'string' ? { contentHash: hash } : {}) };
};

/** Builds the moderation repository on `client` and `tableName`; `ensureLayout` runs before each read. */
export function createModerationRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
  ensureLayout: () => Promise<void> = async () => undefined,
): ModerationRepository {
  const readItem = async (key: Key) =>
    (await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;

  /** Applies `update` to `comment` at its key if it still has the status it was read with. */
  const updateAsRead = async (
    comment: ModeratedComment,
    update: string,
    names: Record<string, string>,
    values: Record<string, unknown>,
  ): Promise<boolean> => {
    const outcome = await transactWrite(client, {
      TransactItems: [
        {
          Update: {
            TableName: tableName,
            Key: keys.comment(comment),
            UpdateExpression: update,
            // Never create a bare item for a comment deleted meanwhile, nor index it under a stale status.
            ConditionExpression: 'attribute_exists(pk) AND #status = :read',
            ExpressionAttributeNames: { ...names, '#status': 'status' },
            ExpressionAttributeValues: { ...values, ':read': comment.status },
          },
        },
      ],
    });
    return outcome.ok;
  };

  return {
    async get(ref) {
      await ensureLayout();
      if (ref.rid === undefined) {
        const item = await readItem(keys.root(ref.url, ref.id));
        return item ? withHash(item) : undefined;
      }
      const [visible, held] = await Promise.all([
        readItem(keys.reply(ref.url, ref.rid, ref.id, false)),
        readItem(keys.reply(ref.url, ref.rid, ref.id, true)),
      ]);
      const item = visible ?? held;
      return item ? withHash(item) : undefined;
    },

    async setStatus(comment, next) {
      if (comment.status === next) return true;
      const root = isRoot(comment);
      const delta = combine(contribution(next, root), contribution(comment.status, root), -1);
      const from = keys.comment(comment);
      const to = keys.comment({ ...comment, status: next });
      let change: TransactItem[];
      if (from.sk === to.sk) {
        const index = indexAttributes({ ...comment, status: next });
        const names = Object.keys(index);
        change = [
          {
            Update: {
              TableName: tableName,
              Key: from,
              UpdateExpression: `SET #status = :next, ${names.map((_, i) => `#i${i} = :i${i}`).join(', ')}`,
              // Only from the status the counters were computed from: a concurrent change refuses this one.
              ConditionExpression: '#status = :previous',
              ExpressionAttributeNames: {
                '#status': 'status',
                ...Object.fromEntries(names.map((name, i) => [`#i${i}`, name])),
              },
              ExpressionAttributeValues: {
                ':next': next,
                ':previous': comment.status,
                ...Object.fromEntries(names.map((name, i) => [`:i${i}`, index[name]])),
              },
            },
          },
        ];
      } else {
        // A reply crossing between visible and held changes key: its whole item moves, as it is now.
        const item = await readItem(from);
        if (!item || item.status !== comment.status) return false;
        change = [
          {
            Delete: {
              TableName: tableName,
              Key: from,
              // Moved as read: a status change or a like meanwhile refuses the move (try again).
              ConditionExpression: '#status = :previous AND #like = :like',
              ExpressionAttributeNames: { '#status': 'status', '#like': 'like' },
              ExpressionAttributeValues: { ':previous': comment.status, ':like': item.like ?? 0 },
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: { ...item, ...to, status: next, ...indexAttributes({ ...comment, status: next }) },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ];
      }
      const outcome = await transactWrite(client, {
        TransactItems: [...change, ...counterUpdates(tableName, comment.url, delta)],
      });
      return outcome.ok;
    },

    setSticky: (comment, sticky) => {
      const index = indexAttributes({ ...comment, sticky });
      const names = Object.keys(index);
      return updateAsRead(
        comment,
        // A root moves between its pinned and unpinned roots-index partitions with it.
        `SET sticky = :sticky${names.map((_, i) => `, #i${i} = :i${i}`).join('')}`,
        Object.fromEntries(names.map((name, i) => [`#i${i}`, name])),
        { ':sticky': sticky, ...Object.fromEntries(names.map((name, i) => [`:i${i}`, index[name]])) },
      );
    },

    // Only the text: nick, mail and link stay the author's.
    edit: (comment, text) =>
      updateAsRead(comment, 'SET orig = :orig, html = :html', {}, { ':orig': text.orig, ':html': text.html }),

    async remove(ref) {
      await ensureLayout();
      const rootId = ref.rid ?? ref.id;
      // Only the thread: the root with its visible replies, and its held replies.
      const [visible, held] = await Promise.all(
        (['visible', 'held'] as const).map((part) =>
          readCommentRange(client, tableName, ref.url, threadRange(rootId, part), { consistent: true }),
        ),
      );
      const thread = [...(visible?.items ?? []), ...(held?.items ?? [])].map(withHash);

      // As Waline: the comment, its direct replies, and (for a root) its whole thread.
      const doomed = thread.filter((c) => c.id === ref.id || c.pid === ref.id || c.rid === ref.id);
      for (let start = 0; start < doomed.length; start += commentsPerTransaction) {
        const chunk = doomed.slice(start, start + commentsPerTransaction);
        const delta = chunk.reduce(
          (sum, comment) => combine(sum, contribution(comment.status, isRoot(comment)), -1),
          noDelta,
        );
        const outcome = await transactWrite(client, {
          TransactItems: [
            ...chunk.flatMap((comment): TransactItem[] => [
              {
                Delete: {
                  TableName: tableName,
                  Key: keys.comment(comment),
                  // Counted as read: a concurrent status change would make the counters wrong.
                  ConditionExpression: '#status = :status',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':status': comment.status },
                },
              },
              ...(comment.contentHash
                ? [
                    {
                      Delete: { TableName: tableName, Key: keys.duplicate(comment.url, comment.contentHash) },
                    },
                  ]
                : []),
            ]),
            ...counterUpdates(tableName, ref.url, delta),
          ],
        });
        if (!outcome.ok) return 'conflict';
      }
      return doomed.length;
    },

    async listByStatus(status, limit) {
      const comments: ListedComment[] = [];
      let startKey: QueryCommandOutput['LastEvaluatedKey'];
      do {
        const output = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: indexNames.recent,
            KeyConditionExpression: '#partition = :status',
            ProjectionExpression: listedAttributes.map((_, i) => `#p${i}`).join(', '),
            ExpressionAttributeNames: {
              '#partition': attributes.recentPk,
              ...Object.fromEntries(listedAttributes.map((name, i) => [`#p${i}`, name])),
            },
            ExpressionAttributeValues: { ':status': statusPartition(status) },
            // Newest first, as the moderation list shows them; a page reads no further than it shows.
            ScanIndexForward: false,
            ExclusiveStartKey: startKey,
            ...(limit === undefined ? {} : { Limit: limit - comments.length }),
          }),
        );
        comments.push(...(output.Items ?? []).map(fromCommentItem));
        startKey = output.LastEvaluatedKey;
      } while (startKey && (limit === undefined || comments.length < limit));
      return comments;
    },

    async queueSizes() {
      const output = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.siteCounters(),
          ProjectionExpression: 'comments, waiting, spam',
        }),
      );
      const count = (value: unknown) => Math.max(0, Number(value) || 0);
      return {
        approved: count(output.Item?.comments),
        waiting: count(output.Item?.waiting),
        spam: count(output.Item?.spam),
      };
    },
  };
}
