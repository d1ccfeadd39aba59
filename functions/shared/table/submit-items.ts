import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { accountAuthorKey, type AuthorTally, feedKeysOf } from '../domain/author-tally.js';
import type { CommentStatus, StoredComment } from '../domain/comment.js';
import { authorCountUpdates, authorFeedPut } from './author-count-items.js';
import { replyNotifiedAttribute, toCommentItem } from './comment-item.js';
import { contribution, counterUpdates } from './counter-deltas.js';
import { commentEvent, outboxPut } from './outbox-event.js';
import { attributes, entities, keys } from './keys.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What must hold for a new comment to be stored, checked in the same transaction as the write. */
export interface InsertGuards {
  /** Hash of (url, mail, nick, link, comment): a second copy is refused. */
  readonly contentHash: string;
  /** One comment per `windowMs` from one IP; absent when the limit is off. */
  readonly rateLimit?: { readonly ipHash: string; readonly windowMs: number };
  /** The status of the comment a reply answers, when it is not the thread root (it says where it is). */
  readonly parentStatus?: CommentStatus;
  /** A visitor's reply: the thread root must be approved too (a visitor answers only what it can see). */
  readonly visibleParents?: boolean;
  /** The author's level counter (domain/author-tally.ts): an approved comment adds one to it. */
  readonly author?: AuthorTally;
}

/** Why an insert was refused; nothing was written. */
export type InsertRefusal = 'duplicate' | 'rate_limited' | 'parent_missing' | 'id_taken';

/**
 * The one transaction that stores a new comment: the comment, its duplicate-content mark, the IP's rate
 * mark, the checks on its thread, the counters it moves, and its outbox event (none for spam), so whoever
 * must be told is told of exactly what was stored (`eventId`: a new ULID). A reply stored approved is marked
 * as told to its parent's author (its event tells them), so a later approval tells nobody again.
 * `refusalAt[i]` names what a failed condition of item `i` means (no entry: an item whose refusal would be a bug).
 */
export function submitItems(
  tableName: string,
  comment: StoredComment,
  guards: InsertGuards,
  eventId: string,
): { items: TransactItem[]; refusalAt: InsertRefusal[] } {
  const now = comment.insertedAt;
  const isRoot = comment.rid === undefined;
  const tellsParent = !isRoot && comment.status === 'approved';
  const items: TransactItem[] = [];
  const refusalAt: InsertRefusal[] = [];
  const add = (item: TransactItem, refusal: InsertRefusal | undefined) => {
    items.push(item);
    if (refusal) refusalAt[items.length - 1] = refusal;
  };

  add(
    {
      Put: {
        TableName: tableName,
        Item: {
          ...toCommentItem(comment, guards.contentHash),
          ...(tellsParent ? { [replyNotifiedAttribute]: true } : {}),
        },
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
          Key: keys.root(comment.url, comment.rid),
          // The thread root exists on this very url (the key says so) and is itself a root; for a
          // visitor, it is also one visitors can see.
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(rid)${guards.visibleParents ? ' AND #status = :approved' : ''}`,
          ...(guards.visibleParents
            ? {
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':approved': 'approved' },
              }
            : {}),
        },
      },
      'parent_missing',
    );
    if (comment.pid !== undefined && comment.pid !== comment.rid) {
      const status = guards.parentStatus ?? 'approved';
      add(
        {
          ConditionCheck: {
            TableName: tableName,
            Key: keys.reply(comment.url, comment.rid, comment.pid, status !== 'approved'),
            // A reply inside a thread: the parent exists under this root (the key says so) and
            // is still where its status put it.
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        'parent_missing',
      );
    }
  }
  // An approved comment's time is the article's first-comment time unless it has one (READONLY_AGE counts from
  // it); a held one's is not: anyone can post one on a url whose article is not out yet.
  const approvedAt = comment.status === 'approved' ? now : undefined;
  for (const update of counterUpdates(
    tableName,
    comment.url,
    contribution(comment.status, isRoot),
    approvedAt,
  )) {
    add(update, undefined);
  }
  // The author's level counts approved comments only: a held one counts when it is approved.
  if (guards.author && comment.status === 'approved') {
    for (const update of authorCountUpdates(tableName, [{ tally: guards.author, delta: 1 }]))
      add(update, undefined);
  }
  // Every comment with an author is filed under its author's key, whatever its status: an account's feed shows the
  // approved ones, and a commenter's download and erase find all of theirs there; an account's comment is filed
  // under its address's key too, for whoever proves that address (an account need not claim it).
  // Without a tally (a caller that counts no levels), an account's comment is still filed in its feed.
  const feedKeys = guards.author
    ? feedKeysOf(guards.author)
    : comment.userId !== undefined && comment.userId !== ''
      ? [accountAuthorKey(comment.userId)]
      : [];
  for (const feedKey of feedKeys) add(authorFeedPut(tableName, feedKey, comment), undefined);
  // `eventId` is a ULID (its time names the outbox partition); an imported comment's id need not be one.
  const event = commentEvent('comment.submitted', eventId, now, comment);
  if (event) add(outboxPut(tableName, event), 'id_taken');
  return { items, refusalAt };
}
