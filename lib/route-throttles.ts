/**
 * How the API's request ceiling is shared out between its routes. HTTP API throttling keeps one token
 * bucket per route (the stage's default settings are each route's own bucket, not a shared one), so a
 * ceiling that holds across the API is the sum of the routes' limits: this module splits the ceiling
 * into per-route limits whose sum is exactly the ceiling. The links in a mail are the exception: their
 * routes have fixed limits of their own beside the ceiling (`linkRouteThrottles`).
 */
import { defaultRouteKey } from '../functions/shared/http/route-key.js';
import { routes } from './routes.js';

/**
 * Each route's percentage of the API ceiling (they add up to 100). The costly routes get small shares:
 * list, count and recent (`GET …/comment`: a list reads a page of comments), submit (renders markdown,
 * may call Akismet, writes in a transaction), like and moderation (`PUT`/`DELETE …/comment/{id}`),
 * sign-in (`POST …/token`: a password hash), the profile (`PUT …/user`: rare, may hash a password), the user
 * wall and the administrators' account routes (`…/user`, `…/user/{id}`); registration and the reset
 * (`POST …/user`, `…/user/password`: rare, hash a password) and their pages get half a share each. The
 * rarest get a quarter each: the site's single sign-on (`POST /api/token/sso`: once per member's sign-in on
 * the site), a commenter's data routes (`…/my-data`) and their page, and passkeys.
 * Reading counts (`…/article`: one small item read or updated) get the largest. The v2 client's bare
 * paths get less than the v3 client's `/api` ones.
 * The comment feeds (`GET …/comment/rss`: one Query, polled by feed readers) get a small share too, as
 * do the notification log and its actions (`…/notification`, used from `/ui`), and the user wall (`GET …/user`: one
 * Query and one batch read, cached per instance). The links in a mail have
 * no share: `linkRouteThrottles`.
 * Sign-in with an issuer or GitHub (`…/oauth/{id}`, `…/oauth/callback`: a flow item written, then taken, and one
 * exchange with the provider) get half a share each, taken from reading counts.
 * `$default` answers 404s and, for `…/comment/` with a trailing slash, lists: 1%.
 */
export const routeShares: Readonly<Record<string, number>> = {
  'GET /api/comment': 15,
  'GET /api/comment/rss': 1,
  'POST /api/comment': 2,
  'PUT /api/comment/{id}': 2,
  'DELETE /api/comment/{id}': 1,
  'GET /api/article': 17,
  'POST /api/article': 14.5,
  'GET /api/token': 1,
  'POST /api/token': 1,
  'POST /api/token/sso': 0.25,
  'DELETE /api/token': 1,
  'GET /api/token/2fa': 1,
  'POST /api/token/2fa': 1,
  'DELETE /api/token/2fa': 1,
  'PUT /api/user': 1,
  'GET /api/user': 1,
  'PUT /api/user/{id}': 1,
  'DELETE /api/user/{id}': 1,
  'POST /api/user': 0.5,
  'PUT /api/user/password': 0.5,
  'POST /api/user/password': 0.5,
  'GET /api/notification': 1,
  'POST /api/notification': 1,
  'GET /api/passkey': 0.25,
  'POST /api/passkey/options': 0.25,
  'POST /api/passkey': 0.25,
  'DELETE /api/passkey/{id}': 0.25,
  'POST /api/token/passkey/options': 0.25,
  'POST /api/token/passkey': 0.25,
  'GET /comment': 5,
  'GET /comment/rss': 1,
  'POST /comment': 1,
  'PUT /comment/{id}': 1,
  'DELETE /comment/{id}': 1,
  'GET /article': 2.5,
  'POST /article': 2.5,
  'GET /token': 1,
  'POST /token': 1,
  'DELETE /token': 1,
  'GET /token/2fa': 1,
  'POST /token/2fa': 1,
  'DELETE /token/2fa': 1,
  'PUT /user': 1,
  'GET /user': 1,
  'PUT /user/{id}': 1,
  'DELETE /user/{id}': 1,
  'GET /ui': 1,
  'GET /ui/login': 1,
  'GET /ui/profile': 1,
  'GET /ui/users': 1,
  'GET /ui/register': 0.5,
  'GET /ui/forgot': 0.5,
  'GET /ui/reset': 0.5,
  // A commenter's own data (issue 28): rare, each bounded (a mail, a page of comments, an erase's 5 s).
  'POST /api/my-data': 0.25,
  'GET /api/my-data': 0.25,
  'DELETE /api/my-data': 0.25,
  'GET /api/my-data/log': 0.25,
  'GET /ui/my-data': 0.25,
  'GET /api/oauth/{id}': 0.25,
  'GET /api/oauth/callback': 0.25,
  [defaultRouteKey]: 1,
};

