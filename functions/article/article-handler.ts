import { createHttpFunction } from '../shared/http/http-function.js';
import type { HttpHandler } from '../shared/http/http-types.js';
import { routeNotFound } from '../shared/http/route-errors.js';
import { dispatchRouteKey, type RouteTable } from '../shared/http/route-table.js';
import type { ArticleDependencies } from './dependencies.js';
import { createReadCounters } from './read-counters.js';
import type { ArticleRouteKey } from './routes.js';
import { createUpdateCounter } from './update-counter.js';

/**
 * The article function: reading counts (pageviews and reactions). Its table answers exactly the routes
 * of routes.ts, which the stack and local mode create; API Gateway sends it nothing else.
 */
export function createArticleHandler({ config, counters }: ArticleDependencies): HttpHandler {
  const table: RouteTable<ArticleRouteKey> = {
    'GET /api/article': createReadCounters({ counters }),
    'POST /api/article': createUpdateCounter({ counters, ipHashSalt: config.IP_HASH_SALT }),
  };
  return createHttpFunction(
    dispatchRouteKey(table, async (request) => {
      throw routeNotFound(request);
    }),
    { allowedOrigins: config.ALLOWED_ORIGINS },
  );
}
