import type { CounterName } from '../domain/counters.js';
import type { CounterRepository } from '../table/counter-repository.js';
import { createReadCache } from './read-cache.js';

/** Cached counter answers: one entry per (url, counters asked for), a number per counter. */
const maxEntries = 100_000;
/** The key of the site's comment count (no url is empty: every url key has a newline). */
const siteKey = 'SITE';

/** A counter repository whose reads are cached, and the hook that forgets what a write changed. */
export interface CachedCounters {
  readonly counters: CounterRepository;
  /** Forgets `url`'s counters and the site's comment count: a comment of `url` was written. */
  forgetArticle(url: string): void;
}

/**
 * Serves repeated reads of counters (reading counts, comment counts, the site's comment count) from a copy
 * read less than `ttlMs` ago, as the list cache does for pages (cached-reads.ts): same lifetime, bounded,
 * shared between concurrent requests; the urls a request misses are read in one batch. An increment's or a
 * reaction's answer refreshes the page's copy, and `forgetArticle` drops what a comment write changed, so an
 * instance reads its own writes. Other instances' writes show within `ttlMs`.
 *
 * A Lambda instance serves one request at a time, so its answers arrive in the order of its writes; local
 * mode serves many at once, and of two increments in flight together the earlier may answer last. An answer
 * refreshes the copy only when no other write of the same counter overlapped it; otherwise it drops the copy,
 * and the next read reads the table (a copy set from the older answer showed a count going backwards).
 */
export function cacheCounterReads(
  counters: CounterRepository,
  options: { readonly ttlMs: number; readonly now?: () => number },
): CachedCounters {
  const { ttlMs } = options;
  if (ttlMs <= 0) return { counters, forgetArticle: () => undefined };
  const cache = createReadCache<Readonly<Record<string, number>>>({
    ttlMs,
    maxWeight: maxEntries,
    ...(options.now ? { now: options.now } : {}),
  });
  const keyOf = (url: string, names: readonly string[]) => `${url}\n${names.join(',')}`;

  /**
   * The `names` counters of each url: cached ones as they are, the others read in one call of `load` (for
   * the missing urls only), each then cached under its url's group.
   */
  const cachedRead = <Value extends Readonly<Record<string, number>>>(
    urls: readonly string[],
    names: readonly string[],
    load: (missing: string[]) => Promise<Value[]>,
  ): Promise<Value[]> => {
    const missing: { url: string; settle: (value: Value) => void; fail: (error: unknown) => void }[] = [];
    const answers = urls.map(
      (url) =>
        cache.get(
          keyOf(url, names),
          () => new Promise<Value>((settle, fail) => missing.push({ url, settle, fail })),
          url,
        ) as Promise<Value>,
    );
    if (missing.length > 0) {
      load(missing.map(({ url }) => url)).then(
        (values) => missing.forEach(({ settle }, i) => settle(values[i] as Value)),
        (error: unknown) => missing.forEach(({ fail }) => fail(error)),
      );
    }
    return Promise.all(answers);
  };

  /** Writes in flight per counter, and whether any two of them overlapped since none was in flight. */
  const writing = new Map<string, { inFlight: number; overlapped: boolean }>();

  /**
   * Runs `write` of `url`'s counter `name`, then replaces `url`'s copies with the one counter it answered,
   * or, when another write of that counter overlapped it (its answer may be the older), only drops them.
   */
  const writeThrough = async (url: string, name: CounterName, write: () => Promise<number>) => {
    const key = keyOf(url, [name]);
    const state = writing.get(key) ?? { inFlight: 0, overlapped: false };
    if (state.inFlight > 0) state.overlapped = true;
    state.inFlight += 1;
    writing.set(key, state);
    try {
      const value = await write();
      cache.forgetGroup(url);
      if (!state.overlapped) {
        const answer = { [name]: value };
        void cache.get(key, async () => answer, url);
      }
      return value;
    } finally {
      state.inFlight -= 1;
      if (state.inFlight === 0) writing.delete(key);
    }
  };

  return {
    counters: {
      ...counters,
      readPageCounters: (urls, names) =>
        cachedRead(urls, names, (missing) => counters.readPageCounters(missing, names)),
      commentCounts: async (urls) => {
        const values = await cachedRead(urls, ['comments'], async (missing) =>
          (await counters.commentCounts(missing)).map((comments) => ({ comments })),
        );
        return values.map(({ comments }) => comments ?? 0);
      },
      siteCommentCount: async () => {
        const { comments } = await cache.get(siteKey, async () => ({
          comments: await counters.siteCommentCount(),
        }));
        return comments ?? 0;
      },
      increment: (url, name) => writeThrough(url, name, () => counters.increment(url, name)),
      react: (url, name, voterHash, action) =>
        writeThrough(url, name, () => counters.react(url, name, voterHash, action)),
    },
    forgetArticle(url) {
      cache.forgetGroup(url);
      cache.forget(siteKey);
    },
  };
}
