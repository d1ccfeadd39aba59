import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ListedComment, StoredComment } from '../domain/comment.js';
import { fromCommentItem, listedAttributes, toCommentItem } from './comment-item.js';
import { attributes, entities, indexNames, keys, statusPartition } from './keys.js';
import { contribution, counterUpdates } from './counter-deltas.js';
import { transactWrite } from './transact.js';
import { queryArticleComments } from './article-comments.js';
import { voteItems } from './vote-items.js';

/** What must hold for a new comment to be stored, checked in the same transaction as the write. */
export interface InsertGuards {
  /** Hash of (url, mail, nick, link, comment): a second copy is refused. */
  readonly contentHash: string;
  /** One comment per `windowMs` from one IP; absent when the limit is off. */
  readonly rateLimit?: { readonly ipHash: string; readonly windowMs: number };
}

/** Why an insert was refused; nothing was written. */
export type InsertRefusal = 'duplicate' | 'rate_limited' | 'parent_missing' | 'id_taken';

/** The result of a like or unlike. */
export type VoteOutcome = 'changed' | 'unchanged' | 'missing';

/** Where a comment lives, found from its id alone. */
export interface CommentLocation {
  readonly url: string;
  /** Its like count as the id index last saw it (eventually consistent). */
  readonly like: number;
}

/** Reads and writes comments. Each method is one round trip, except list (one per MB read). */
export interface CommentRepository {
  /** Every comment of `url`, any status, in insertion order; `consistent` reads what was just written. */
  listByUrl(url: string, options?: { consistent?: boolean }): Promise<readonly ListedComment[]>;
  /** The site's newest approved comments, newest first. */
  recent(count: number): Promise<readonly ListedComment[]>;
  /** Comment `id` of `url`, read consistently, or undefined when there is none. */
  find(url: string, id: string): Promise<ListedComment | undefined>;
  /** Stores `comment` with its guards and counters, or says why not. */
  insert(
    comment: StoredComment,
    guards: InsertGuards,
  ): Promise<{ ok: true } | { ok: false; reason: InsertRefusal }>;
  /** Finds the url of comment `id`. */
  locate(id: string): Promise<CommentLocation | undefined>;
  /** Records (like) or withdraws (unlike) the vote of `voterHash` on a comment, once per voter. */
  vote(target: { id: string; url: string }, voterHash: string, like: boolean): Promise<VoteOutcome>;
}

/** Builds the comment repository on `client` and `tableName`. */
export function createCommentRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
): CommentRepository {
  return {
    async listByUrl(url, options = {}) {
      const comments: ListedComment[] = [];
      const query = { names: listedAttributes, consistent: options.consistent };
      for await (const item of queryArticleComments(client, tableName, url, query)) {
        comments.push(fromCommentItem(item));
      }
      return comments;
    },

    async recent(count) {
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: indexNames.recent,
          KeyConditionExpression: '#partition = :approved',
          ExpressionAttributeNames: { '#partition': attributes.recentPk },
          ExpressionAttributeValues: { ':approved': statusPartition('approved') },
          // ULID sort keys: descending order is newest first, and Limit stops the read there.
          ScanIndexForward: false,
          Limit: count,
        }),
      );
      return (output.Items ?? []).map(fromCommentItem);
    },

    async find(url, id) {
      const output = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.comment(url, id),
          ProjectionExpression: listedAttributes.map((_, i) => `#p${i}`).join(', '),
          ExpressionAttributeNames: Object.fromEntries(listedAttributes.map((name, i) => [`#p${i}`, name])),
          // A reply may follow its parent within a second; an eventually consistent read could miss it.
          ConsistentRead: true,
        }),
      );
      return output.Item ? fromCommentItem(output.Item) : undefined;
    },

    async insert(comment, guards) {
      const now = comment.insertedAt;
      const isRoot = comment.rid === undefined;
      const items: NonNullable<Parameters<typeof transactWrite>[1]['TransactItems']> = [];
      const refusalAt: InsertRefusal[] = [];
      const add = (item: (typeof items)[number], refusal: InsertRefusal | undefined) => {
        items.push(item);
        if (refusal) refusalAt[items.length - 1] = refusal;
      };

      add(
        {
          Put: {
            TableName: tableName,
            Item: toCommentItem(comment, guards.contentHash),
            // Never overwrite a comment. A fresh ULID collides with nothing, so a refusal here means
            // this very write landed on an earlier attempt whose answer was lost.
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        'id_taken',
      );
      add(
        {
          Put: {
            TableName: tableName,
            // `of`, not `commentId`: that attribute would put the mark into the by-id index.
            Item: {
              ...keys.duplicate(comment.url, guards.contentHash),
              entity: entities.duplicate,
              of: comment.id,
            },
            // The mark exists iff the same content was posted on this url before.
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        'duplicate',
      );
      if (guards.rateLimit) {
        const { ipHash, windowMs } = guards.rateLimit;
        add(
          {
            Put: {
              TableName: tableName,
              Item: {
                ...keys.rate(ipHash),
                entity: entities.rate,
                lastPostAt: now,
                [attributes.expiresAt]: Math.ceil((now + windowMs) / 1000),
              },
              // Refused while the IP's previous post is younger than the window. TTL deletion lags,
              // so the time is compared, not the mark's existence.
              ConditionExpression: 'attribute_not_exists(pk) OR lastPostAt <= :cutoff',
              ExpressionAttributeValues: { ':cutoff': now - windowMs },
            },
          },
          'rate_limited',
        );
      }
      if (comment.rid !== undefined) {
        add(
          {
            ConditionCheck: {
              TableName: tableName,
              Key: keys.comment(comment.url, comment.rid),
              // The thread root exists on this very url (the key says so) and is itself a root.
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rid)',
            },
          },
          'parent_missing',
        );
        if (comment.pid !== undefined && comment.pid !== comment.rid) {
          add(
            {
              ConditionCheck: {
                TableName: tableName,
                Key: keys.comment(comment.url, comment.pid),
                // A reply inside a thread: the parent exists on this url and belongs to the same root.
                ConditionExpression: 'attribute_exists(pk) AND rid = :rid',
                ExpressionAttributeValues: { ':rid': comment.rid },
              },
            },
            'parent_missing',
          );
        }
      }
      for (const update of counterUpdates(tableName, comment.url, contribution(comment.status, isRoot))) {
        add(update, undefined);
      }

      const outcome = await transactWrite(client, { TransactItems: items });
      if (outcome.ok) return { ok: true };
      const reason = outcome.failedConditions.map((index) => refusalAt[index]).find(Boolean);
      if (!reason) throw new Error(`Transaction refused by an unguarded item: ${outcome.failedConditions}`);
      return { ok: false, reason };
    },

    async locate(id) {
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: indexNames.byId,
          KeyConditionExpression: '#id = :id',
          ExpressionAttributeNames: { '#id': attributes.commentId },
          ExpressionAttributeValues: { ':id': id },
          Limit: 1,
        }),
      );
      const item = output.Items?.[0];
      if (!item || typeof item.url !== 'string') return undefined;
      return { url: item.url, like: Math.max(0, Number(item.like) || 0) };
    },

    async vote(target, voterHash, like) {
      const outcome = await transactWrite(client, {
        TransactItems: voteItems(
          {
            tableName,
            voteKey: keys.likeVote(target.id, voterHash),
            counterKey: keys.comment(target.url, target.id),
            counter: 'like',
          },
          like,
        ),
      });
      if (outcome.ok) return 'changed';
      if (outcome.failedConditions.includes(0)) return 'unchanged';
      return like ? 'missing' : 'unchanged';
    },
  };
}
