import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { type CommentStatus, isRoot, type ListedComment } from '../domain/comment.js';
import { commentEvent, outboxPut } from './outbox-event.js';
import {
  indexAttributes,
  replyNotifiedAttribute,
  staleIndexAttributes,
  textBytesOf,
  userIdAttribute,
} from './comment-item.js';
import { combine, contribution, counterUpdates, noDelta } from './counter-deltas.js';
import { authorCountUpdates, authorFeedDelete } from './author-count-items.js';
import { type AuthorTally, feedKeysOf } from '../domain/author-tally.js';
import { attributes, entities, keys } from './keys.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * A comment as moderation reads it: the listed fields, its duplicate-mark hash, and (a reply) whether its
 * parent's author has been told of it already (comment-item.ts, replyNotifiedAttribute).
 */
export type ModeratedComment = ListedComment & {
  readonly contentHash?: string;
  readonly replyNotified?: boolean;
};

/** What an administrator changes of one comment at once: any of its text, its pin and its status. */
export interface ModerationChange {
  /** The new text and its rendered HTML (the author's name, mail and link are never changed). */
  readonly text?: { readonly orig: string; readonly html: string };
  readonly sticky?: boolean;
  readonly status?: CommentStatus;
  /**
   * An author's own edit: the account id the comment must still carry. A comment taken from its author meanwhile
   * (the placeholder of their delete, or anonymised by an erase, which keeps the text) refuses it.
   */
  readonly ownerId?: string;
}

/** The status `change` leaves `comment` in. */
const finalStatus = (comment: ListedComment, change: ModerationChange) => change.status ?? comment.status;

/**
 * True when `change` moves `comment` to another key: a reply crossing between visible (`C#`) and held
 * (`H#`). Its whole item then moves, so the caller reads it first (consistently) for
 * {@link moderationItems}.
 */
export function movesKey(comment: ListedComment, change: ModerationChange): boolean {
  return keys.comment(comment).sk !== keys.comment({ ...comment, status: finalStatus(comment, change) }).sk;
}

/**
 * The items of the one TransactWriteItems that applies `change` to `comment` as it was read: the comment
 * (updated in place, or, for a reply changing side, deleted at its key and put at the new one from
 * `stored`, the item as read), then the page and site counters its status change moves (none when it
 * keeps its status). Every write is conditioned on the status it was read with, so a concurrent change
 * refuses the whole transaction and nothing is half applied. The approval of a held reply whose parent's author
 * was never told of it also writes its outbox event (`approval`: its id and time), so its reply notice goes
 * out exactly when it becomes visible, and marks the reply told: approving it again (after a move back to
 * waiting, or from an approve link used again) tells nobody. A root's approval writes no event (the rules
 * tell nobody of it). Any approval of a comment whose mail is an address (`approval.addressHash`, its keyed
 * hash) also marks that address trusted (`COMMENT_AUDIT=first`), in the same transaction, and marking one spam
 * withdraws that trust (its next comment waits again). A change into or out of `approved` moves the level
 * counter of the comment's author (`author`, domain/author-tally.ts), in the same transaction. Empty when there is
 * nothing to change.
 */
