import type { CommentStatus, ListedComment, StoredComment } from '../domain/comment.js';
import { recentIndexAttributes } from './table-definition.js';
import { attributes, entities, keys, likeSortValue, rootsPartition, statusPartition } from './keys.js';
import { storedCount } from './stored-count.js';

/** Attributes read back by list and recent: the stored comment minus ua and ipHash (what the recent index copies). */
export const listedAttributes = recentIndexAttributes;

/**
 * Attributes read back from the base table (threads, a parent): the listed ones and `type`, which the
 * recent index does not copy (adding it there would mean rebuilding that index).
 */
export const threadAttributes = [...listedAttributes, 'type'] as const;

/** The thread attributes but the texts (`orig`, `html`): a comment's shell, for a list with no room left. */
export const shellAttributes = threadAttributes.filter((name) => name !== 'orig' && name !== 'html');

/**
 * Set (true) on a reply whose parent's author has been told of it: stored approved (its submission event), or
 * approved by a moderator (its approval event). A later approval (after a move back to waiting, or an approve
 * link used again) then writes no event: nobody is told twice of one reply.
 */
export const replyNotifiedAttribute = 'replyNotified';

/**
 * The index attributes of a comment in `status`: the recent index's status partition for every comment,
 * and for a root its roots-index partition (by status, pinned or not).
 */
export function indexAttributes(comment: {
  url: string;
  id: string;
  rid?: string;
  status: CommentStatus;
  sticky: boolean;
}): Record<string, string> {
  return {
    [attributes.recentPk]: statusPartition(comment.status),
    [attributes.recentSk]: comment.id,
    ...(comment.rid === undefined
      ? { [attributes.rootsPk]: rootsPartition(comment.url, comment.status, comment.sticky) }
      : {}),
  };
}

/**
 * The DynamoDB item of a comment, at the key its status gives it (keys.ts). Every comment carries the
 * recent-index keys of its status, so the approved partition is the site's recent comments and the
 * others are the moderation queues; roots also carry their roots-index partition and their like sort
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
  return {
    id: text(attributes.commentId),
    url: text('url'),
    ...(pid !== undefined ? { pid } : {}),
    ...(rid !== undefined ? { rid } : {}),
    ...(optional('ipHash') !== undefined ? { ipHash: optional('ipHash') as string } : {}),
    ...(item.type === 'administrator' ? { type: 'administrator' as const } : {}),
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
  };
}
