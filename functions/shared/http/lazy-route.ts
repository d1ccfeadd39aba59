import { once } from '../once.js';
import type { Router } from './http-function.js';

/**
 * A route built on its first request: `load` imports the route's module and builds the route, once per instance
 * (a load that failed is tried again by the next request). The bundles keep each such module in a chunk of its
 * own (lib/bundle-options.ts), so a cold start that serves another route neither reads nor evaluates it.
 */
export function lazyRoute(load: () => Promise<Router>): Router {
  const route = once(load);
  return async (request) => (await route())(request);
}
