import { describe, expect, it } from 'vitest';
import type { CounterName } from '../../../../../functions/shared/domain/counters.js';
import { cacheCounterReads } from '../../../../../functions/shared/caches/cached-counters.js';
import type { CounterRepository } from '../../../../../functions/shared/table/counter-repository.js';

/** A counter table in memory that records every call it answers. */
function fakeCounters() {
  const values = new Map<string, number>();
  const calls: string[] = [];
  const read = (url: string, name: string) => values.get(`${url} ${name}`) ?? 0;
  const repository: CounterRepository = {
    async readPageCounters(urls, names) {
      calls.push(`read ${urls.join(',')} ${names.join(',')}`);
      return urls.map(
        (url) =>
          Object.fromEntries(names.map((name) => [name, read(url, name)])) as Record<CounterName, number>,
      );
    },
    async commentCounts(urls) {
      calls.push(`comments ${urls.join(',')}`);
      return urls.map((url) => read(url, 'comments'));
    },
    async siteCommentCount() {
      calls.push('site');
      return read('SITE', 'comments');
    },
    async increment(url, name) {
      calls.push(`increment ${url} ${name}`);
      values.set(`${url} ${name}`, read(url, name) + 1);
      return read(url, name);
    },
    async react(url, name, _voter, action) {
      calls.push(`react ${url} ${name}`);
      values.set(`${url} ${name}`, Math.max(0, read(url, name) + (action === 'inc' ? 1 : -1)));
      return read(url, name);
    },
  };
  return { repository, values, calls };
}

function setup(ttlMs = 1000) {
  const table = fakeCounters();
  let clock = 0;
  const cached = cacheCounterReads(table.repository, { ttlMs, now: () => clock });
  return { ...table, ...cached, advance: (ms: number) => (clock += ms) };
}

describe('cacheCounterReads', () => {
  it('serves a repeated read of reading counts from the copy, and reads again once it is older than the lifetime', async () => {
    const { counters, values, calls, advance } = setup();
    values.set('/a time', 7);

    expect(await counters.readPageCounters(['/a'], ['time'])).toEqual([{ time: 7 }]);
    values.set('/a time', 8);
    expect(await counters.readPageCounters(['/a'], ['time'])).toEqual([{ time: 7 }]);
    advance(1000);
    expect(await counters.readPageCounters(['/a'], ['time'])).toEqual([{ time: 8 }]);
    expect(calls).toEqual(['read /a time', 'read /a time']);
  });

  it('reads only the urls it misses, in one batch, and keeps the answers aligned with the request', async () => {
    const { counters, values, calls } = setup();
    values.set('/a time', 1);
    values.set('/b time', 2);
    values.set('/c time', 3);
    await counters.readPageCounters(['/b'], ['time']);

    expect(await counters.readPageCounters(['/a', '/b', '/c'], ['time'])).toEqual([
      { time: 1 },
      { time: 2 },
      { time: 3 },
    ]);
    expect(calls).toEqual(['read /b time', 'read /a,/c time']);
  });

  it('shares one read between concurrent requests for the same counters', async () => {
    const { counters, calls } = setup();

    await Promise.all([
      counters.readPageCounters(['/a'], ['time']),
      counters.readPageCounters(['/a'], ['time']),
    ]);

    expect(calls).toEqual(['read /a time']);
  });

  it("refreshes the page's copy with an increment's answer: the next read shows it without reading", async () => {
    const { counters, calls } = setup();
    await counters.readPageCounters(['/a'], ['time']);

    expect(await counters.increment('/a', 'time')).toBe(1);
    expect(await counters.readPageCounters(['/a'], ['time'])).toEqual([{ time: 1 }]);
    expect(calls).toEqual(['read /a time', 'increment /a time']);
  });

  it("refreshes the copy with a reaction's answer, and forgets the page's other combinations of counters", async () => {
    const { counters, values, calls } = setup();
    values.set('/a reaction0', 4);
    await counters.readPageCounters(['/a'], ['time', 'reaction0']);

    expect(await counters.react('/a', 'reaction0', 'v', 'inc')).toBe(5);
    expect(await counters.readPageCounters(['/a'], ['reaction0'])).toEqual([{ reaction0: 5 }]);
    expect(await counters.readPageCounters(['/a'], ['time', 'reaction0'])).toEqual([
      { time: 0, reaction0: 5 },
    ]);
    expect(calls).toEqual(['read /a time,reaction0', 'react /a reaction0', 'read /a time,reaction0']);
  });

  it("caches comment counts and the site's count, and forgets both when the instance writes a comment of the page", async () => {
    const { counters, values, calls, forgetArticle } = setup();
    values.set('/a comments', 2);
    values.set('SITE comments', 9);
    await counters.commentCounts(['/a']);
    await counters.siteCommentCount();
    values.set('/a comments', 3);
    values.set('SITE comments', 10);

    expect(await counters.commentCounts(['/a'])).toEqual([2]);
    expect(await counters.siteCommentCount()).toBe(9);
    forgetArticle('/a');
    expect(await counters.commentCounts(['/a'])).toEqual([3]);
    expect(await counters.siteCommentCount()).toBe(10);
    expect(calls).toEqual(['comments /a', 'site', 'comments /a', 'site']);
  });

  it('keeps no failed read: the next request reads again', async () => {
    const { repository, calls } = setup();
    const original = repository.readPageCounters;
    let fail = true;
    repository.readPageCounters = async (urls, names) => {
      if (fail) throw new Error('throttled');
      return original(urls, names);
    };
    const cached = cacheCounterReads(repository, { ttlMs: 1000, now: () => 0 }).counters;

    await expect(cached.readPageCounters(['/a'], ['time'])).rejects.toThrow('throttled');
    fail = false;
    expect(await cached.readPageCounters(['/a'], ['time'])).toEqual([{ time: 0 }]);
    expect(calls).toEqual(['read /a time']);
  });

  it('reads every time when the lifetime is 0', async () => {
    const { counters, calls } = setup(0);

    await counters.readPageCounters(['/a'], ['time']);
    await counters.readPageCounters(['/a'], ['time']);

    expect(calls).toEqual(['read /a time', 'read /a time']);
  });

  it('never lets the older of two overlapping increments set the copy: the next read reads the table', async () => {
    const table = fakeCounters();
    // Two increments in flight at once (local mode serves requests concurrently): the first one's answer
    // (1) arrives after the second one's (2).
    const answers: ((value: number) => void)[] = [];
    const repository: CounterRepository = {
      ...table.repository,
      increment: (url, name) =>
        new Promise<number>((settle) => {
          table.calls.push(`increment ${url} ${name}`);
          table.values.set(`${url} ${name}`, (table.values.get(`${url} ${name}`) ?? 0) + 1);
          answers.push(settle);
        }),
    };
    const { counters } = cacheCounterReads(repository, { ttlMs: 1000, now: () => 0 });

    const first = counters.increment('/a', 'time');
    const second = counters.increment('/a', 'time');
    answers[1]!(2);
    await second;
    answers[0]!(1);
    await first;

    expect(await counters.readPageCounters(['/a'], ['time'])).toEqual([{ time: 2 }]);
    expect(table.calls).toEqual(['increment /a time', 'increment /a time', 'read /a time']);
    // Once no write overlaps another, an answer refreshes the copy again.
    const third = counters.increment('/a', 'time');
    answers[2]!(3);
    expect(await third).toBe(3);
    expect(await counters.readPageCounters(['/a'], ['time'])).toEqual([{ time: 3 }]);
    expect(table.calls).toHaveLength(4);
  });
});
