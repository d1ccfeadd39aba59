import type { Context } from 'aws-lambda';
import type { HttpEvent } from '../../functions/shared/http/http-types.js';

/** What a test says of a request; the rest of the API Gateway event is filled in. */
export interface EventSpec {
  method?: string;
  path: string;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
  sourceIp?: string;
}

/** Builds an API Gateway HTTP API (payload 2.0) event, as the gateway would send it. */
export function buildEvent(spec: EventSpec): HttpEvent {
  const method = spec.method ?? 'GET';
  const id = /\/comment\/([^/]+)$/.exec(spec.path)?.[1];
  const body =
    spec.body === undefined
      ? undefined
      : typeof spec.body === 'string'
        ? spec.body
        : JSON.stringify(spec.body);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: spec.path,
    rawQueryString: spec.query ?? '',
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...spec.headers,
    },
    ...(id ? { pathParameters: { id: decodeURIComponent(id) } } : {}),
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
      routeKey: '$default',
      stage: '$default',
      time: '21/Nov/2026:00:00:00 +0000',
      timeEpoch: 0,
    },
    body,
    isBase64Encoded: false,
  };
}

/** A Lambda context for direct handler calls. */
export const testContext = {
  functionName: 'test',
  awsRequestId: 'test-request',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;
