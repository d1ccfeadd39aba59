import { describe, expect, it } from 'vitest';
import {
  apiTwin,
  legacyTwin,
  matchRouteKey,
  pathHasRoute,
  type RouteKey,
} from '../../../../../functions/shared/http/route-key.js';

const keys: readonly RouteKey[] = ['GET /api/comment', 'PUT /api/comment/{id}', 'GET /ui/login'];

describe('route keys', () => {
  it('picks the route of the method and the exact path, as API Gateway does', () => {
    expect(matchRouteKey(keys, 'GET', '/api/comment')).toEqual({ routeKey: 'GET /api/comment' });
    expect(matchRouteKey(keys, 'GET', '/ui/login')).toEqual({ routeKey: 'GET /ui/login' });
  });

  it('prefers a route without parameters to one whose parameter matches the same segment, in any order', () => {
    const keys = ['PUT /api/user/{id}', 'PUT /api/user/password'] as const;
    expect(matchRouteKey(keys, 'PUT', '/api/user/password')).toEqual({ routeKey: 'PUT /api/user/password' });
    expect(matchRouteKey(keys, 'PUT', '/api/user/01ABC')).toEqual({
      routeKey: 'PUT /api/user/{id}',
      pathParameters: { id: '01ABC' },
    });
  });

  it('fills a {name} segment with the decoded value, keeping one that does not decode as sent', () => {
    expect(matchRouteKey(keys, 'PUT', '/api/comment/a%20b')).toEqual({
      routeKey: 'PUT /api/comment/{id}',
      pathParameters: { id: 'a b' },
    });
    expect(matchRouteKey(keys, 'PUT', '/api/comment/%E0%A4%A')?.pathParameters).toEqual({ id: '%E0%A4%A' });
  });

  it('matches no route for another method, a trailing slash, a deeper path or a prefix', () => {
    expect(matchRouteKey(keys, 'POST', '/api/comment')).toBeUndefined();
    expect(matchRouteKey(keys, 'GET', '/api/comment/')).toBeUndefined();
    expect(matchRouteKey(keys, 'PUT', '/api/comment/a/b')).toBeUndefined();
    expect(matchRouteKey(keys, 'PUT', '/api/comment/')).toBeUndefined();
    expect(matchRouteKey(keys, 'GET', '/api/commentary')).toBeUndefined();
    expect(matchRouteKey(keys, 'GET', '/xapi/comment')).toBeUndefined();
  });

  it('reads the path literally: a dot or a brace in a template is no pattern', () => {
    const literal: readonly RouteKey[] = ['GET /feed.xml'];

    expect(matchRouteKey(literal, 'GET', '/feed.xml')).toEqual({ routeKey: 'GET /feed.xml' });
    expect(matchRouteKey(literal, 'GET', '/feedxxml')).toBeUndefined();
  });

  it('tells a routed path asked with another method (a 405) from an unknown one (a 404)', () => {
    expect(pathHasRoute(keys, '/api/comment')).toBe(true);
    expect(pathHasRoute(keys, '/api/comment/x')).toBe(true);
    expect(pathHasRoute(keys, '/api/nothing')).toBe(false);
  });

  it('names the legacy twin of an /api route, and back', () => {
    expect(legacyTwin('GET /api/comment')).toBe('GET /comment');
    expect(legacyTwin('DELETE /api/comment/{id}')).toBe('DELETE /comment/{id}');
    expect(apiTwin('GET /comment')).toBe('GET /api/comment');
    expect(apiTwin('PUT /comment/{id}')).toBe('PUT /api/comment/{id}');
  });
});