export function moderationItems(
  tableName: string,
  comment: ModeratedComment,
  change: ModerationChange,
  stored?: Record<string, unknown>,
  approval?: { readonly eventId: string; readonly at: number; readonly addressHash?: string },
  author?: AuthorTally,
): TransactItem[] {
  const status = finalStatus(comment, change);
  const sticky = change.sticky ?? comment.sticky;
  const statusChanges = status !== comment.status;
  const root = isRoot(comment);
  // An edit replaces only the text it read, and an author's only on a comment still theirs: another edit
  // meanwhile, the placeholder of a delete or an erase's anonymising refuses it (no lost edit, and no text back
  // on a comment taken away).
  const edits = change.text !== undefined;
  const owned: Record<string, string> = change.ownerId === undefined ? {} : { '#owner': userIdAttribute };
  const ownerValue: Record<string, string> = change.ownerId === undefined ? {} : { ':owner': change.ownerId };
  const ownedCondition = change.ownerId === undefined ? '' : ' AND #owner = :owner';
  // Only a reply's approval tells anyone (its parent's author), and only once; a reply's approval always
  // moves it (held to visible), so the move below carries the mark and its condition.
  const event =
    statusChanges && status === 'approved' && !root && comment.replyNotified !== true && approval
      ? commentEvent('comment.approved', approval.eventId, approval.at, { ...comment, status })
      : undefined;
  const counters = [
    ...(statusChanges
      ? counterUpdates(
          tableName,
          comment.url,
          combine(contribution(status, root), contribution(comment.status, root), -1),
          // An approval dates the article from the comment's own time, not the approval's: the migration and
          // the import can only know that one (no approval time is stored), so all three agree, and a comment
          // left waiting for days does not move the article's close further out than its discussion began.
          status === 'approved' ? comment.insertedAt : undefined,
        )
      : []),
    ...(event ? [outboxPut(tableName, event)] : []),
    ...(statusChanges && approval ? trustChange(tableName, status, approval) : []),
    ...(statusChanges && author
      ? authorCountUpdates(tableName, [{ tally: author, delta: approvedDelta(comment.status, status) }])
      : []),
  ];
  // The card indexes follow the status, a root's roots index its status and pin.
  const index =
    statusChanges || change.sticky !== undefined ? indexAttributes({ ...comment, status, sticky }) : {};
  // A status change takes the comment out of the other card index (and layout 2's recent index).
  const stale = statusChanges ? staleIndexAttributes(status) : [];
  // New text, new weight: the cards tell readers what the texts cost.
  const text = change.text
    ? { orig: change.text.orig, html: change.text.html, [attributes.textBytes]: textBytesOf(change.text) }
    : {};

  if (movesKey(comment, change)) {
    if (!stored) throw new Error(`moving comment ${comment.id} needs its item as read`);
    return [
      {
        Delete: {
          TableName: tableName,
          Key: keys.comment(comment),
          // Moved as read: a status change, a like, a pin or an edit meanwhile refuses the move (try
          // again), so the Put below never writes back what another change replaced. An approval that tells
          // the parent's author is refused too if another approval told them meanwhile (and the reply went
          // back to waiting since): the status alone cannot see that.
          // An edit's text is the one the caller read (`stored` was read after it).
          ConditionExpression: `#status = :previous AND ${readAs('#like', stored.like)} AND ${readAs('#sticky', stored.sticky)} AND ${readAs('#orig', edits ? comment.orig : stored.orig)}${ownedCondition}${event ? ' AND attribute_not_exists(#replyNotified)' : ''}`,
          ExpressionAttributeNames: {
            '#status': 'status',
            '#like': 'like',
            '#sticky': 'sticky',
            '#orig': 'orig',
            ...owned,
            ...(event ? { '#replyNotified': replyNotifiedAttribute } : {}),
          },
          ExpressionAttributeValues: {
            ':previous': comment.status,
            ...valueAs('#like', stored.like),
            ...valueAs('#sticky', stored.sticky),
            ...valueAs('#orig', edits ? comment.orig : stored.orig),
            ...ownerValue,
          },
        },
      },
      {
        Put: {
          TableName: tableName,
          Item: {
            ...Object.fromEntries(Object.entries(stored).filter(([name]) => !stale.includes(name))),
            ...keys.comment({ ...comment, status }),
            status,
            ...text,
            ...(change.sticky === undefined ? {} : { sticky }),
            ...index,
            // The mark moves with the item (`stored`); an approval that tells the parent's author sets it.
            ...(event ? { [replyNotifiedAttribute]: true } : {}),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...counters,
    ];
  }

  const sets = Object.entries({
    ...(statusChanges ? { status } : {}),
    ...text,
    ...(change.sticky === undefined ? {} : { sticky }),
    ...index,
  });
  if (sets.length === 0) return [];
  const rootsIndexed = root && Object.keys(index).length > 0;
  return [
    {
      Update: {
        TableName: tableName,
        Key: keys.comment(comment),
        UpdateExpression:
          `SET ${sets.map((_, i) => `#a${i} = :a${i}`).join(', ')}` +
          (stale.length > 0 ? ` REMOVE ${stale.map((_, i) => `#r${i}`).join(', ')}` : ''),
        // Never create a bare item for a comment deleted meanwhile, nor count or index it from a stale status;
        // a root's roots-index partition is rebuilt from its pin as read, so a pin meanwhile refuses it too.
        ConditionExpression:
          `attribute_exists(pk) AND #status = :read${rootsIndexed ? ` AND ${pinnedAs(comment.sticky)}` : ''}` +
          (edits ? ' AND #orig = :readorig' : '') +
          ownedCondition,
        ExpressionAttributeNames: {
          ...Object.fromEntries(sets.map(([name], i) => [`#a${i}`, name])),
          ...Object.fromEntries(stale.map((name, i) => [`#r${i}`, name])),
          '#status': 'status',
          ...(rootsIndexed ? { '#sticky': 'sticky' } : {}),
          ...(edits ? { '#orig': 'orig' } : {}),
          ...owned,
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(sets.map(([, value], i) => [`:a${i}`, value])),
          ':read': comment.status,
          ...(rootsIndexed ? valueAs('#sticky', comment.sticky) : {}),
          ...(edits ? { ':readorig': comment.orig } : {}),
          ...ownerValue,
        },
      },
    },
    ...counters,
  ];
}

/** What a move from `from` to `to` does to the author's approved count: +1, -1 or 0. */
const approvedDelta = (from: CommentStatus, to: CommentStatus) =>
  Number(to === 'approved') - Number(from === 'approved');

/**
 * The items of one TransactWriteItems that deletes `comments` (all of page `url`): for each, the
 * comment, its duplicate mark, its feed entries under its author's keys and a tombstone stamped `deletedAt`; then
 * the page and site counters, moved by what the comments counted for as read, and the level counters of the
 * approved ones' authors (`authorOf`: domain/author-tally.ts). Each delete is conditioned on the status it was
 * read with, so a concurrent status change refuses the whole transaction and the counters stay exact.
 */
export function removalItems(
  tableName: string,
  url: string,
  comments: readonly ModeratedComment[],
  deletedAt: number,
  authorOf?: (comment: ModeratedComment) => AuthorTally | undefined,
): TransactItem[] {
  const delta = comments.reduce(
    (sum, comment) => combine(sum, contribution(comment.status, isRoot(comment)), -1),
    noDelta,
  );
  return [
    ...comments.flatMap((comment): TransactItem[] => [
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
      // The duplicate mark goes: the same text may be posted again.
      ...(comment.contentHash
        ? [{ Delete: { TableName: tableName, Key: keys.duplicate(comment.url, comment.contentHash) } }]
        : []),
      ...feedDeleteOf(tableName, comment, authorOf),
      {
        Put: {
          TableName: tableName,
          // An import run again skips this id, rather than bring the comment back (a few bytes per
          // deleted comment, kept for good).
          Item: { ...keys.tombstone(comment.url, comment.id), entity: entities.tombstone, deletedAt },
        },
      },
    ]),
    ...counterUpdates(tableName, url, delta),
    ...authorCountUpdates(
      tableName,
      comments.flatMap((comment) => {
        const tally = comment.status === 'approved' ? authorOf?.(comment) : undefined;
        return tally ? [{ tally, delta: -1 }] : [];
      }),
    ),
  ];
}

/** The deletes of `comment`'s feed entries, when it has an author (`authorOf`, of any status). */
function feedDeleteOf(
  tableName: string,
  comment: ModeratedComment,
  authorOf: ((comment: ModeratedComment) => AuthorTally | undefined) | undefined,
): TransactItem[] {
  return feedKeysOf(authorOf?.(comment)).map((authorKey) =>
    authorFeedDelete(tableName, authorKey, comment.id),
  );
}

/**
 * What a status change does to the trust of the comment's address: an approval puts its mark, stamped with the
 * approval's time; spam deletes it; a move to waiting leaves it. Unconditional: a second approval only moves
 * `at`, a mark already gone is deleted again harmlessly, and a retried transaction writes the same.
 */
function trustChange(
  tableName: string,
  status: CommentStatus,
  change: { readonly addressHash?: string; readonly at: number },
): TransactItem[] {
  if (!change.addressHash) return [];
  const key = keys.trust(change.addressHash);
  if (status === 'approved') {
    return [{ Put: { TableName: tableName, Item: { ...key, entity: entities.trust, at: change.at } } }];
  }
  return status === 'spam' ? [{ Delete: { TableName: tableName, Key: key } }] : [];
}

/** The value placeholder of attribute placeholder `#name`. */
const placeholder = (name: string) => `:read${name.slice(1)}`;

/** A condition that attribute `#name` still holds `value` as read (absent when it was absent). */
function readAs(name: string, value: unknown): string {
  return value === undefined ? `attribute_not_exists(${name})` : `${name} = ${placeholder(name)}`;
}

/** The value of {@link readAs}'s condition, if it needs one. */
function valueAs(name: string, value: unknown): Record<string, unknown> {
  return value === undefined ? {} : { [placeholder(name)]: value };
}

/** A condition that a comment's pin is still `sticky` as read (an item without one is unpinned). */
function pinnedAs(sticky: boolean): string {
  return sticky ? '#sticky = :readsticky' : '(attribute_not_exists(#sticky) OR #sticky = :readsticky)';
}
