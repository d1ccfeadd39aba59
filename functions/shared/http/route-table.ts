import type { Router } from './http-function.js';
import { apiTwin, type RouteKey } from './route-key.js';

/** A function's route table: the route that answers each of its route keys. */
export type RouteTable<K extends RouteKey> = Readonly<Record<K, Router>>;

/**
 * Answers each request with the route its API Gateway `routeKey` names. A legacy key (`GET /comment`, the
 * v2 client's) is answered by its `/api` twin, which leaves out the envelope for it (`request.legacy`).
 * Anything else (`$default`) goes to `unrouted`.
 */
export function dispatchRouteKey<K extends RouteKey>(table: RouteTable<K>, unrouted: Router): Router {
  const routes = new Map<string, Router>(Object.entries(table));
  return (request) => {
    const route = routes.get(request.routeKey) ?? routes.get(apiTwin(request.routeKey));
    return (route ?? unrouted)(request);
  };
}
