// Hand-written rather than lru-cache (no longer a dependency: the figures come from trial builds with it)
// for its cold-start cost: +0.4 to +2.1 ms (0.4 to 1.7 %) on the comment function's (medians of 60 to 120
// paired cold starts, scripts/bench/cold-start-runner.ts, Node 20), against a cold-start target of 1.15x an
// SDK-only function's that is already missed.
/** A short-lived, bounded, in-process cache of read results. */
export interface ReadCache<T> {
  /**
   * The value under `key`: a copy whose load finished less than the cache's lifetime ago, or a fresh
   * `load()`. Requests that miss while a load for `key` is running share it rather than each reading
   * again. `group` files the key under a name that {@link forgetGroup} forgets at once.
   */
  get(key: string, load: () => Promise<T>, group?: string): Promise<T>;
  /** Forgets `key`, and any load for it still running: the next `get` reads again. */
  forget(key: string): void;
  /** Forgets every key filed under `group`. */
  forgetGroup(group: string): void;
  /** Forgets everything. */
  clear(): void;
  /** How many entries it holds, loads in flight included. */
  readonly size: number;
}

/** How long and how much a ReadCache keeps. */
export interface ReadCacheOptions<T> {
  /** Lifetime of a loaded value in milliseconds; 0 turns the cache off (every `get` loads). */
  readonly ttlMs: number;
  /** The most weight kept at once: expired entries go first, then the oldest; a heavier value is not kept. */
  readonly maxWeight: number;
  /** The weight of a value (say, its number of comments); 1 by default. */
  readonly weigh?: (value: T) => number;
  /** A clock in milliseconds, monotonic by default (`performance.now`); injected so tests control time. */
  readonly now?: () => number;
}

interface Entry<T> {
  readonly value: Promise<T>;
  /**
   * When the load finished; undefined while it runs. A copy's age counts from here, so a read slower
   * than the lifetime still serves the requests after it.
   */
  loadedAt: number | undefined;
  weight: number;
  readonly group: string | undefined;
}

/**
 * Creates a ReadCache. Values are shared between requests, so callers must not mutate them. A failed
 * load is not kept: the next `get` tries again.
 */
export function createReadCache<T>(options: ReadCacheOptions<T>): ReadCache<T> {
  const { ttlMs, maxWeight } = options;
  const weigh = options.weigh ?? (() => 1);
  // A monotonic clock: a step of the wall clock neither extends nor cuts a lifetime.
  const now = options.now ?? (() => performance.now());
  // A Map iterates in insertion order: the first key is the oldest entry.
  const entries = new Map<string, Entry<T>>();
  const groups = new Map<string, Set<string>>();
  let totalWeight = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalWeight -= entry.weight;
    if (entry.group === undefined) return;
    const members = groups.get(entry.group);
    members?.delete(key);
    if (members?.size === 0) groups.delete(entry.group);
  };

  // A load still running is shared, so it counts as fresh.
  const isFresh = (entry: Entry<T>) => entry.loadedAt === undefined || now() - entry.loadedAt < ttlMs;

  /** Drops expired entries from the oldest on, up to the first fresh one. */
  const sweep = () => {
    for (const [key, entry] of entries) {
      if (isFresh(entry)) break;
      remove(key);
    }
  };

  const settle = (key: string, entry: Entry<T>, value: T) => {
    // Forgotten (or replaced) while loading: the value may predate a write, so it is not kept.
    if (entries.get(key) !== entry) return;
    // At least 1: even empty answers count, so many distinct keys cannot grow the cache without bound.
    const weight = Math.max(1, weigh(value));
    if (weight > maxWeight) {
      // Too heavy to keep: keeping it would evict everything else first.
      remove(key);
      return;
    }
    entry.loadedAt = now();
    entry.weight = weight;
    totalWeight += weight;
    sweep();
    for (const [oldestKey] of entries) {
      if (totalWeight <= maxWeight) break;
      remove(oldestKey);
    }
  };

  return {
    get(key, load, group) {
      if (ttlMs <= 0) return load();
      const cached = entries.get(key);
      if (cached && isFresh(cached)) return cached.value;
      remove(key);
      const value = load();
      const entry: Entry<T> = { value, loadedAt: undefined, weight: 0, group };
      entries.set(key, entry);
      if (group !== undefined) {
        const members = groups.get(group) ?? new Set<string>();
        members.add(key);
        groups.set(group, members);
      }
      value.then(
        (loaded) => settle(key, entry, loaded),
        () => {
          if (entries.get(key) === entry) remove(key);
        },
      );
      return value;
    },
    forget: remove,
    forgetGroup(group) {
      for (const key of [...(groups.get(group) ?? [])]) remove(key);
    },
    clear() {
      entries.clear();
      groups.clear();
      totalWeight = 0;
    },
    get size() {
      return entries.size;
    },
  };
}
