import { describe, expect, it } from 'vitest';
import { articleRouteKeys } from '../../../../../functions/article/routes.js';
import { commentRouteKeys } from '../../../../../functions/comment/routes.js';
import { allRouteKeys, apiRoutes } from '../../../../../functions/api-routes.js';
import { envelope } from '../../../../../functions/shared/http/envelope.js';
import type { ApiRequest } from '../../../../../functions/shared/http/request.js';
import { dispatchRouteKey } from '../../../../../functions/shared/http/route-table.js';

const request = (routeKey: string) => ({ routeKey }) as ApiRequest;

describe('a function route table', () => {
  const dispatch = dispatchRouteKey(
    {
      'GET /api/comment': async () => envelope('list'),
      'GET /ui': async () => envelope('page'),
    },
    async (unrouted) => envelope(`unrouted ${unrouted.routeKey}`),
  );
  const answer = async (routeKey: string) => JSON.parse((await dispatch(request(routeKey))).body).data;

  it('answers each route key with its route', async () => {
    expect(await answer('GET /api/comment')).toBe('list');
    expect(await answer('GET /ui')).toBe('page');
  });

  it('answers a legacy route key (no /api) with its /api route', async () => {
    expect(await answer('GET /comment')).toBe('list');
  });

  it('sends $default and any key it has no route for to the unrouted answer', async () => {
    expect(await answer('$default')).toBe('unrouted $default');
    expect(await answer('POST /api/comment')).toBe('unrouted POST /api/comment');
    expect(await answer('GET /api/ui')).toBe('unrouted GET /api/ui');
  });
});

describe('the API route lists', () => {
  it('create every /api route of each function also without /api, for the v2 client', () => {
    for (const keys of [commentRouteKeys, articleRouteKeys]) {
      for (const key of keys.filter((k) => k.includes(' /api/'))) {
        expect(keys).toContain(key.replace(' /api/', ' /'));
      }
    }
  });

  it('give each route to one function only', () => {
    expect(new Set(allRouteKeys).size).toBe(allRouteKeys.length);
    expect(allRouteKeys).toHaveLength(apiRoutes.comment.length + apiRoutes.article.length);
  });
});
