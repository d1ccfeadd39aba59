import { type AuthorProfiles, type PresentedAuthor, presentAuthor } from './profile-overlay.js';
import type { AvatarFor } from './avatar.js';
import type { ListedComment } from './comment.js';

/** How comments are shown to the public. */
export interface PresentOptions {
  /** The avatar URL of an author. */
  readonly avatarFor: AvatarFor;
  /** False when DISABLE_USERAGENT is set: browser and os are left out. */
  readonly showUserAgent: boolean;
  /** Legacy (v2 client) routes also carry `insertedAt`. */
  readonly legacy: boolean;
  /** The current profiles of the page's account authors, overlaid on their comments (profile-overlay.ts). */
  readonly authors?: AuthorProfiles;
}

/** How a deployment shows comments: the options but for the route-dependent `legacy` flag and the page's authors. */
export type Presentation = Omit<PresentOptions, 'legacy' | 'authors'>;

/** A comment as the widget receives it. Never carries mail, IP or user agent. */
export interface PublicComment extends PresentedAuthor {
  objectId: string;
  comment: string;
  orig: string;
  browser?: string;
  os?: string;
  status: string;
  like: number;
  time: number;
  sticky?: true;
  /** The author's level (`LEVELS`): the last index whose threshold their approved comments reach. */
  level?: number;
  /** The region the comment was written from (a country), when it was found. */
  addr?: string;
  pid?: string;
  rid?: string;
  url?: string;
  insertedAt?: string;
  children?: PublicComment[];
  reply_user?: { nick: string; link: string; avatar: string };
  /** The answer had no room for this comment's text: `comment` is a short note and `orig` is empty. */
  textOmitted?: true;
  /** The thread has replies this answer leaves out (too many, or no room left). */
  moreReplies?: true;
}

/**
 * The public shape of a stored comment. Roots carry no `pid`/`rid` keys at all: the widget drops a
 * freshly posted root whose response has a `rid` key.
 */
export function presentComment(
  comment: ListedComment,
  options: PresentOptions,
  extra: { withUrl?: boolean } = {},
): PublicComment {
  return {
    objectId: comment.id,
    comment: comment.html,
    orig: comment.orig,
    // Who wrote it: as stored, or an account author's current profile (profile-overlay.ts).
    ...presentAuthor(comment, options.avatarFor, options.authors),
    ...(options.showUserAgent ? { browser: comment.browser, os: comment.os } : {}),
    status: comment.status,
    like: comment.like,
    time: comment.insertedAt,
    ...(comment.sticky ? { sticky: true as const } : {}),
    ...(comment.pid !== undefined ? { pid: comment.pid } : {}),
    ...(comment.rid !== undefined ? { rid: comment.rid } : {}),
    ...(extra.withUrl ? { url: comment.url } : {}),
    ...(options.legacy ? { insertedAt: new Date(comment.insertedAt).toISOString() } : {}),
    ...(comment.textLeftOut ? { textOmitted: true as const } : {}),
    ...(comment.addr ? { addr: comment.addr } : {}),
  };
}

/** The `reply_user` of a reply: who it answers, as the widget shows it. */
export function presentReplyUser(
  parent: ListedComment,
  options: PresentOptions,
): PublicComment['reply_user'] {
  const { nick, link, avatar } = presentAuthor(parent, options.avatarFor, options.authors);
  return { nick, link, avatar };
}
