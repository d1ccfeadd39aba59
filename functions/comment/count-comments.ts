import { countQuerySchema } from '../shared/domain/comment-schemas.js';
import { bare, envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { commaList, parseInput } from '../shared/http/request.js';
import type { CounterRepository } from '../shared/table/counter-repository.js';

/**
 * `GET /api/comment?type=count&url=...`: visible comments per url, aligned with the request, from
 * the page counters (one BatchGetItem); no url, or an empty one, gives the site total (one GetItem).
 */
export function createCountComments({
  counters,
}: {
  readonly counters: Pick<CounterRepository, 'siteCommentCount' | 'commentCounts'>;
}): Router {
  return async (request) => {
    const { url: urls } = parseInput(
      countQuerySchema,
      { url: commaList(request, 'url') ?? [] },
      request.lang,
    );
    if (urls.every((url) => url === '')) {
      const total = await counters.siteCommentCount();
      return request.legacy ? bare(total) : envelope(total);
    }
    const counts = await counters.commentCounts(urls);
    if (request.legacy) return bare(counts.length === 1 ? counts[0] : counts);
    return envelope(counts);
  };
}
