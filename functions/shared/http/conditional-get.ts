import { createHash } from 'node:crypto';
import type { HttpResult } from './http-types.js';
import type { ApiRequest } from './request.js';

/** A strong entity tag of `body`: the first 128 bits of its SHA-256, quoted. */
export function entityTag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * True when `ifNoneMatch` (the header) names `etag`, or is `*`. The comparison is weak, as RFC 9110 has it
 * for If-None-Match: a `W/` prefix on either side does not matter.
 */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/**
 * A 200 with `body`, its ETag and `Cache-Control: public, max-age=<maxAgeSeconds>`; or, when the request
 * already holds that body (its If-None-Match names the ETag), a 304 with the same headers and no body.
 */
export function conditionalAnswer(
  request: ApiRequest,
  answer: { readonly body: string; readonly contentType: string; readonly maxAgeSeconds: number },
): HttpResult {
  const etag = entityTag(answer.body);
  const headers = { etag, 'cache-control': `public, max-age=${answer.maxAgeSeconds}` };
  if (matchesIfNoneMatch(request.header('if-none-match'), etag)) {
    return { statusCode: 304, headers, body: '' };
  }
  return {
    statusCode: 200,
    // nosniff: a browser shows the feed as the type it is, never as the HTML its items carry.
    headers: { 'content-type': answer.contentType, 'x-content-type-options': 'nosniff', ...headers },
    body: answer.body,
  };
}
