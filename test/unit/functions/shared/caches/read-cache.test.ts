import { describe, expect, it } from 'vitest';
import { createReadCache } from '../../../../../functions/shared/caches/read-cache.js';

/** A clock the test moves by hand. */
function manualClock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

/** A load that counts its calls and answers `value`. */
function counting<T>(value: () => T) {
  const load = async () => {
    load.calls++;
    return value();
  };
  load.calls = 0;
  return load;
}

describe('createReadCache', () => {
  it('answers from the copy until it is ttlMs old, then loads again', async () => {
    const clock = manualClock();
    const cache = createReadCache<string>({ ttlMs: 1000, maxWeight: 10, now: clock.now });
    let version = 1;
    const load = counting(() => `v${version}`);

    expect(await cache.get('a', load)).toBe('v1');
    version = 2;
    clock.advance(999);
    expect(await cache.get('a', load)).toBe('v1');
    clock.advance(1);
    expect(await cache.get('a', load)).toBe('v2');
    expect(load.calls).toBe(2);
  });

  it('loads on every get when ttlMs is 0', async () => {
    const cache = createReadCache<number>({ ttlMs: 0, maxWeight: 10 });
    const load = counting(() => 1);

    await cache.get('a', load);
    await cache.get('a', load);
    expect(load.calls).toBe(2);
  });

  it('shares one load between gets that miss while it runs', async () => {
    const cache = createReadCache<number>({ ttlMs: 1000, maxWeight: 10 });
    let finish: (value: number) => void = () => undefined;
    let calls = 0;
    const load = () => {
      calls++;
      return new Promise<number>((resolve) => (finish = resolve));
    };

    const first = cache.get('a', load);
    const second = cache.get('a', load);
    finish(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    expect(calls).toBe(1);
  });

  it('loads again after forget, and does not keep a load that was running when it was forgotten', async () => {
    const cache = createReadCache<string>({ ttlMs: 60_000, maxWeight: 10 });
    let finish: (value: string) => void = () => undefined;
    const before = cache.get('a', () => new Promise<string>((resolve) => (finish = resolve)));
    // A write lands while the read is in flight: its answer may predate the write.
    cache.forget('a');
    finish('before the write');
    expect(await before).toBe('before the write');

    const load = counting(() => 'after the write');
    expect(await cache.get('a', load)).toBe('after the write');
    expect(await cache.get('a', load)).toBe('after the write');
    expect(load.calls).toBe(1);
  });

  it('keeps no failed load: the next get tries again', async () => {
    const cache = createReadCache<string>({ ttlMs: 60_000, maxWeight: 10 });
    await expect(cache.get('a', () => Promise.reject(new Error('throttled')))).rejects.toThrow('throttled');
    expect(await cache.get('a', async () => 'ok')).toBe('ok');
  });

  it('drops the oldest entries beyond maxWeight', async () => {
    const cache = createReadCache<number[]>({ ttlMs: 60_000, maxWeight: 5, weigh: (list) => list.length });
    const a = counting(() => [1, 2]);
    const b = counting(() => [1, 2]);
    const c = counting(() => [1, 2]);

    await cache.get('a', a);
    await cache.get('b', b);
    await cache.get('c', c); // 6 > 5: the oldest, a, goes.
    await cache.get('b', b);
    await cache.get('c', c);
    expect([b.calls, c.calls]).toEqual([1, 1]);
    await cache.get('a', a);
    expect(a.calls).toBe(2);
  });

  it('lets copies expire when its clock starts at 0', async () => {
    let time = 0;
    const cache = createReadCache<string>({ ttlMs: 1000, maxWeight: 10, now: () => time });
    const load = counting(() => 'a');

    await cache.get('a', load);
    time = 1000;
    await cache.get('a', load);
    expect(load.calls).toBe(2);
  });

  it('keeps no value heavier than maxWeight, and evicts nothing for it', async () => {
    const cache = createReadCache<number[]>({ ttlMs: 60_000, maxWeight: 5, weigh: (list) => list.length });
    const small = counting(() => [1, 2]);
    const huge = counting(() => [1, 2, 3, 4, 5, 6]);

    await cache.get('small', small);
    await cache.get('huge', huge);
    await cache.get('huge', huge);
    await cache.get('small', small);
    expect([huge.calls, small.calls]).toEqual([2, 1]);
    expect(cache.size).toBe(1);
  });

  it('lets go of expired entries when the next value is kept, not only when their key is read again', async () => {
    const clock = manualClock();
    const cache = createReadCache<string>({ ttlMs: 1000, maxWeight: 100, now: clock.now });
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => key);
    expect(cache.size).toBe(3);

    clock.advance(1000);
    await cache.get('d', async () => 'd');
    expect(cache.size).toBe(1);
  });

  it('counts an empty answer as weight 1, so distinct keys cannot grow it without bound', async () => {
    const cache = createReadCache<number[]>({ ttlMs: 60_000, maxWeight: 3, weigh: (list) => list.length });
    const first = counting(() => []);
    await cache.get('first', first);
    for (const key of ['x', 'y', 'z']) await cache.get(key, async () => []);

    await cache.get('first', first);
    expect(first.calls).toBe(2);
  });

  it("counts a copy's age from when its load finished, so a load slower than ttlMs still serves the gets after it", async () => {
    const clock = manualClock();
    const cache = createReadCache<string>({ ttlMs: 1000, maxWeight: 10, now: clock.now });
    let finish: (value: string) => void = () => undefined;
    const slow = cache.get('a', () => new Promise<string>((resolve) => (finish = resolve)));
    clock.advance(5000);
    finish('slow');
    await slow;
    const load = counting(() => 'again');

    clock.advance(999);
    expect(await cache.get('a', load)).toBe('slow');
    expect(load.calls).toBe(0);
    clock.advance(1);
    expect(await cache.get('a', load)).toBe('again');
    expect(load.calls).toBe(1);
  });

  it('forgets every key filed under a group at once, and keeps the keys of other groups and of none', async () => {
    const cache = createReadCache<string>({ ttlMs: 60_000, maxWeight: 10 });
    const loads = {
      a: counting(() => 'a'),
      b: counting(() => 'b'),
      c: counting(() => 'c'),
      d: counting(() => 'd'),
    };
    await cache.get('a', loads.a, '/p');
    await cache.get('b', loads.b, '/p');
    await cache.get('c', loads.c, '/other');
    await cache.get('d', loads.d);

    cache.forgetGroup('/p');
    expect(cache.size).toBe(2);
    for (const key of ['a', 'b', 'c', 'd'] as const)
      await cache.get(key, loads[key], key < 'c' ? '/p' : undefined);

    expect([loads.a.calls, loads.b.calls, loads.c.calls, loads.d.calls]).toEqual([2, 2, 1, 1]);
  });

  it('does not keep a load of a group that was forgotten while it ran', async () => {
    const cache = createReadCache<string>({ ttlMs: 60_000, maxWeight: 10 });
    let finish: (value: string) => void = () => undefined;
    const before = cache.get('a', () => new Promise<string>((resolve) => (finish = resolve)), '/p');

    cache.forgetGroup('/p');
    finish('before the write');
    expect(await before).toBe('before the write');
    expect(cache.size).toBe(0);

    const load = counting(() => 'after the write');
    expect(await cache.get('a', load, '/p')).toBe('after the write');
    expect(load.calls).toBe(1);
  });

  it('forgets a key only with the group it was last filed under, once it was evicted or not kept', async () => {
    const cache = createReadCache<number[]>({ ttlMs: 60_000, maxWeight: 2, weigh: (list) => list.length });
    await cache.get('evicted', async () => [1], '/old');
    await cache.get('x', async () => [1]);
    await cache.get('y', async () => [1]); // 3 > 2: the oldest, evicted, goes.
    await cache.get('heavy', async () => [1, 2, 3], '/old'); // Too heavy: not kept.
    const evicted = counting(() => [1]);
    const heavy = counting(() => [1]);
    await cache.get('evicted', evicted, '/new');
    await cache.get('heavy', heavy, '/new');

    cache.forgetGroup('/old');
    await cache.get('evicted', evicted, '/new');
    await cache.get('heavy', heavy, '/new');
    expect([evicted.calls, heavy.calls]).toEqual([1, 1]);
  });

  it('forgets nothing for a group it never filed a key under', async () => {
    const cache = createReadCache<string>({ ttlMs: 60_000, maxWeight: 10 });
    const load = counting(() => 'a');
    await cache.get('a', load, '/p');

    cache.forgetGroup('/other');
    await cache.get('a', load, '/p');
    expect(load.calls).toBe(1);
  });
});
