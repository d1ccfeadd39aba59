import type { AvatarFor } from '../shared/domain/avatar.js';
import { levelOf } from '../shared/domain/levels.js';
import { userWallQuerySchema } from '../shared/domain/user-wall-schemas.js';
import { bare, envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput, singleQuery } from '../shared/http/request.js';
import type { AuthorCounts, WallAuthor } from '../shared/table/author-counts.js';
import { escapeHtml } from './pages/page-shell.js';

/**
 * One author on the user wall, in Waline's shape. Never a mail. Its texts are HTML-escaped: the widget's
 * `UserList` writes them into `innerHTML` as they come (a nick is free text), and shows the escaped text as typed.
 */
export interface WallEntry {
  count: number;
  level?: number;
  nick: string;
  link: string;
  avatar: string;
  label?: string;
}

/**
 * What the wall shows of one author: an account's current profile (its display name, link, label, and its avatar
 * or the one computed from its address), or what an anonymous author's last counted comment showed. A banned
 * account, and an account deleted since, are left off.
 */
export function wallEntry(
  author: WallAuthor,
  options: { readonly avatarFor: AvatarFor; readonly levels: readonly number[] | undefined },
): WallEntry | undefined {
  const level = options.levels ? { level: levelOf(author.count, options.levels) } : {};
  const { profile, display } = author;
  if (profile) {
    if (profile.type === 'banned') return undefined;
    return {
      count: author.count,
      ...level,
      nick: escapeHtml(profile.displayName),
      link: escapeHtml(profile.link ?? ''),
      avatar: escapeHtml(
        profile.avatar ?? options.avatarFor({ nick: profile.displayName, mail: profile.email }),
      ),
      ...(profile.label ? { label: escapeHtml(profile.label) } : {}),
    };
  }
  if (author.authorKey.startsWith('user:') || !display) return undefined;
  return {
    count: author.count,
    ...level,
    nick: escapeHtml(display.nick),
    link: escapeHtml(display.link),
    avatar: escapeHtml(display.avatar),
  };
}

/**
 * `GET /api/user?pageSize=N` (and `GET /user`), public: the user wall, the `N` authors with the most approved
 * comments (20 by default, at most 50), most first, as the widget's `UserList` asks for it. A bounded read: one
 * Query of the wall's partition (the author counters, by count) and one BatchGetItem of those counters and their
 * accounts, cached per instance (caches/cached-author-counts.ts). An author left off (banned, deleted) is not
 * replaced: the wall may be shorter than `N`.
 */
export function createUserWall({
  authorCounts,
  avatarFor,
  levels,
}: {
  readonly authorCounts: Pick<AuthorCounts, 'wall'>;
  readonly avatarFor: AvatarFor;
  readonly levels: readonly number[] | undefined;
}): Router {
  return async (request) => {
    const { pageSize } = parseInput(
      userWallQuerySchema,
      { pageSize: singleQuery(request, 'pageSize') || undefined },
      request.lang,
    );
    const authors = await authorCounts.wall(pageSize);
    const data = authors.flatMap((author) => wallEntry(author, { avatarFor, levels }) ?? []);
    return request.legacy ? bare(data) : envelope(data);
  };
}
