import { updateCounterBodySchema } from '../shared/domain/article-schemas.js';
import { bare, envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { Services } from '../shared/services.js';

/** `POST /api/article {path, type, action}`: one atomic UpdateItem; `desc` never goes below 0. */
export function createUpdateCounter({ counters }: Services): Router {
  return async (request) => {
    const body = parseInput(updateCounterBodySchema, request.jsonBody(), request.lang);
    const value =
      body.action === 'inc'
        ? await counters.increment(body.path, body.type)
        : await counters.decrement(body.path, body.type);
    return request.legacy ? bare(value) : envelope([{ [body.type]: value }]);
  };
}
