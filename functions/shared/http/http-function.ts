import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { AppError, UpgradeRequiredError } from '../domain/errors.js';
import { resolveLang, translate } from '../domain/messages.js';
import { logError, setRequestId } from '../log.js';
import { sourceMappedStack } from '../source-mapped-stack.js';
import { corsHeaders, preflightResponse } from './cors.js';
import { refuseCrossSiteWrite } from './cross-site.js';
import { failure } from './envelope.js';
import type { HttpEvent, HttpHandler, HttpResult } from './http-types.js';
import { type ApiRequest, toApiRequest } from './request.js';

/** The routing function of one Lambda: answers a parsed request. */
export type Router = (request: ApiRequest) => Promise<HttpResult>;

const headersOf = (event: HttpEvent) => (event.headers ?? {}) as Record<string, string | undefined>;

/** Answers CORS preflights before any route runs. */
function preflight(allowedOrigins: readonly string[]): MiddlewareObj<HttpEvent, HttpResult> {
  return {
    before: (request) => {
      const headers = headersOf(request.event);
      if (
        request.event.requestContext.http.method === 'OPTIONS' &&
        headers['access-control-request-method']
      ) {
        return preflightResponse(headers, allowedOrigins);
      }
      return undefined;
    },
  };
}

/** Puts the CORS headers on every answer, errors included. */
function cors(allowedOrigins: readonly string[]): MiddlewareObj<HttpEvent, HttpResult> {
  const addHeaders = (request: { event: HttpEvent; response: HttpResult | undefined | null }) => {
    if (!request.response) return;
    request.response.headers = {
      ...request.response.headers,
      ...corsHeaders(headersOf(request.event).origin, allowedOrigins),
    };
  };
  return { after: addHeaders, onError: addHeaders };
}

/**
 * Turns any error into the Waline failure envelope. Only AppErrors below 500 (and `unavailable`) show their message;
 * everything else is logged and answered with a bland 500, so no internals leak.
 */
function errorEnvelope(): MiddlewareObj<HttpEvent, HttpResult> {
  return {
    onError: (request) => {
      const { error } = request;
      // `unavailable` says which service to wait for, nothing internal: shown like the 4xx.
      if (error instanceof AppError && (error.status < 500 || error.code === 'unavailable')) {
        request.response = failure(error);
        return;
      }
      const lang = resolveLang(
        new URLSearchParams(request.event.rawQueryString ?? '').get('lang') ?? undefined,
      );
      if (error instanceof UpgradeRequiredError) {
        // Safe to show: it names a command for the operator, no internals.
        request.response = failure(new AppError('upgrade_required', translate(lang, 'upgradeRequired')));
        return;
      }
      logError('request failed', { error: describeError(error) });
      request.response = failure(new AppError('internal', translate(lang, 'internal')));
    },
  };
}

/** The error's stack, mapped to the TypeScript sources when it can be; never throws. */
function describeError(error: unknown): string {
  try {
    const stack = (error as { stack?: unknown } | null | undefined)?.stack;
    return typeof stack === 'string' ? sourceMappedStack(stack) : String(error);
  } catch {
    return 'an error that cannot be described';
  }
}

/**
 * Wraps a router with the middleware every function shares: preflight, CORS, error envelope; and refuses
 * cross-site writes (cross-site.ts) before any route runs, but on `linkRoutes` (route keys whose authority
 * is a signed token in the address: the links of a mail). Every line logged meanwhile carries the
 * invocation's request id (log.ts).
 */
export function createHttpFunction(
  router: Router,
  options: { allowedOrigins: readonly string[]; linkRoutes?: readonly string[] },
): HttpHandler {
  const handler = middy<HttpEvent, HttpResult, Error, Context>()
    .use(cors(options.allowedOrigins))
    .use(errorEnvelope())
    .use(preflight(options.allowedOrigins))
    .handler((event) => {
      const request = toApiRequest(event);
      refuseCrossSiteWrite(request, options.allowedOrigins, options.linkRoutes);
      return router(request);
    });
  return (event, context) => {
    setRequestId(context.awsRequestId);
    return handler(event, context);
  };
}
