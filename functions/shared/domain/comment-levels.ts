import type { AuthorKeyOf } from './author-tally.js';
import { levelOf } from './levels.js';

/** The level of each of `comments`' authors, in order (0 for a comment that counts for nobody). */
export type LevelsOf = (
  comments: readonly { readonly userId?: string; readonly mail: string }[],
) => Promise<number[]>;

/**
 * The levels of a page's authors under `thresholds` (LEVELS): one read of the distinct authors' counters
 * (`counts`, batched and cached: caches/cached-author-counts.ts). Undefined when LEVELS is unset: no level is
 * shown, and nothing is read.
 */
export function createLevelsOf({
  thresholds,
  authorKeyOf,
  counts,
}: {
  readonly thresholds: readonly number[] | undefined;
  readonly authorKeyOf: AuthorKeyOf;
  readonly counts: (authorKeys: readonly string[]) => Promise<Map<string, number>>;
}): LevelsOf | undefined {
  if (thresholds === undefined) return undefined;
  return async (comments) => {
    const authorKeys = comments.map(authorKeyOf);
    const distinct = [...new Set(authorKeys.filter((key): key is string => key !== undefined))];
    const found = distinct.length > 0 ? await counts(distinct) : new Map<string, number>();
    // A comment of nobody still shows level 0 (the widget shows level 0 as the first badge): as Waline does.
    return authorKeys.map((key) => levelOf(key === undefined ? 0 : (found.get(key) ?? 0), thresholds));
  };
}
