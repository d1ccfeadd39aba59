import { describe, expect, it, vi } from 'vitest';
import { cacheAuthorCounts } from '../../../../../functions/shared/caches/cached-author-counts.js';
import type { AuthorCounts } from '../../../../../functions/shared/table/author-counts.js';

const source = () => {
  const counts = vi.fn(async (keys: readonly string[]) => new Map(keys.map((key) => [key, key.length])));
  const wall = vi.fn(async () => [{ authorKey: 'mail:h', count: 1 }]);
  return { counts, wall } satisfies AuthorCounts;
};

describe('cacheAuthorCounts', () => {
  it('reads only the authors it has no fresh copy of, in one batch, until the copies expire', async () => {
    let time = 0;
    const store = source();
    const cached = cacheAuthorCounts(store, { ttlMs: 1000, now: () => time });

    expect([...(await cached.counts(['a', 'bb'])).entries()]).toEqual([
      ['a', 1],
      ['bb', 2],
    ]);
    expect([...(await cached.counts(['bb', 'ccc'])).entries()]).toEqual([
      ['bb', 2],
      ['ccc', 3],
    ]);
    expect(store.counts.mock.calls).toEqual([[['a', 'bb']], [['ccc']]]);

    time = 1000;
    await cached.counts(['a']);
    expect(store.counts).toHaveBeenCalledTimes(3);
  });

  it('keeps the wall per size for its lifetime', async () => {
    let time = 0;
    const store = source();
    const cached = cacheAuthorCounts(store, { ttlMs: 1000, now: () => time });
    await cached.wall(20);
    await cached.wall(20);
    await cached.wall(5);
    expect(store.wall.mock.calls).toEqual([[20], [5]]);
    time = 2000;
    await cached.wall(20);
    expect(store.wall).toHaveBeenCalledTimes(3);
  });

  it('reads every time with a lifetime of 0', async () => {
    const store = source();
    expect(cacheAuthorCounts(store, { ttlMs: 0 })).toBe(store);
  });
});
