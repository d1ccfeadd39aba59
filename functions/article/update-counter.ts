import { updateCounterBodySchema } from '../shared/domain/article-schemas.js';
import { isReaction } from '../shared/domain/counters.js';
import { hashIp } from '../shared/domain/hashing.js';
import { bare, envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { Services } from '../shared/services.js';

/**
 * `POST /api/article {path, type, action}`. Pageviews: one atomic UpdateItem. Reactions: counted
 * once per voter (a salted hash of the client IP), like likes. `desc` never goes below 0.
 */
export function createUpdateCounter({ counters, config }: Services): Router {
  return async (request) => {
    const { path, type, action } = parseInput(updateCounterBodySchema, request.jsonBody(), request.lang);
    let value: number;
    if (isReaction(type)) {
      value = await counters.react(path, type, hashIp(config.IP_HASH_SALT, request.sourceIp), action);
    } else {
      value = action === 'inc' ? await counters.increment(path, type) : await counters.decrement(path, type);
    }
    return request.legacy ? bare(value) : envelope([{ [type]: value }]);
  };
}
