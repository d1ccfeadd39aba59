import { feedQuerySchema } from '../shared/domain/comment-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { renderCommentFeed } from '../shared/domain/rss-feed.js';
import { conditionalAnswer } from '../shared/http/conditional-get.js';
import type { Router } from '../shared/http/http-function.js';
import { type ApiRequest, parseInput, singleQuery } from '../shared/http/request.js';
import type { CommentRepository } from '../shared/table/comment-repository.js';
import type { AuthorFeed } from '../shared/table/author-feed.js';

/** An account id as `user_id` names it: what ids are made of (ULIDs, migrated ids), bounded. */
const userIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** The account `user_id` names, checked to exist; undefined when the request names none. */
async function feedUserId(request: ApiRequest, authorFeed: AuthorFeed): Promise<string | undefined> {
  const given = request.queryAll('user_id');
  if (given.length === 0) return undefined;
  const [userId] = given;
  if (given.length > 1 || userId === undefined || !userIdPattern.test(userId)) {
    throw new AppError('invalid_input', translate(request.lang, 'userFeedBadUserId'), {
      user_id: 'must be 1 to 64 letters, digits, - or _, given once',
    });
  }
  if (!(await authorFeed.accountExists(userId))) {
    throw new AppError('not_found', translate(request.lang, 'userFeedUnknownUser', { id: userId }), {
      user_id: 'no user has this id',
    });
  }
  return userId;
}

/**
 * How long a feed reader (or a cache on the way) may reuse a feed without asking again; after that it
 * asks with the ETag, and a feed that has not changed costs a 304 without a body.
 */
const feedMaxAgeSeconds = 60;

/** The site's address and name, as configured (SITE_URL, SITE_NAME). */
export interface FeedSite {
  readonly url?: string;
  readonly name?: string;
}

/** A Host header as API Gateway or the local server passes it: a name or an address, and a port. */
const hostPattern = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** This server's own address, as the request reached it: the feed's channel link without SITE_URL. */
function serverUrl(request: ApiRequest): string {
  const host = request.host !== undefined && hostPattern.test(request.host) ? request.host : 'localhost';
  // API Gateway says https here, the local server http; the client cannot forge it past either.
  const proto = request.header('x-forwarded-proto') === 'http' ? 'http' : 'https';
  return `${proto}://${host}`;
}

/**
 * `GET /api/comment/rss` (and `/comment/rss`): an RSS 2.0 feed of the site's newest approved comments, or
 * with `path` of one page's (`count`, 20 by default, up to 50). The site's feed is the recent read (one
 * Query of the recent index); a page's is one Query of its partition (table/page-feed.ts); both are
 * cached per instance like the list (caches/cached-reads.ts). The answer carries an ETag, the hash of
 * the feed, and a request whose If-None-Match names it gets a 304 with no body.
 *
 * With `user_id` (the widget's link on a signed-in user's own comments), the feed of that account's newest
 * approved comments (table/author-feed.ts: one Query of its feed entries, one batch read of the comments); a
 * malformed id is a 400, an id no account has a 404.
 */
export function createCommentFeed({
  comments,
  site,
  authorFeed,
}: {
  readonly comments: Pick<CommentRepository, 'recent' | 'pageFeed'>;
  readonly site: FeedSite;
  readonly authorFeed: AuthorFeed;
}): Router {
  return async (request) => {
    const userId = await feedUserId(request, authorFeed);
    // An empty path is no page: the site's feed.
    const { path, count } = parseInput(
      feedQuerySchema,
      {
        path: singleQuery(request, 'path') || undefined,
        count: singleQuery(request, 'count') || undefined,
      },
      request.lang,
    );
    const stored =
      userId !== undefined
        ? await authorFeed.newest(userId, count)
        : path === undefined
          ? await comments.recent(count)
          : (await comments.pageFeed(path)).slice(0, count);
    const server = serverUrl(request);
    // The feed's own address names what it was asked for, in a canonical spelling.
    const query = new URLSearchParams();
    if (userId !== undefined) query.set('user_id', userId);
    if (path !== undefined) query.set('path', path);
    if (request.query('count')) query.set('count', String(count));
    const body = renderCommentFeed({
      comments: stored,
      lang: request.lang,
      siteUrl: site.url,
      siteName: site.name ?? (site.url ? new URL(site.url).host : server.replace(/^https?:\/\//, '')),
      ...(path === undefined ? {} : { path }),
      ...(userId === undefined ? {} : { userId }),
      serverUrl: server,
      self: `${server}${request.path}${query.size > 0 ? `?${query}` : ''}`,
    });
    return conditionalAnswer(request, {
      body,
      contentType: 'application/rss+xml; charset=utf-8',
      maxAgeSeconds: feedMaxAgeSeconds,
    });
  };
}
