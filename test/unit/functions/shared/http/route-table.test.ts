import { describe, expect, it } from 'vitest';
import { createArticleHandler } from '../../../../../functions/article/article-handler.js';
import { articleRouteKeys } from '../../../../../functions/article/routes.js';
import {
  commentAccountRouteKeys,
  commentDataRouteKeys,
  commentNotificationRouteKeys,
  commentSsoRouteKeys,
  commentPasskeyRouteKeys,
  commentOAuthRouteKeys,
  commentRouteKeys,
} from '../../../../../functions/comment/routes.js';
import { allRouteKeys, apiRoutes } from '../../../../../functions/api-routes.js';
import { envelope } from '../../../../../functions/shared/http/envelope.js';
import type { ApiRequest } from '../../../../../functions/shared/http/request.js';
import { dispatchRouteKey } from '../../../../../functions/shared/http/route-table.js';
import { buildEvent, testContext } from '../../../../support/http-event.js';

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
  it('create every /api route of each function also without /api, for the v2 client, but the notification, account, SSO, data, passkey and sign-in-provider routes', () => {
    // The account routes but the confirmation link's (Waline's mails link /verification) are /api only.
    const accountApiOnly = commentAccountRouteKeys.filter((key) => !key.endsWith('/api/verification'));
    const apiOnly: readonly string[] = [
      ...commentNotificationRouteKeys,
      ...accountApiOnly,
      ...commentSsoRouteKeys,
      ...commentDataRouteKeys.filter((key) => key.includes(' /api/')),
      ...commentPasskeyRouteKeys,
      ...commentOAuthRouteKeys,
    ];
    for (const keys of [commentRouteKeys, articleRouteKeys]) {
      for (const key of keys.filter((k) => k.includes(' /api/') && !apiOnly.includes(k))) {
        expect(keys).toContain(key.replace(' /api/', ' /'));
      }
    }
    // No widget knows them: they exist only where the mails and /ui send them.
    for (const key of apiOnly) expect(commentRouteKeys).not.toContain(key.replace(' /api/', ' /'));
    expect(commentRouteKeys).toContain('GET /verification');
    expect(commentRouteKeys).toContain('POST /verification');
  });

  it('give each route to one function only', () => {
    expect(new Set(allRouteKeys).size).toBe(allRouteKeys.length);
    expect(allRouteKeys).toHaveLength(apiRoutes.comment.length + apiRoutes.article.length);
  });
});

describe('the article function', () => {
  it('answers a route key it has no route for (never sent by API Gateway) with a JSON 404', async () => {
    const handler = createArticleHandler({
      config: { ALLOWED_ORIGINS: [], IP_HASH_SALT: 'salt-0123456789abcdef' },
      counters: {
        readPageCounters: async () => [],
        increment: async () => 0,
        react: async () => 0,
      },
    });
    const event = { ...buildEvent({ path: '/api/nothing' }), routeKey: '$default' };

    const response = await handler(event, testContext);

    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ errno: 404 });
  });
});
