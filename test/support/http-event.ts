import type { Context } from 'aws-lambda';
import { allRouteKeys } from '../../functions/api-routes.js';
import type { HttpEvent } from '../../functions/shared/http/http-types.js';
import { defaultRouteKey, matchRouteKey } from '../../functions/shared/http/route-key.js';

/** What a test says of a request; the rest of the API Gateway event is filled in. */
export interface EventSpec {
  method?: string;
  path: string;
  query?: string;
  /** A string is sent as it is; anything else as its JSON. */
  body?: unknown;
  /**
   * The `Content-Type` header: `application/json` by default when there is a body (what the widgets
   * send), none without one; `null` sends a body with none, as a cross-site `no-cors` fetch does.
   */
  contentType?: string | null;
  /**
   * Whether the body arrives base64-encoded (`isBase64Encoded`). By default as API Gateway does: text
   * types as they are; any other type, or none, in base64.
   */
  base64?: boolean;
  headers?: Record<string, string>;
  sourceIp?: string;
}

/** Content types API Gateway passes as text; any other body, or one without a type, arrives in base64. */
function isTextContentType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    type.startsWith('text/') ||
    type === 'application/x-www-form-urlencoded' ||
    /^application\/([\w.-]+\+)?(json|xml)$/.test(type) ||
    type === 'application/javascript'
  );
}

/**
 * Builds an API Gateway HTTP API (payload 2.0) event, as the gateway would send it: a body whose type is
 * not text, or that has no type, arrives base64-encoded (`isBase64Encoded: true`).
 */
export function buildEvent(spec: EventSpec): HttpEvent {
  const method = spec.method ?? 'GET';
  // The route API Gateway would pick, with its path parameters; none is `$default`.
  const route = matchRouteKey(allRouteKeys, method, spec.path);
  const routeKey = route?.routeKey ?? defaultRouteKey;
  const text =
    spec.body === undefined
      ? undefined
      : typeof spec.body === 'string'
        ? spec.body
        : JSON.stringify(spec.body);
  const contentType =
    spec.contentType === null
      ? undefined
      : (spec.contentType ?? (text === undefined ? undefined : 'application/json'));
  const headers: Record<string, string> = {
    // API Gateway passes the Host the client reached it at (the API's own domain).
    host: 'localhost',
    ...(contentType !== undefined ? { 'content-type': contentType } : {}),
    ...spec.headers,
  };
  const base64 = text !== undefined && (spec.base64 ?? !isTextContentType(headers['content-type']));
  return {
    version: '2.0',
    routeKey,
    rawPath: spec.path,
    rawQueryString: spec.query ?? '',
    headers,
    ...(route?.pathParameters ? { pathParameters: route.pathParameters } : {}),
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: spec.path,
        protocol: 'HTTP/1.1',
        sourceIp: spec.sourceIp ?? '203.0.113.7',
        userAgent: 'vitest',
      },
      requestId: 'test-request',
      routeKey,
      stage: '$default',
      time: '21/Nov/2026:00:00:00 +0000',
      timeEpoch: 0,
    },
    body: base64 ? Buffer.from(text).toString('base64') : text,
    isBase64Encoded: base64,
  };
}

/**
 * A Lambda context for direct handler calls. Its time left is the test timeout's (60 s), not the functions'
 * 10 s: every test file shares one DynamoDB Local, and while a heavy file runs beside this one it can queue
 * a burst of writes to one item for more than 10 s (a CI run once timed out 87 of 200 concurrent
 * increments that way). That would say nothing of ours, like the request timeouts createLocalApi raises.
 */
export const testContext = {
  functionName: 'test',
  awsRequestId: 'test-request',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;
