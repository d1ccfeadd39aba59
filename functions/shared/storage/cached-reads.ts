import type { ListedComment } from '../domain/comment.js';
import type { CommentRepository } from './comment-repository.js';
import type { ModerationRepository } from './moderation-repository.js';
import { createReadCache } from './read-cache.js';

/** The repositories whose reads are cached and whose writes clear what they change. */
export interface CachedRepositories {
  readonly comments: CommentRepository;
  readonly moderation: ModerationRepository;
}

/** Bytes kept across all cached articles: a tenth of a 512 MB function. */
const maxArticleBytes = 48 * 1024 * 1024;
/** Bytes kept across all cached recent lists (one per `count` asked for, 1 to 50). */
const maxRecentBytes = 8 * 1024 * 1024;
/** Articles remembered as written to and not read since. */
const maxWrittenArticles = 10_000;
/** What a listed comment holds besides its text and HTML: ids, names, link, flags. */
const commentOverheadBytes = 512;

/** About what `list` costs in memory: UTF-16 text and HTML, plus the rest. */
function weighComments(list: readonly ListedComment[]): number {
  let bytes = 0;
  for (const comment of list) bytes += 2 * (comment.orig.length + comment.html.length) + commentOverheadBytes;
  return bytes;
}

/**
 * Serves an article's comments and the site's recent comments from a copy read less than `ttlMs` ago,
 * so a busy page costs one Query per `ttlMs` per warm instance instead of one per view. Both reads are
 * eventually consistent anyway (DynamoDB's replicas and its GSIs lag by up to about a second), so a
 * lifetime of that order adds little staleness.
 *
 * Every write made through these repositories forgets what it changes, and the next read of that
 * article is a consistent read: this instance sees its own writes on the article at once. The recent
 * list comes from a GSI, which cannot be read consistently, so for `ttlMs` after a write it is not
 * cached at all, and a read that missed the write is not kept. Other instances see a write within
 * `ttlMs`. The lists hold what every viewer may be shown or not: answers are still shaped per request.
 */
export function cacheListReads(
  repositories: CachedRepositories,
  options: { readonly ttlMs: number; readonly now?: () => number },
): CachedRepositories {
  const { comments, moderation } = repositories;
  const { ttlMs } = options;
  if (ttlMs <= 0) return repositories;
  const now = options.now ?? (() => performance.now());
  const weigh = weighComments;
  const articles = createReadCache({ ttlMs, now, weigh, maxWeight: maxArticleBytes });
  const recent = createReadCache({ ttlMs, now, weigh, maxWeight: maxRecentBytes });
  /** Articles written to since they were last read: their next read is consistent. */
  const written = new Set<string>();
  let lastWriteAt = Number.NEGATIVE_INFINITY;

  /** Runs a write, then forgets the article it touched and every recent list, whatever the outcome. */
  const writing = async <T>(url: string, write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } finally {
      // Bounded: past this many unread articles, their next reads are merely eventually consistent.
      if (written.size >= maxWrittenArticles) written.clear();
      written.add(url);
      articles.forget(url);
      recent.clear();
      lastWriteAt = now();
    }
  };
  // The lists are shared by concurrent requests: frozen, so that no caller can reorder one for another.
  const frozen = (list: readonly ListedComment[]) => Object.freeze(list);

  return {
    comments: {
      ...comments,
      listByUrl: (url) =>
        articles.get(url, async () => {
          const consistent = written.delete(url);
          try {
            return frozen(await comments.listByUrl(url, { consistent }));
          } catch (error) {
            if (consistent) written.add(url);
            throw error;
          }
        }),
      recent: (count) =>
        now() - lastWriteAt < ttlMs
          ? comments.recent(count)
          : recent.get(String(count), async () => frozen(await comments.recent(count))),
      insert: (comment, guards) => writing(comment.url, () => comments.insert(comment, guards)),
      vote: (target, voterHash, like) => writing(target.url, () => comments.vote(target, voterHash, like)),
    },
    moderation: {
      ...moderation,
      setStatus: (comment, next) => writing(comment.url, () => moderation.setStatus(comment, next)),
      setSticky: (ref, sticky) => writing(ref.url, () => moderation.setSticky(ref, sticky)),
      edit: (ref, text) => writing(ref.url, () => moderation.edit(ref, text)),
      remove: (ref) => writing(ref.url, () => moderation.remove(ref)),
    },
  };
}
