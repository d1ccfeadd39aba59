/**
 * Which key each page is written under. A page the source split over trailing-slash variants (`/a`
 * and `/a/`: Twikoo and early Valine list both on one page, so both fill up) is merged under the one
 * variant `--merge-paths` names, since the widget asks for one key only. Keys that land on one page
 * key from several source keys (trailing slashes, or raw and decoded forms) are merges, each listed
 * with what every source key held. Pure: no I/O.
 */
import { decodePath } from './values.js';

/** What `--merge-paths` can say: merge `/a` and `/a/` under `/a/`, under `/a`, or leave them apart. */
export const mergeRules = ['slash', 'no-slash', 'none'] as const;

/** One of {@link mergeRules}. */
export type MergeRule = (typeof mergeRules)[number];

/** `key` with no trailing slash, or with exactly one; `/` stays `/` and `''` stays `''`. */
export function withTrailingSlash(key: string, slash: boolean): string {
  const bare = key.replace(/\/+$/, '');
  if (bare === '') return key === '' ? '' : '/';
  return slash ? `${bare}/` : bare;
}

/** The page a key names, whatever its trailing slashes and percent-encoding. */
const pageOf = (key: string) => withTrailingSlash(decodePath(key), false);

/** Where the keys of a source go under a rule. */
export interface PageKeys {
  /** The key `key` is written under: its variant under the rule when its page is split, else itself. */
  keyOf(key: string): string;
  /** True when `key` belongs to a page the rule merges. */
  moves(key: string): boolean;
  /** The pages split over trailing-slash variants (without trailing slash, decoded), merged or not. */
  readonly split: readonly string[];
}

/**
 * Finds the pages `keys` split over trailing-slash variants (compared decoded, so a raw `/a%20b` and
 * a decoded `/a b/` are variants of one page). Only split pages move: a page the source holds under
 * one variant keeps it, as the widget asked for it there. Each moved key keeps its encoding
 * (pageviews stay raw, comments decoded); only its trailing slash changes.
 */
export function createPageKeys(keys: Iterable<string>, rule: MergeRule): PageKeys {
  const forms = new Map<string, Set<string>>();
  for (const key of keys) {
    if (key === '') continue;
    const page = pageOf(key);
    const seen = forms.get(page) ?? new Set<string>();
    seen.add(decodePath(key));
    forms.set(page, seen);
  }
  const split = [...forms].filter(([, seen]) => seen.size > 1).map(([page]) => page);
  const merged = new Set(rule === 'none' ? [] : split);
  const moves = (key: string) => key !== '' && merged.has(pageOf(key));
  return {
    moves,
    keyOf: (key) => (moves(key) ? withTrailingSlash(key, rule === 'slash') : key),
    split: split.sort(),
  };
}

/** What one source key of a merged page held. */
export interface PageVariant {
  /** The key as the source stored it. */
  readonly key: string;
  readonly comments: number;
  readonly pageviews: number;
  readonly reactions: number;
}

/** A page written under one key from several source keys. */
export interface PageMerge {
  /** The page's key as the widget asks for its comments (decoded). */
  readonly into: string;
  /** Every source key of the page, in key order. */
  readonly variants: PageVariant[];
}

type Kind = 'comments' | 'pageviews' | 'reactions';

/**
 * Collects what each source key brings to each page key, and gives back the merges: pages the rule
 * moved, and page keys that several source keys of one kind (comments, pageviews, reactions) fill.
 */
export function createMergeLedger(pages: PageKeys) {
  // By page key as the widget asks for comments (decoded), then by source key.
  const byPage = new Map<string, Map<string, Record<Kind, number>>>();
  const sources = new Map<string, Set<string>>();
  const merged = new Set<string>();
  return {
    /** `amount` of `kind` from the source key `raw`, written under `target`. */
    record(kind: Kind, raw: string, target: string, amount: number): void {
      if (amount <= 0 || target === '') return;
      const page = decodePath(target);
      if (pages.moves(target)) merged.add(page);
      const variants = byPage.get(page) ?? new Map<string, Record<Kind, number>>();
      byPage.set(page, variants);
      const held = variants.get(raw) ?? { comments: 0, pageviews: 0, reactions: 0 };
      held[kind] += amount;
      variants.set(raw, held);
      // Several source keys of one kind on one page key: a merge even where no slash moved.
      const slot = `${kind} ${target}`;
      const raws = sources.get(slot) ?? new Set<string>();
      sources.set(slot, raws.add(raw));
      if (raws.size > 1) merged.add(page);
    },
    /** The merges, in page order. */
    merges(): PageMerge[] {
      return [...merged].sort().map((page) => ({
        into: page,
        variants: [...(byPage.get(page) as Map<string, Record<Kind, number>>)]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([key, held]) => ({ key, ...held })),
      }));
    },
  };
}
