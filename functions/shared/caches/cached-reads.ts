import type { ListedComment } from '../domain/comment.js';
import { limits } from '../domain/limits.js';
import type { FeedComment } from '../domain/rss-feed.js';
import type { CommentRepository } from '../table/comment-repository.js';
import type { StoredPage } from '../table/list-page.js';
import type { ModerationRepository } from '../table/moderation-repository.js';
import { createReadCache } from './read-cache.js';

/** The repositories whose reads are cached and whose writes clear what they change. */
export interface CachedRepositories {
  readonly comments: CommentRepository;
  readonly moderation: ModerationRepository;
}

/** Bytes kept across all cached pages: a tenth of a 512 MB function. */
const maxPageBytes = 48 * 1024 * 1024;
/** Bytes kept for the cached recent list (the newest 50, whatever `count` was asked for). */
const maxRecentBytes = 8 * 1024 * 1024;
/** Bytes kept across all cached page feeds (one per page, 50 comments at most). */
const maxFeedBytes = 8 * 1024 * 1024;
/** What the cached recent read holds: the most any `count` asks for. */
const recentRead = Math.max(limits.recentCountMax, limits.feedItemsMax);
/** Articles remembered as written to. */
const maxWrittenArticles = 10_000;
/** What a listed comment holds besides its text and HTML: ids, names, link, flags. */
const commentOverheadBytes = 512;

/** About what a comment costs in memory: UTF-16 text and HTML, plus the rest. */
const weighComment = (comment: ListedComment) =>
  2 * (comment.orig.length + comment.html.length) + commentOverheadBytes;

const weighList = (list: readonly ListedComment[]) => list.reduce((sum, c) => sum + weighComment(c), 0);

const weighFeed = (feed: readonly FeedComment[]) =>
  feed.reduce((sum, comment) => sum + 2 * comment.html.length + commentOverheadBytes, 0);

const weighPage = (page: StoredPage) =>
  page.threads.reduce((sum, thread) => sum + weighComment(thread.root) + weighList(thread.replies), 0);

/**
 * Serves visitors' pages of an article, a page's feed and the site's recent comments from a copy read
 * less than `ttlMs` ago, so a busy page costs one read per `ttlMs` per warm instance instead of one per
 * view. These reads are eventually consistent anyway (DynamoDB's replicas and its GSIs lag by up to about
 * a second), so a lifetime of that order adds little staleness. A copy's age counts from when its read
 * finished.
 *
 * Every write made through these repositories forgets what it changes. For `ttlMs` after a write, the
 * article's pages and feed are not cached and are read consistently (all but the roots index, a GSI,
 * which cannot be), and the recent list is not cached at all. Other instances see a write within
 * `ttlMs`. Administrators' pages are never cached. The pages hold what every viewer may be shown or not:
 * answers are still shaped per request.
 */
export function cacheListReads(
  repositories: CachedRepositories,
  options: {
    readonly ttlMs: number;
    readonly now?: () => number;
    /** Told of the article each write touched (the counters' cache forgets its counts: cached-counters.ts). */
    readonly onWrite?: (url: string) => void;
  },
): CachedRepositories {
  const { comments, moderation } = repositories;
  const { ttlMs } = options;
  if (ttlMs <= 0) return repositories;
  const now = options.now ?? (() => performance.now());
  const pages = createReadCache<StoredPage>({ ttlMs, now, weigh: weighPage, maxWeight: maxPageBytes });
  const recent = createReadCache<readonly ListedComment[]>({
    ttlMs,
    now,
    weigh: weighList,
    maxWeight: maxRecentBytes,
  });
  const feeds = createReadCache<readonly FeedComment[]>({
    ttlMs,
    now,
    weigh: weighFeed,
    maxWeight: maxFeedBytes,
  });
  /** When each article was last written to by this instance. */
  const writtenAt = new Map<string, number>();
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  const recentlyWritten = (url: string) => now() - (writtenAt.get(url) ?? Number.NEGATIVE_INFINITY) < ttlMs;

  /** Runs a write, then forgets the article it touched and every recent list, whatever the outcome. */
  const writing = async <T>(url: string, write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } finally {
      // Bounded: past this many, the oldest marks go first (a Map iterates in insertion order).
      writtenAt.delete(url);
      if (writtenAt.size >= maxWrittenArticles) writtenAt.delete(writtenAt.keys().next().value ?? '');
      writtenAt.set(url, now());
      pages.forgetGroup(url);
      feeds.forget(url);
      recent.clear();
      lastWriteAt = now();
      options.onWrite?.(url);
    }
  };
  // Shared by concurrent requests: frozen, so that no caller can reorder one for another.
  const frozen = <T extends object>(value: T) => Object.freeze(value);
  // A page nests its lists (threads, each thread's replies): each one is frozen, not only the page.
  const frozenPage = (page: StoredPage) => {
    for (const thread of page.threads) frozen(frozen(thread).replies);
    frozen(page.threads);
    return frozen(page);
  };

  return {
    comments: {
      ...comments,
      listPage: (query) => {
        if (query.withHeld || query.consistent) return comments.listPage(query);
        if (recentlyWritten(query.url)) return comments.listPage({ ...query, consistent: true });
        const key = [query.url, query.sortBy, query.page, query.pageSize].join('\n');
        return pages.get(key, async () => frozenPage(await comments.listPage(query)), query.url);
      },
      pageFeed: (url, options = {}) => {
        if (options.consistent) return comments.pageFeed(url, options);
        if (recentlyWritten(url)) return comments.pageFeed(url, { consistent: true });
        return feeds.get(url, async () => frozen(await comments.pageFeed(url)));
      },
      // One read serves every `count` (and the site feed): the newest 50, sliced. A `count` per read would
      // let a caller cycling through 1..50 make every request a read.
      recent: async (count) => {
        if (now() - lastWriteAt < ttlMs) return comments.recent(count);
        const newest = await recent.get('newest', async () => frozen(await comments.recent(recentRead)));
        return newest.length <= count ? newest : frozen(newest.slice(0, count));
      },
      insert: (comment, guards) => writing(comment.url, () => comments.insert(comment, guards)),
      vote: (target, voterHash, like) => writing(target.url, () => comments.vote(target, voterHash, like)),
    },
    moderation: {
      ...moderation,
      moderate: (comment, change) => writing(comment.url, () => moderation.moderate(comment, change)),
      remove: (ref, expected) => writing(ref.url, () => moderation.remove(ref, expected)),
      removeOwn: (ref, ownerId) => writing(ref.url, () => moderation.removeOwn(ref, ownerId)),
      eraseInThread: (ref, belongs, mode) =>
        writing(ref.url, () => moderation.eraseInThread(ref, belongs, mode)),
    },
  };
}
