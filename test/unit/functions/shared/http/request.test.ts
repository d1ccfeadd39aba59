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

  it('reads a cookie from payload 2.0 cookies, by its exact name, its value whole', () => {
    const request = toApiRequest({
      ...buildEvent({ path: '/api/oauth/callback' }),
      cookies: ['amarginalia=prefix', ' marginalia = a=b ', 'marginalia=second', 'broken', '=x'],
    });

    expect(request.cookie?.('marginalia')).toBe('a=b');
    expect(request.cookie?.('amarginalia')).toBe('prefix');
    expect(request.cookie?.('other')).toBeUndefined();
    expect(request.cookie?.('broken')).toBeUndefined();
    // A pair without `=` names no cookie, not even its own text cut short; nor does `=x` name the empty one.
    expect(request.cookie?.('broke')).toBeUndefined();
    expect(request.cookie?.('')).toBeUndefined();
  });

  it('reads a cookie from a cookie header when the event has no cookies list', () => {
    const request = toApiRequest(
      buildEvent({ path: '/api/oauth/callback', headers: { cookie: 'a=1; b=2' } }),
    );

    expect(request.cookie?.('b')).toBe('2');
    expect(request.cookie?.('a')).toBe('1');
    expect(toApiRequest(buildEvent({ path: '/api/oauth/callback' })).cookie?.('a')).toBeUndefined();
    // An event with no headers at all (a hand-made or test event) reads no cookie rather than throwing.
    const bare = { ...buildEvent({ path: '/api/oauth/callback' }), headers: undefined };
    expect(toApiRequest(bare as unknown as Parameters<typeof toApiRequest>[0]).cookie?.('a')).toBeUndefined();
  });
});