/** One route's token bucket: steady requests per second and the burst it absorbs. */
export interface RouteThrottle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/**
 * The routes of the links in a mail (functions/comment/routes.ts, all served by the comment function), each
 * with a fixed limit of its own beside the shared ceiling, whatever `throttleRateLimit` is. A share of the
 * ceiling gave each 0.5 requests/s, so about one request a second from anyone made every one-click
 * unsubscribe answer 429. Each route keeps its own token bucket, so a flood on a page (link scanners open
 * every link in a mail) or on the moderation links never takes the one-click POST's requests; the POST
 * (RFC 8058: what a mail provider sends when its reader clicks "unsubscribe") gets the largest. A forged
 * token is refused before any table read, so these 10 requests/s cost requests and milliseconds, not units.
 */
export const linkRouteThrottles: Readonly<Record<string, RouteThrottle>> = {
  'POST /api/notification/unsubscribe': { rateLimit: 5, burstLimit: 10 },
  'GET /api/notification/unsubscribe': { rateLimit: 1, burstLimit: 5 },
  'GET /api/notification/moderate': { rateLimit: 1, burstLimit: 5 },
  'POST /api/notification/moderate': { rateLimit: 1, burstLimit: 2 },
  'GET /api/notification/confirm': { rateLimit: 1, burstLimit: 5 },
  'POST /api/notification/confirm': { rateLimit: 1, burstLimit: 5 },
  // An account's confirmation link (registration), with Waline's bare path: its page and its button.
  'GET /api/verification': { rateLimit: 1, burstLimit: 5 },
  'POST /api/verification': { rateLimit: 1, burstLimit: 5 },
  'GET /verification': { rateLimit: 1, burstLimit: 5 },
  'POST /verification': { rateLimit: 1, burstLimit: 5 },
};

/** Every route key the API has, `$default` last. */
export function routeKeys(): string[] {
  return [...routes.map((route) => `${route.method} ${route.path}`), defaultRouteKey];
}

/** The route keys that share the API ceiling: every route but the mail links', `$default` last. */
export function sharedRouteKeys(): string[] {
  return routeKeys().filter((key) => !Object.hasOwn(linkRouteThrottles, key));
}

/**
 * Every route's limits: the mail links' fixed ones (`linkRouteThrottles`), and the API ceiling split
 * between the other routes by their shares: rates to the hundredth of a request per second, bursts in
 * whole requests. Each sum over the shared routes equals the ceiling exactly, and every one gets at least
 * one unit, so the ceiling must be at least 0.01 × those routes (rate) and 1 × those routes (burst).
 */
export function routeThrottles(ceiling: RouteThrottle): Record<string, RouteThrottle> {
  const all = routeKeys();
  for (const key of Object.keys(linkRouteThrottles)) {
    if (!all.includes(key)) throw new Error(`lib/route-throttles.ts: link route ${key} is not a route`);
  }
  const keys = sharedRouteKeys();
  const shares = keys.map((key) => {
    const share = routeShares[key];
    if (share === undefined) throw new Error(`lib/route-throttles.ts: route ${key} has no share of the API`);
    return share;
  });
  const rateHundredths = Math.round(ceiling.rateLimit * 100);
  if (rateHundredths < keys.length || ceiling.burstLimit < keys.length) {
    throw new Error(
      `throttle: ${keys.length} routes share the API ceiling, each with its own limit: the rate must be at ` +
        `least ${keys.length / 100} and the burst at least ${keys.length}`,
    );
  }
  const rates = apportion(rateHundredths, shares);
  const bursts = apportion(ceiling.burstLimit, shares);
  const split: Record<string, RouteThrottle> = Object.fromEntries(
    keys.map((key, i) => [key, { rateLimit: (rates[i] ?? 0) / 100, burstLimit: bursts[i] ?? 0 }]),
  );
  // In the order of the routes, each with its link limit or its share.
  return Object.fromEntries(
    all.flatMap((key) => {
      const limit = linkRouteThrottles[key] ?? split[key];
      return limit === undefined ? [] : [[key, limit] as const];
    }),
  );
}

/**
 * Splits `total` whole units in proportion to `weights` (largest remainder: each gets the floor of its
 * exact share, the units left over go to the largest fractions), then moves a unit from the largest
 * allocation to any that got none: a route limited to 0 would refuse every request.
 */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const units = exact.map(Math.floor);
  const byRemainder = exact
    .map((value, i) => ({ i, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  let left = total - units.reduce((a, b) => a + b, 0);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    units[i] = (units[i] ?? 0) + 1;
    left -= 1;
  }
  for (let i = 0; i < units.length; i += 1) {
    if (units[i] !== 0) continue;
    const largest = units.indexOf(Math.max(...units));
    units[largest] = (units[largest] ?? 0) - 1;
    units[i] = 1;
  }
  return units;
}
