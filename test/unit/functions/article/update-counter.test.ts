import { describe, expect, it } from 'vitest';
import { createReadCounters } from '../../../../functions/article/read-counters.js';
import { createUpdateCounter } from '../../../../functions/article/update-counter.js';
import type { CounterName, ReactionName } from '../../../../functions/shared/domain/counters.js';
import { hashIp } from '../../../../functions/shared/domain/hashing.js';
import { routeAnswer } from '../../../support/route-answer.js';

type UpdateDependencies = Parameters<typeof createUpdateCounter>[0];
type ReadDependencies = Parameters<typeof createReadCounters>[0];

const salt = 'salt-for-counter-tests-0123';
const ip = '198.51.100.42';

/** The pageview route over fakes of exactly its dependencies: the counters answer `value` and record calls. */
function updateRoute(value = 8) {
  const increments: { url: string; name: CounterName }[] = [];
  const reactions: { url: string; name: ReactionName; voterHash: string; action: 'inc' | 'desc' }[] = [];
  const dependencies: UpdateDependencies = {
    counters: {
      increment: async (url, name) => {
        increments.push({ url, name });
        return value;
      },
      react: async (url, name, voterHash, action) => {
        reactions.push({ url, name, voterHash, action });
        return value;
      },
    },
    ipHashSalt: salt,
  };
  return { route: createUpdateCounter(dependencies), increments, reactions };
}

const postCounter = (route: ReturnType<typeof updateRoute>['route'], body: unknown, path = '/api/article') =>
  routeAnswer(route, { method: 'POST', path, body, sourceIp: ip });

describe('createUpdateCounter', () => {
  it('counts a pageview with one increment and answers the new count in the envelope', async () => {
    const { route, increments, reactions } = updateRoute(8);

    const answer = await postCounter(route, { path: '/post', type: 'time', action: 'inc' });

    expect(increments).toEqual([{ url: '/post', name: 'time' }]);
    expect(reactions).toEqual([]);
    expect(answer).toEqual({ statusCode: 200, body: { errno: 0, errmsg: '', data: [{ time: 8 }] } });
  });

  it('counts a pageview when the body names only the path', async () => {
    const { route, increments } = updateRoute(1);

    const answer = await postCounter(route, { path: '/post' });

    expect(increments).toEqual([{ url: '/post', name: 'time' }]);
    expect(answer.body).toMatchObject({ data: [{ time: 1 }] });
  });

  it('answers the v2 client on /article with the bare count', async () => {
    const { route } = updateRoute(42);

    const answer = await postCounter(route, { path: '/post' }, '/article');

    expect(answer).toEqual({ statusCode: 200, body: 42 });
  });

  it('refuses desc on pageviews with a 400 naming action, and counts nothing', async () => {
    const { route, increments, reactions } = updateRoute();

    const answer = await postCounter(route, { path: '/post', type: 'time', action: 'desc' });

    expect(answer.statusCode).toBe(400);
    expect(answer.body).toMatchObject({ errno: 1001, details: { action: expect.any(String) } });
    expect(increments).toEqual([]);
    expect(reactions).toEqual([]);
  });

  it.each([
    ['path', { type: 'time' }],
    ['type', { path: '/post', type: 'reaction9' }],
    ['action', { path: '/post', type: 'reaction0', action: 'reset' }],
  ])('refuses a body with a bad %s with a 400 naming it', async (field, body) => {
    const { route, increments, reactions } = updateRoute();

    const answer = await postCounter(route, body);

    expect(answer.statusCode).toBe(400);
    expect(answer.body).toMatchObject({ details: { [field]: expect.any(String) } });
    expect(increments).toEqual([]);
    expect(reactions).toEqual([]);
  });

  it.each(['inc', 'desc'] as const)(
    'records a reaction (%s) once per voter, by a salted hash of the IP, never the IP',
    async (action) => {
      const { route, increments, reactions } = updateRoute(3);

      const answer = await postCounter(route, { path: '/post', type: 'reaction2', action });

      expect(reactions).toEqual([{ url: '/post', name: 'reaction2', voterHash: hashIp(salt, ip), action }]);
      expect(reactions[0]?.voterHash).not.toContain(ip);
      expect(increments).toEqual([]);
      expect(answer.body).toMatchObject({ data: [{ reaction2: 3 }] });
    },
  );

  it('tells voters apart by their IP', async () => {
    const { route, reactions } = updateRoute();

    await routeAnswer(route, {
      method: 'POST',
      path: '/api/article',
      body: { path: '/post', type: 'reaction0' },
      sourceIp: '203.0.113.1',
    });
    await routeAnswer(route, {
      method: 'POST',
      path: '/api/article',
      body: { path: '/post', type: 'reaction0' },
      sourceIp: '203.0.113.2',
    });

    expect(reactions[0]?.voterHash).not.toBe(reactions[1]?.voterHash);
  });
});

/** The reading-count route over a fake of exactly its dependency, answering 5 for every counter asked. */
function readRoute() {
  const reads: { urls: readonly string[]; names: readonly CounterName[] }[] = [];
  const dependencies: ReadDependencies = {
    counters: {
      readPageCounters: async (urls, names) => {
        reads.push({ urls, names });
        return urls.map((_url, index) =>
          Object.fromEntries(names.map((name) => [name, index * 10 + 5])),
        ) as Record<CounterName, number>[];
      },
    },
  };
  return { route: createReadCounters(dependencies), reads };
}

describe('createReadCounters', () => {
  it('reads the named counters of each path and answers them in the envelope, in the order asked', async () => {
    const { route, reads } = readRoute();

    const answer = await routeAnswer(route, {
      path: '/api/article',
      query: 'path=/a,/b&type=time&type=reaction0,time',
    });

    expect(reads).toEqual([{ urls: ['/a', '/b'], names: ['time', 'reaction0'] }]);
    expect(answer).toEqual({
      statusCode: 200,
      body: {
        errno: 0,
        errmsg: '',
        data: [
          { time: 5, reaction0: 5 },
          { time: 15, reaction0: 15 },
        ],
      },
    });
  });

  it('reads pageviews when no type is named', async () => {
    const { route, reads } = readRoute();

    await routeAnswer(route, { path: '/api/article', query: 'path=/a' });

    expect(reads).toEqual([{ urls: ['/a'], names: ['time'] }]);
  });

  it('answers the v2 client bare numbers for one type, and a bare number for one path', async () => {
    const { route } = readRoute();

    const several = await routeAnswer(route, { path: '/article', query: 'path=/a,/b&type=time' });
    const one = await routeAnswer(route, { path: '/article', query: 'path=/a' });

    expect(several).toEqual({ statusCode: 200, body: [5, 15] });
    expect(one).toEqual({ statusCode: 200, body: 5 });
  });

  it('refuses a request without a path with a 400 naming path, before reading', async () => {
    const { route, reads } = readRoute();

    const answer = await routeAnswer(route, { path: '/api/article', query: 'type=time' });

    expect(answer.statusCode).toBe(400);
    expect(answer.body).toMatchObject({ details: { path: expect.any(String) } });
    expect(reads).toEqual([]);
  });
});
