import { AppError } from '../domain/errors.js';
import { translate } from '../domain/messages.js';
import { type ApiRequest, isJsonContentType } from './request.js';

/** Methods that change something; a browser may send them from any site. */
const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Those that carry a JSON body. */
const withBody = new Set(['POST', 'PUT']);

/** True when `origin` is this server's own: the page came from the host the request was sent to. */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Refuses a state-changing request that a page on a site other than the configured ones may have made
 * its visitor's browser send:
 *
 * - with ALLOWED_ORIGINS set (no `*`), an `Origin` that is neither allowed nor this server's own: 403.
 *   CORS alone only hides the answer; the write would still happen.
 * - a POST or PUT whose body is not declared `application/json`, or not declared at all: 415. Any page
 *   can send a body without a type, or as `text/plain`, with no preflight; `application/json` needs one.
 *
 * Requests without `Origin` (servers, scripts, same-origin GETs) pass the first rule. Neither applies to
 * `linkRoutes`: the routes of the links in a mail, whose authority is the signed token in their address,
 * not anything a browser adds by itself. A mail provider sends RFC 8058's one-click unsubscribe as a form
 * from wherever it runs, and the pages of those links post plain HTML forms.
 */
export function refuseCrossSiteWrite(
  request: ApiRequest,
  allowedOrigins: readonly string[],
  linkRoutes: readonly string[] = [],
): void {
  if (!stateChanging.has(request.method) || linkRoutes.includes(request.routeKey)) return;
  const { origin } = request;
  if (
    origin !== undefined &&
    !allowedOrigins.includes('*') &&
    !allowedOrigins.includes(origin) &&
    !isOwnOrigin(origin, request.host)
  ) {
    throw new AppError(
      'forbidden',
      translate(request.lang, 'originNotAllowed', { origin: origin.slice(0, 200) }),
    );
  }
  if (withBody.has(request.method) && !isJsonContentType(request.contentType)) {
    throw new AppError('unsupported_media_type', translate(request.lang, 'jsonRequired'));
  }
}
