import type { ListedComment } from '../domain/comment.js';
import type { CommentRepository } from './comment-repository.js';
import type { ModerationRepository } from './moderation-repository.js';
import { createReadCache } from './read-cache.js';

/** The repositories whose reads are cached and whose writes clear what they change. */
export interface CachedRepositories {
  readonly comments: CommentRepository;
  readonly moderation: ModerationRepository;
}

/** Comments kept across all cached articles: about 1 KB each, so some 20 MB at most. */
const maxCachedArticleComments = 20_000;
/** Comments kept across all cached recent lists (one per `count` asked for). */
const maxCachedRecentComments = 1_000;

/**
 * Serves an article's comments and the site's recent comments from a copy read less than `ttlMs` ago,
 * so a busy page costs one Query per `ttlMs` per warm instance instead of one per view. Both reads are
 * eventually consistent anyway (DynamoDB's replicas and its GSIs lag by up to about a second), so a
 * lifetime of that order adds little staleness. Every write made through these repositories forgets what
 * it changes at once, so this instance reads its own writes; other instances see them within `ttlMs`.
 * The cached lists hold what every viewer may be shown or not: answers are still shaped per request.
 */
export function cacheListReads(
  repositories: CachedRepositories,
  options: { readonly ttlMs: number; readonly now?: () => number },
): CachedRepositories {
  const { comments, moderation } = repositories;
  const { ttlMs, now } = options;
  if (ttlMs <= 0) return repositories;
  const weigh = (list: readonly ListedComment[]) => list.length;
  const articles = createReadCache({ ttlMs, now, weigh, maxWeight: maxCachedArticleComments });
  const recent = createReadCache({ ttlMs, now, weigh, maxWeight: maxCachedRecentComments });
  /** Runs a write, then forgets the article it touched and every recent list, whatever the outcome. */
  const writing = async <T>(url: string, write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } finally {
      articles.forget(url);
      recent.clear();
    }
  };
  // The lists are shared by concurrent requests: frozen, so that no caller can reorder one for another.
  const frozen = (list: readonly ListedComment[]) => Object.freeze(list);

  return {
    comments: {
      ...comments,
      listByUrl: (url) => articles.get(url, async () => frozen(await comments.listByUrl(url))),
      recent: (count) => recent.get(String(count), async () => frozen(await comments.recent(count))),
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
