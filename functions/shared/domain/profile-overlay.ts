import type { AuthorProfile } from './account.js';
import type { AvatarFor } from './avatar.js';
import type { ListedComment } from './comment.js';

/** The authors' current profiles a presentation overlays, by account id (table/author-profiles.ts reads them). */
export type AuthorProfiles = ReadonlyMap<string, AuthorProfile>;

/**
 * The current public profiles of the accounts `ids` (duplicates allowed), by id; an id with no account (deleted)
 * has no entry. One batched read (table/author-profiles.ts), cached per instance (caches/cached-author-profiles.ts).
 */
export type ReadAuthorProfiles = (ids: readonly string[]) => Promise<AuthorProfiles>;

/** Who wrote a comment, as the widget shows it. */
export interface PresentedAuthor {
  nick: string;
  link: string;
  avatar: string;
  /** `administrator` or `guest`: the widgets show a badge (a banned account's comments show none). */
  type?: 'administrator' | 'guest';
  /** A badge an administrator gave the account. */
  label?: string;
  /** The author's account id (Waline's `user_id`): the widget shows its owner controls when it is the reader's. */
  user_id?: string;
}

/**
 * The author of `comment` as presented: for a comment written by an account whose profile is in `authors`, that
 * account's current name, link, avatar (its own, or the one computed from its address), type and label, as
 * Waline's `formatCmt` overlays them; otherwise the name, link and mail it was stored with. The account's address
 * is used only to compute the avatar, never shown.
 */
export function presentAuthor(
  comment: Pick<ListedComment, 'nick' | 'mail' | 'link' | 'type' | 'userId'>,
  avatarFor: AvatarFor,
  authors: AuthorProfiles | undefined,
): PresentedAuthor {
  const userId = comment.userId;
  const profile = userId === undefined ? undefined : authors?.get(userId);
  if (profile === undefined) {
    return {
      nick: comment.nick,
      link: comment.link,
      avatar: avatarFor(comment),
      ...(comment.type === 'administrator' ? { type: comment.type } : {}),
      ...(userId === undefined ? {} : { user_id: userId }),
    };
  }
  return {
    nick: profile.displayName,
    link: profile.link ?? '',
    avatar: profile.avatar ?? avatarFor({ nick: profile.displayName, mail: profile.email }),
    ...(profile.type === 'banned' ? {} : { type: profile.type }),
    ...(profile.label === undefined ? {} : { label: profile.label }),
    user_id: profile.id,
  };
}

/** The distinct account ids of the authors of `comments`: what one batched profile read asks for. */
export function authorIdsOf(comments: Iterable<Pick<ListedComment, 'userId'> | undefined>): string[] {
  const ids = new Set<string>();
  for (const comment of comments) if (comment?.userId !== undefined) ids.add(comment.userId);
  return [...ids];
}

/**
 * The profiles of the account authors of `comments` (parents included, for `reply_user`), in one call of
 * `read`; none, and no read, when no comment was written by an account.
 */
export async function authorsOf(
  read: ReadAuthorProfiles,
  comments: Iterable<Pick<ListedComment, 'userId'> | undefined>,
): Promise<AuthorProfiles> {
  const ids = authorIdsOf(comments);
  return ids.length === 0 ? new Map() : read(ids);
}
