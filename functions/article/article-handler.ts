import { createHttpFunction } from '../shared/http/http-function.js';
import type { HttpHandler } from '../shared/http/http-types.js';
import { parseResourcePath } from '../shared/http/resource-path.js';
import { methodNotAllowed, routeNotFound } from '../shared/http/route-errors.js';
import type { Services } from '../shared/services.js';
import { createReadCounters } from './read-counters.js';
import { createUpdateCounter } from './update-counter.js';

/** The article function: reading counts (pageviews and reactions). */
export function createArticleHandler(services: Services): HttpHandler {
  const read = createReadCounters(services);
  const update = createUpdateCounter(services);

  return createHttpFunction(
    async (request) => {
      const target = parseResourcePath(request.path);
      if (target?.resource !== 'article' || target.id !== undefined) throw routeNotFound(request);
      if (request.method === 'GET') return read(request);
      if (request.method === 'POST') return update(request);
      throw methodNotAllowed(request);
    },
    { allowedOrigins: services.config.ALLOWED_ORIGINS },
  );
}
