import type { HttpResult } from './http-types.js';

/** The CORS headers of a response to a request from `origin`, for the configured origins. */
export function corsHeaders(
  origin: string | undefined,
  allowedOrigins: readonly string[],
): Record<string, string> {
  if (allowedOrigins.includes('*')) return { 'access-control-allow-origin': '*' };
  const allowed = origin !== undefined && allowedOrigins.includes(origin);
  // Vary: a cache must not hand one origin's answer to another.
  return allowed ? { 'access-control-allow-origin': origin, vary: 'Origin' } : { vary: 'Origin' };
}

/** The answer to a CORS preflight: allowed methods, and the requested headers echoed (as Waline does). */
export function preflightResponse(
  headers: Record<string, string | undefined>,
  allowedOrigins: readonly string[],
): HttpResult {
  const requested = headers['access-control-request-headers'];
  // Echo only a plain list of header names; anything else is hostile or broken.
  const echo = requested && /^[\w\-, ]{1,1024}$/.test(requested) ? requested : undefined;
  return {
    statusCode: 204,
    headers: {
      ...corsHeaders(headers.origin, allowedOrigins),
      'access-control-allow-methods': 'GET,HEAD,PUT,POST,DELETE,PATCH',
      ...(echo ? { 'access-control-allow-headers': echo } : {}),
      'access-control-max-age': '86400',
    },
    body: '',
  };
}
