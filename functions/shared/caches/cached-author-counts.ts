import type { AuthorCounts, WallAuthor } from '../table/author-counts.js';
import { createReadCache } from './read-cache.js';

/** Cached counts at most: one number each. */
const maxEntries = 100_000;

/**
 * Serves repeated reads of the level counters and of the user wall from a copy read less than `ttlMs` ago, as
 * the counters are (cached-counters.ts): bounded, shared between concurrent requests; the authors a request
 * misses are read in one batch. Counts change with approvals, which a level shows within `ttlMs`.
 */
export function cacheAuthorCounts(
  authorCounts: AuthorCounts,
  options: { readonly ttlMs: number; readonly now?: () => number },
): AuthorCounts {
  const { ttlMs } = options;
  if (ttlMs <= 0) return authorCounts;
  const clock = options.now ? { now: options.now } : {};
  const counts = createReadCache<number>({ ttlMs, maxWeight: maxEntries, ...clock });
  const walls = createReadCache<WallAuthor[]>({ ttlMs, maxWeight: 50, ...clock });
  return {
    async counts(authorKeys) {
      const missing: {
        authorKey: string;
        settle: (count: number) => void;
        fail: (error: unknown) => void;
      }[] = [];
      const answers = authorKeys.map((authorKey) =>
        counts.get(
          authorKey,
          () => new Promise<number>((settle, fail) => missing.push({ authorKey, settle, fail })),
        ),
      );
      if (missing.length > 0) {
        authorCounts.counts(missing.map(({ authorKey }) => authorKey)).then(
          (found) => missing.forEach(({ authorKey, settle }) => settle(found.get(authorKey) ?? 0)),
          (error: unknown) => missing.forEach(({ fail }) => fail(error)),
        );
      }
      const values = await Promise.all(answers);
      return new Map(authorKeys.map((authorKey, index) => [authorKey, values[index] ?? 0]));
    },
    wall: (limit) => walls.get(String(limit), () => authorCounts.wall(limit)),
  };
}
