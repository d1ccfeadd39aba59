import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { authorFeedDelete } from './author-count-items.js';
import { deletedPlaceholder } from '../domain/deleted-placeholder.js';
import { textBytesOf, userIdAttribute } from './comment-item.js';
import { attributes, keys } from './keys.js';
import type { ModeratedComment } from './moderation-items.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The items of the one TransactWriteItems that turns `comment`, deleted by its author `ownerId` while it has
 * replies, into the deleted placeholder (domain/deleted-placeholder.ts): its text, name, address, link and user
 * agent replaced, its account id, IP hash and duplicate-mark hash removed, `deletedAt` stamped; its duplicate
 * mark deleted (the same text may be posted again), and its feed entries under `feedKeys` (it is nobody's now).
 * It keeps its key, its status and its index keys, so no counter moves and its replies keep their thread.
 */
export function placeholderItems(
  tableName: string,
  comment: ModeratedComment,
  ownerId: string,
  deletedAt: number,
  feedKeys: readonly string[] = [],
): TransactItem[] {
  return takenFromAuthorItems(
    tableName,
    comment,
    { ...deletedPlaceholder, [attributes.textBytes]: textBytesOf(deletedPlaceholder), deletedAt },
    { removed: [userIdAttribute, 'ipHash', 'contentHash'], ownerId, feedKeys },
  );
}

/**
 * The items that take `comment` from its author in place: its attributes `shown` set, `removed` removed, its
 * duplicate mark deleted, and its feed entries under `feedKeys`. Conditioned on the comment as read (its status,
 * and with `ownerId` its account id): a change meanwhile refuses it, and no bare item is created. Its key, status
 * and index keys stay, so no page counter moves.
 */
export function takenFromAuthorItems(
  tableName: string,
  comment: ModeratedComment,
  shown: Readonly<Record<string, unknown>>,
  options: {
    readonly removed: readonly string[];
    readonly ownerId?: string;
    /** The author keys the comment is filed under (domain/author-tally.ts `feedKeysOf`). */
    readonly feedKeys?: readonly string[];
    /** Refuse a comment already taken from its author (a placeholder or anonymised: it has `deletedAt`). */
    readonly once?: true;
  },
): TransactItem[] {
  const { removed, ownerId, feedKeys = [], once } = options;
  const sets = Object.entries(shown);
  return [
    {
      Update: {
        TableName: tableName,
        Key: keys.comment(comment),
        UpdateExpression:
          `SET ${sets.map((_, i) => `#a${i} = :a${i}`).join(', ')}` +
          ` REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}`,
        // Only the comment as read (still its owner's, when one is named): a status change meanwhile (its counters
        // were read with it) or a placeholder made already (no account id left) refuses it, and no bare item is
        // created.
        ConditionExpression:
          `attribute_exists(pk) AND #status = :read${ownerId === undefined ? '' : ' AND #owner = :owner'}` +
          (once ? ' AND attribute_not_exists(#deletedAt)' : ''),
        ExpressionAttributeNames: {
          ...Object.fromEntries(sets.map(([name], i) => [`#a${i}`, name])),
          ...Object.fromEntries(removed.map((name, i) => [`#r${i}`, name])),
          '#status': 'status',
          ...(ownerId === undefined ? {} : { '#owner': userIdAttribute }),
          ...(once ? { '#deletedAt': 'deletedAt' } : {}),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(sets.map(([, value], i) => [`:a${i}`, value])),
          ':read': comment.status,
          ...(ownerId === undefined ? {} : { ':owner': ownerId }),
        },
      },
    },
    ...(comment.contentHash
      ? [{ Delete: { TableName: tableName, Key: keys.duplicate(comment.url, comment.contentHash) } }]
      : []),
    ...feedKeys.map((authorKey) => authorFeedDelete(tableName, authorKey, comment.id)),
  ];
}
