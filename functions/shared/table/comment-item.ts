import type { CommentStatus, ListedComment, StoredComment } from '../domain/comment.js';
import { asHeldReason } from '../domain/held-reason.js';
import { cardAttributes, legacyRecentIndex } from './table-definition.js';
import { attributes, entities, keys, likeSortValue, rootsPartition, statusPartition } from './keys.js';
import { storedCount } from './stored-count.js';

/** A comment's texts: the raw text and its rendered HTML, the only large part of a comment. */
export const textAttributes = ['orig', 'html'] as const;

/**
 * The author's account id (Waline's `user_id`), on the item only: the card indexes' projection is fixed and does
 * not copy it, so readers of cards take it from the table with the texts (card-index.ts `withTexts`).
 */
export const userIdAttribute = 'userId';

/**
 * A comment's region (`addr`), on its item only: the card indexes do not copy it (their projection is fixed), so
 * the lists that read items from the table show it, and the card-only reads (recent, the queues) do not.
 */
export const regionAttribute = 'addr';

/**
 * Attributes read back by lists: the card (what the card indexes copy), the texts, the author's account id and
 * the region; never the user agent.
 */
export const listedAttributes = [
  ...cardAttributes,
  ...textAttributes,
  userIdAttribute,
  regionAttribute,
] as const;

/**
 * Why a comment was held (held-reason.ts), on its item only: the card indexes do not copy it (their projection
 * is fixed), so moderation reads it with the texts, from the table.
 */
export const heldBecauseAttribute = 'heldBecause';

/** Attributes read back from the base table (threads, a parent): the listed ones. */
export const threadAttributes = listedAttributes;

/** What one comment's texts weigh as stored: the UTF-8 bytes of `orig` and `html`. */
export function textBytesOf(comment: { readonly orig: string; readonly html: string }): number {
  return Buffer.byteLength(comment.orig) + Buffer.byteLength(comment.html);
}

/** The thread attributes but the texts (`orig`, `html`): a comment's shell, for a list with no room left. */
export const shellAttributes = threadAttributes.filter((name) => name !== 'orig' && name !== 'html');

/**
 * Set (true) on a reply whose parent's author has been told of it: stored approved (its submission event), or
 * approved by a moderator (its approval event). A later approval (after a move back to waiting, or an approve
 * link used again) then writes no event: nobody is told twice of one reply.
 */
export const replyNotifiedAttribute = 'replyNotified';

/**
 * The index attributes of a comment in `status`: the keys of its card index (approved-by-time when
 * approved, held-by-time when waiting or spam), and for a root its roots-index partition (by status,
 * pinned or not).
 */
export function indexAttributes(comment: {
  url: string;
  id: string;
  rid?: string;
  status: CommentStatus;
  sticky: boolean;
}): Record<string, string> {
  const [partition, sort] =
    comment.status === 'approved'
      ? [attributes.approvedPk, attributes.approvedSk]
      : [attributes.heldPk, attributes.heldSk];
  return {
    [partition]: statusPartition(comment.status),
    [sort]: comment.id,
    ...(comment.rid === undefined
      ? { [attributes.rootsPk]: rootsPartition(comment.url, comment.status, comment.sticky) }
      : {}),
  };
}

/**
 * The index attributes a comment in `status` must not carry: the other card index's keys (a status
 * change moves a comment from one to the other), and layout 2's `recent` keys (legacyRecentIndex).
 */
export function staleIndexAttributes(status: CommentStatus): string[] {
  return [
    ...(status === 'approved'
      ? [attributes.heldPk, attributes.heldSk]
      : [attributes.approvedPk, attributes.approvedSk]),
    legacyRecentIndex.partitionKey,
    legacyRecentIndex.sortKey,
  ];
}

/**
 * The DynamoDB item of a comment, at the key its status gives it (keys.ts). Every comment carries the
 * card-index keys of its status (approved-by-time: the site's recent comments; held-by-time: the
 * moderation queues) and `textBytes`, what its texts weigh; roots also carry their roots-index partition and their like sort
 * value (which only a vote moves after this, with `ADD`). `contentHash` names its duplicate mark, removed with
 * the comment.
 */
export function toCommentItem(comment: StoredComment, contentHash?: string): Record<string, unknown> {
  const { id, ...fields } = comment;
  return {
    ...keys.comment(comment),
    entity: entities.comment,
    [attributes.commentId]: id,
    ...fields,
    ...(contentHash ? { contentHash } : {}),
    [attributes.textBytes]: textBytesOf(comment),
    ...indexAttributes(comment),
    ...(comment.rid === undefined ? { [attributes.likeSort]: likeSortValue(comment.like, id) } : {}),
  };
}

/** Reads a comment item (or its projection) back into the domain shape. */
export function fromCommentItem(item: Record<string, unknown>): ListedComment {
  const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : '');
  const optional = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : undefined);
  const pid = optional('pid');
  const rid = optional('rid');
  const heldBecause = asHeldReason(item[heldBecauseAttribute]);
  const addr = optional(regionAttribute);
  return {
    id: text(attributes.commentId),
    url: text('url'),
    ...(pid !== undefined ? { pid } : {}),
    ...(rid !== undefined ? { rid } : {}),
    ...(optional('ipHash') !== undefined ? { ipHash: optional('ipHash') as string } : {}),
    ...(item.type === 'administrator' ? { type: 'administrator' as const } : {}),
    ...(optional(userIdAttribute) !== undefined ? { userId: optional(userIdAttribute) as string } : {}),
    nick: text('nick'),
    mail: text('mail'),
    link: text('link'),
    browser: text('browser'),
    os: text('os'),
    orig: text('orig'),
    html: text('html'),
    status: (optional('status') ?? 'approved') as CommentStatus,
    like: storedCount(item.like),
    sticky: item.sticky === true,
    insertedAt: Number(item.insertedAt) || 0,
    ...(heldBecause === undefined ? {} : { heldBecause }),
    ...(addr ? { addr } : {}),
  };
}
