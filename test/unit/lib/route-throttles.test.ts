import { describe, expect, it } from 'vitest';
import { defaultRouteKey } from '../../../functions/shared/http/route-key.js';
import { routeKeys, routeShares, routeThrottles } from '../../../lib/route-throttles.js';
import { routes } from '../../../lib/routes.js';

/** Rates are hundredths of a request per second: sum them as whole hundredths. */
function totals(throttles: ReturnType<typeof routeThrottles>): { rate: number; burst: number } {
  const values = Object.values(throttles);
  return {
    rate: values.reduce((sum, value) => sum + Math.round(value.rateLimit * 100), 0) / 100,
    burst: values.reduce((sum, value) => sum + value.burstLimit, 0),
  };
}

describe('routeThrottles', () => {
  it('gives a share to every route and $default, and the shares add up to 100%', () => {
    expect(Object.keys(routeShares).sort()).toEqual(routeKeys().sort());
    expect(routeKeys()).toHaveLength(routes.length + 1);
    expect(routeKeys()).toContain(defaultRouteKey);
    expect(Object.values(routeShares).reduce((sum, share) => sum + share, 0)).toBe(100);
  });

  it.each([
    [50, 100],
    // The smallest burst: one request for each route.
    [1, routeKeys().length],
    [5, 40],
    [7.33, 37],
    [1000, 2000],
  ])('splits a ceiling of %s requests/s and %s burst into route limits that add up to it', (rate, burst) => {
    const throttles = routeThrottles({ rateLimit: rate, burstLimit: burst });

    expect(Object.keys(throttles).sort()).toEqual(routeKeys().sort());
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
      'GET /api/comment': { rateLimit: 8, burstLimit: 16 },
      'POST /api/comment': { rateLimit: 1, burstLimit: 2 },
      'PUT /api/comment/{id}': { rateLimit: 1, burstLimit: 2 },
      'DELETE /api/comment/{id}': { rateLimit: 0.5, burstLimit: 1 },
      'GET /api/article': { rateLimit: 10, burstLimit: 20 },
      'POST /api/article': { rateLimit: 10, burstLimit: 20 },
      'POST /api/token': { rateLimit: 0.5, burstLimit: 1 },
      'GET /comment': { rateLimit: 4, burstLimit: 8 },
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

  it('throws when the burst cannot give each route one request', () => {
    const count = routeKeys().length;

    expect(() => routeThrottles({ rateLimit: 50, burstLimit: count - 1 })).toThrow(
      new RegExp(`burst at least ${count}`),
    );
    expect(() => routeThrottles({ rateLimit: 50, burstLimit: count })).not.toThrow();
  });
});
