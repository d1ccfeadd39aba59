import { describe, expect, it } from 'vitest';
import { defaultRouteKey } from '../../../functions/shared/http/route-key.js';
import {
  linkRouteThrottles,
  routeKeys,
  routeShares,
  routeThrottles,
  sharedRouteKeys,
} from '../../../lib/route-throttles.js';
import { routes } from '../../../lib/routes.js';
import {
  accountLegacyRouteKeys,
  commentAccountRouteKeys,
  commentNotificationRouteKeys,
} from '../../../functions/comment/routes.js';

const oneClick = 'POST /api/notification/unsubscribe';
const linkKeys = [
  oneClick,
  'GET /api/notification/unsubscribe',
  'GET /api/notification/moderate',
  'POST /api/notification/moderate',
  'GET /api/notification/confirm',
  'POST /api/notification/confirm',
  'GET /api/verification',
  'POST /api/verification',
  'GET /verification',
  'POST /verification',
];

/** The limits of the routes that share the ceiling, summed; rates as whole hundredths of a request/s. */
function totals(throttles: ReturnType<typeof routeThrottles>): { rate: number; burst: number } {
  const values = sharedRouteKeys().flatMap((key) => throttles[key] ?? []);
  return {
    rate: values.reduce((sum, value) => sum + Math.round(value.rateLimit * 100), 0) / 100,
    burst: values.reduce((sum, value) => sum + value.burstLimit, 0),
  };
}

describe('routeThrottles', () => {
  it('gives a share to every route and $default but the mail links, and the shares add up to 100%', () => {
    expect(Object.keys(routeShares).sort()).toEqual(sharedRouteKeys().sort());
    expect(routeKeys()).toHaveLength(routes.length + 1);
    expect(routeKeys()).toContain(defaultRouteKey);
    expect(sharedRouteKeys()).toEqual(routeKeys().filter((key) => !linkKeys.includes(key)));
    expect(Object.values(routeShares).reduce((sum, share) => sum + share, 0)).toBe(100);
  });

  it.each([
    [50, 100],
    // The smallest burst: one request for each route that shares the ceiling.
    [1, sharedRouteKeys().length],
    [5, 62],
    [7.33, 62],
    [1000, 2000],
  ])('splits a ceiling of %s requests/s and %s burst into route limits that add up to it', (rate, burst) => {
    const throttles = routeThrottles({ rateLimit: rate, burstLimit: burst });

    expect(Object.keys(throttles)).toEqual(routeKeys());
    expect(totals(throttles)).toEqual({ rate, burst });
    for (const share of Object.values(throttles)) {
      expect(share.rateLimit).toBeGreaterThanOrEqual(0.01);
      expect(share.burstLimit).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(share.burstLimit)).toBe(true);
    }
  });

  it('gives the documented limits at the default ceiling of 50 requests/s and 100 burst', () => {
    const throttles = routeThrottles({ rateLimit: 50, burstLimit: 100 });

    expect(throttles).toMatchObject({
      'GET /api/comment': { rateLimit: 7.5, burstLimit: 11 },
      'POST /api/comment': { rateLimit: 1, burstLimit: 2 },
      'PUT /api/comment/{id}': { rateLimit: 1, burstLimit: 2 },
      'DELETE /api/comment/{id}': { rateLimit: 0.5, burstLimit: 1 },
      'GET /api/article': { rateLimit: 8.5, burstLimit: 11 },
      'POST /api/article': { rateLimit: 7.25, burstLimit: 11 },
      'POST /api/token/sso': { rateLimit: 0.13, burstLimit: 1 },
      'POST /api/token': { rateLimit: 0.5, burstLimit: 1 },
      'GET /comment': { rateLimit: 2.5, burstLimit: 5 },
      'GET /api/token/2fa': { rateLimit: 0.5, burstLimit: 1 },
      [defaultRouteKey]: { rateLimit: 0.5, burstLimit: 1 },
    });
  });

  it('gives the costly routes smaller limits than reading counts when the ceiling is shared', () => {
    const throttles = routeThrottles({ rateLimit: 50, burstLimit: 100 });
    const rate = (key: string) => throttles[key]?.rateLimit ?? Number.NaN;
    const costly = [
      'GET /api/comment',
      'POST /api/comment',
      'PUT /api/comment/{id}',
      'DELETE /api/comment/{id}',
      'POST /api/token',
    ];

    for (const key of costly) {
      expect(rate(key), key).toBeLessThan(rate('GET /api/article'));
    }
    for (const key of costly.slice(1)) {
      expect(rate(key), key).toBeLessThanOrEqual(1);
    }
  });

  it.each([
    [1, sharedRouteKeys().length],
    [50, 100],
    [1000, 2000],
  ])(
    'gives each mail link route its own fixed limit beside a ceiling of %s requests/s and %s burst',
    (rate, burst) => {
      const throttles = routeThrottles({ rateLimit: rate, burstLimit: burst });

      expect(Object.keys(linkRouteThrottles).sort()).toEqual([...linkKeys].sort());
      for (const key of linkKeys) {
        expect(throttles[key], key).toEqual(linkRouteThrottles[key]);
      }
    },
  );

  it('gives the one-click unsubscribe 5 requests/s and a burst of 10 in a bucket of its own', () => {
    const throttles = routeThrottles({ rateLimit: 50, burstLimit: 100 });

    // RFC 8058's POST: ten times what a 1% share of the default ceiling gave it.
    expect(throttles[oneClick]).toEqual({ rateLimit: 5, burstLimit: 10 });
    // The other link routes are limits of their own (API Gateway keeps one bucket per route key, checked
    // on the stage in marginalia-stack-ceilings.test.ts), none larger than the POST's.
    for (const key of linkKeys.filter((key) => key !== oneClick)) {
      expect(throttles[key]?.rateLimit, key).toBeLessThanOrEqual(throttles[oneClick]?.rateLimit ?? 0);
      expect(throttles[key]?.rateLimit, key).toBeGreaterThanOrEqual(1);
    }
  });

  it('keeps the mail links at 14 requests/s and 52 burst in all, on top of the ceiling', () => {
    const links = Object.values(linkRouteThrottles);

    expect(links.reduce((sum, limit) => sum + limit.rateLimit, 0)).toBe(14);
    expect(links.reduce((sum, limit) => sum + limit.burstLimit, 0)).toBe(52);
  });

  it('limits only the mail links of the comment function (notifications, account confirmation) as mail links', () => {
    const commentKeys = routes
      .filter((route) => route.function === 'comment')
      .map((route) => `${route.method} ${route.path}`);

    for (const key of linkKeys) {
      expect(commentKeys, key).toContain(key);
      expect(
        [
          ...commentNotificationRouteKeys,
          ...commentAccountRouteKeys,
          ...accountLegacyRouteKeys,
        ] as readonly string[],
        key,
      ).toContain(key);
    }
  });

  it('throws when the burst cannot give each shared route one request', () => {
    const count = sharedRouteKeys().length;

    expect(() => routeThrottles({ rateLimit: 50, burstLimit: count - 1 })).toThrow(
      new RegExp(`burst at least ${count}`),
    );
    expect(() => routeThrottles({ rateLimit: 50, burstLimit: count })).not.toThrow();
  });
});
