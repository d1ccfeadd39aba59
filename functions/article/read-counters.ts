import { readCountersQuerySchema } from '../shared/domain/article-schemas.js';
import { bare, envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { commaList, parseInput } from '../shared/http/request.js';
import type { CounterRepository } from '../shared/table/counter-repository.js';

/**
 * `GET /api/article?path=a,b&type=time,reaction0`: one object of counters per path, aligned with
 * the request, 0 where nothing was counted; one BatchGetItem.
 */
export function createReadCounters({
  counters,
}: {
  readonly counters: Pick<CounterRepository, 'readPageCounters'>;
}): Router {
  return async (request) => {
    const query = parseInput(
      readCountersQuerySchema,
      { path: commaList(request, 'path'), type: commaList(request, 'type') },
      request.lang,
    );
    const values = await counters.readPageCounters(query.path, query.type);
    if (!request.legacy) return envelope(values);
    // The v2 client reads bare numbers when it asked for one path or one type.
    const single =
      query.type.length === 1 ? values.map((value) => value[query.type[0] as keyof typeof value]) : values;
    return bare(single.length === 1 ? single[0] : single);
  };
}
