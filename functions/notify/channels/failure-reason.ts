/**
 * Why a request failed, in words fit to keep in the table: the message of the deepest cause (`connect
 * ECONNREFUSED 127.0.0.1:8443`, `no answer in time`), never fetch's own `fetch failed`, and never the
 * URL, which may hold a token.
 */
export function failureReason(error: unknown): string {
  let deepest = error;
  while (deepest instanceof Error && deepest.cause instanceof Error) deepest = deepest.cause;
  if (deepest instanceof Error && deepest.name === 'TimeoutError') return 'no answer in time';
  return deepest instanceof Error ? deepest.message : String(deepest);
}
