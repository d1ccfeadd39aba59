import { updateCounterBodySchema } from '../shared/domain/article-schemas.js';
import { isReaction } from '../shared/domain/counters.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { translate } from '../shared/domain/messages.js';
import { bare, envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { CounterRepository } from '../shared/table/counter-repository.js';

/**
 * `POST /api/article {path, type, action}`. Pageviews: one atomic UpdateItem, and only up (`desc` on
 * `time` is refused: anyone could otherwise zero a page's views). Reactions: counted once per voter (a
 * salted hash of the client IP), like likes; `desc` withdraws only the caller's own, never below 0.
 */
export function createUpdateCounter({
  counters,
  ipHashSalt,
}: {
  readonly counters: Pick<CounterRepository, 'increment' | 'react'>;
  /** The salt of the voter's IP hash (reactions count once per voter). */
  readonly ipHashSalt: string;
}): Router {
  return async (request) => {
    const { path, type, action } = parseInput(updateCounterBodySchema, request.jsonBody(), request.lang);
    if (action === 'desc' && !isReaction(type)) {
      const rule = translate(request.lang, 'pageviewsOnlyGoUp');
      throw new AppError(
        'invalid_input',
        translate(request.lang, 'invalidInput', { problems: `action: ${rule}` }),
        { action: rule },
      );
    }
    const value = isReaction(type)
      ? await counters.react(path, type, hashIp(ipHashSalt, request.sourceIp), action)
      : await counters.increment(path, type);
    return request.legacy ? bare(value) : envelope([{ [type]: value }]);
  };
}
