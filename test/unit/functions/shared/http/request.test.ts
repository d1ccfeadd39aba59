import { describe, expect, it } from 'vitest';
import { toApiRequest } from '../../../../../functions/shared/http/request.js';
import { buildEvent } from '../../../../support/http-event.js';

describe('a request read from an API Gateway event', () => {
  it('reads any header by its lower-case name, as API Gateway passes them', () => {
    const request = toApiRequest(
      buildEvent({ path: '/api/comment/rss', headers: { 'if-none-match': '"abc"' } }),
    );

    expect(request.header('if-none-match')).toBe('"abc"');
    expect(request.header('if-modified-since')).toBeUndefined();
  });

  it('answers no header, rather than failing, for an event without headers (a direct invocation)', () => {
    const request = toApiRequest({
      ...buildEvent({ path: '/api/comment/rss' }),
      headers: undefined,
    } as never);

    expect(request.header('if-none-match')).toBeUndefined();
    expect(request.routeKey).toBe('GET /api/comment/rss');
  });
});
