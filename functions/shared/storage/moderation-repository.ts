import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { type CommentStatus, isRoot, type ListedComment } from '../domain/comment.js';
import { fromCommentItem, listedAttributes } from './comment-item.js';
import { combine, contribution, counterUpdates, noDelta } from './counter-deltas.js';
import { attributes, indexNames, keys, statusPartition } from './keys.js';
import { transactWrite } from './transact.js';
import { queryArticleComments } from './article-comments.js';

/** A comment addressed for moderation. */
export interface CommentRef {
  readonly url: string;
  readonly id: string;
}

/** A comment as moderation reads it: the listed fields and its duplicate-mark hash. */
export type ModeratedComment = ListedComment & { readonly contentHash?: string };

/** What an administrator can do to comments. Each change moves the counters in the same transaction. */
export interface ModerationRepository {
  /** One comment, read consistently. */
  get(ref: CommentRef): Promise<ModeratedComment | undefined>;
  /** Moves a comment to `next`; false when its status changed meanwhile (nothing written). */
  setStatus(comment: ModeratedComment, next: CommentStatus): Promise<boolean>;
  /** Pins or unpins a comment; false when it no longer exists. */
  setSticky(ref: CommentRef, sticky: boolean): Promise<boolean>;
  /** Replaces a comment's text and HTML, never its author; false when it no longer exists. */
  edit(ref: CommentRef, text: { orig: string; html: string }): Promise<boolean>;
  /**
   * Deletes a comment, the replies that answer it, and their duplicate marks; returns how many, or
   * `conflict` when one of them changed status meanwhile (that part was not deleted: try again).
   */
  remove(ref: CommentRef): Promise<number | 'conflict'>;
  /** The newest `limit` comments of `status` (all of them without a limit), newest first. */
  listByStatus(status: CommentStatus, limit?: number): Promise<ListedComment[]>;
  /** How many comments of each status the site has (from its counters). */
  queueSizes(): Promise<Record<CommentStatus, number>>;
}

/** Items per transaction (DynamoDB allows 100): a comment, its mark, and the two counter updates. */
const commentsPerTransaction = 45;

/** Builds the moderation repository on `client` and `tableName`. */
export function createModerationRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
): ModerationRepository {
  const exists = 'attribute_exists(pk)';

  /** Applies `update` to the comment `ref`, in a transaction (for its conflict retries); false when it is gone. */
  const updateExisting = async (
    ref: CommentRef,
    update: string,
    values: Record<string, unknown>,
  ): Promise<boolean> => {
    const outcome = await transactWrite(client, {
      TransactItems: [
        {
          Update: {
            TableName: tableName,
            Key: keys.comment(ref.url, ref.id),
            UpdateExpression: update,
            // Never create a bare item for a comment deleted meanwhile.
            ConditionExpression: exists,
            ExpressionAttributeValues: values,
          },
        },
      ],
    });
    return outcome.ok;
  };

  return {
    async get(ref) {
      const output = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.comment(ref.url, ref.id), ConsistentRead: true }),
      );
      if (!output.Item) return undefined;
      const hash = output.Item.contentHash;
      return { ...fromCommentItem(output.Item), ...(typeof hash === 'string' ? { contentHash: hash } : {}) };
    },

    async setStatus(comment, next) {
      if (comment.status === next) return true;
      const root = isRoot(comment);
      const delta = combine(contribution(next, root), contribution(comment.status, root), -1);
      const outcome = await transactWrite(client, {
        TransactItems: [
          {
            Update: {
              TableName: tableName,
              Key: keys.comment(comment.url, comment.id),
              UpdateExpression: 'SET #status = :next, #partition = :partition',
              // Only from the status the counters were computed from: a concurrent change refuses this one.
              ConditionExpression: '#status = :previous',
              ExpressionAttributeNames: { '#status': 'status', '#partition': attributes.recentPk },
              ExpressionAttributeValues: {
                ':next': next,
                ':previous': comment.status,
                ':partition': statusPartition(next),
              },
            },
          },
          ...counterUpdates(tableName, comment.url, delta),
        ],
      });
      return outcome.ok;
    },

    setSticky: (ref, sticky) => updateExisting(ref, 'SET sticky = :sticky', { ':sticky': sticky }),

    // Only the text: nick, mail and link stay the author's.
    edit: (ref, text) =>
      updateExisting(ref, 'SET orig = :orig, html = :html', { ':orig': text.orig, ':html': text.html }),

    async remove(ref) {
      const all: ModeratedComment[] = [];
      for await (const item of queryArticleComments(client, tableName, ref.url, { consistent: true })) {
        const hash = item.contentHash;
        all.push({ ...fromCommentItem(item), ...(typeof hash === 'string' ? { contentHash: hash } : {}) });
      }

      // As Waline: the comment, its direct replies, and (for a root) its whole thread.
      const doomed = all.filter((c) => c.id === ref.id || c.pid === ref.id || c.rid === ref.id);
      for (let start = 0; start < doomed.length; start += commentsPerTransaction) {
        const chunk = doomed.slice(start, start + commentsPerTransaction);
        const delta = chunk.reduce(
          (sum, comment) => combine(sum, contribution(comment.status, isRoot(comment)), -1),
          noDelta,
        );
        const outcome = await transactWrite(client, {
          TransactItems: [
            ...chunk.flatMap((comment) => [
              {
                Delete: {
                  TableName: tableName,
                  Key: keys.comment(comment.url, comment.id),
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
