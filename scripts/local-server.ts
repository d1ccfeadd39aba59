/**
 * A local stand-in for API Gateway: turns each HTTP request into an HTTP API payload 2.0 event, hands it to the
 * function whose route list (functions/api-routes.ts) holds its route, as the stack's API Gateway does, and
 * writes the result back.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Context } from 'aws-lambda';
import type { HttpEvent, HttpHandler, HttpResult } from '../functions/shared/http/http-types.js';
import { apiRoutes, type FunctionName } from '../functions/api-routes.js';
import { defaultRouteKey, matchRouteKey } from '../functions/shared/http/route-key.js';
import { createLocalSite, type LocalSite, type StaticFile } from './local-site.js';
import { localLambdaContext } from './local-stream/lambda-context.js';

/** Options of the local server. */
export interface LocalServerOptions {
  /** Largest request body accepted, in bytes; larger ones get a 413. Defaults to 1 MiB. */
  readonly bodyLimitBytes?: number;
  /** The demo pages, widget files and avatars served beside the API; defaults to scripts/demo and the clients. */
  readonly site?: LocalSite;
}

/** A request matched against the route table: the function to call and the event fields that depend on it. */
export interface RouteMatch {
  readonly function: FunctionName;
  readonly routeKey: string;
  readonly pathParameters?: Record<string, string>;
}

const defaultBodyLimitBytes = 1024 * 1024;
const functionTimeoutMs = 10_000;
const drainLimitFactor = 16;
const jsonHeaders = { 'content-type': 'application/json; charset=utf-8' };
const tooLargeBody = JSON.stringify({ errno: 1000, errmsg: 'Request body is too large.' });
const internalErrorBody = JSON.stringify({ errno: 500, errmsg: 'Internal server error.' });
const otherHostBody = JSON.stringify({
  errno: 421,
  errmsg: 'This local server answers only requests addressed to 127.0.0.1, localhost or [::1].',
});

/**
 * The names this loopback server may be addressed by. Any other Host is a page that rebound its own
 * name to 127.0.0.1 (DNS rebinding): it must not pass for the server's own origin, nor read the demo.
 */
const loopbackHost = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?$/i;

/** Finds the route for `method` and `rawPath` like API Gateway does; anything else is `$default` on the comment function. */
export function matchRoute(method: string, rawPath: string): RouteMatch {
  for (const [name, routeKeys] of Object.entries(apiRoutes)) {
    const match = matchRouteKey(routeKeys, method, rawPath);
    if (match) return { function: name as FunctionName, ...match };
  }
  // The comment function is the $default integration: it answers CORS preflights and unknown paths.
  return { function: 'comment', routeKey: defaultRouteKey };
}

/** Builds the HTTP server; the caller decides where it listens (`server.listen(port, '127.0.0.1')`). */
export function createLocalServer(
  handlers: Record<FunctionName, HttpHandler>,
  options: LocalServerOptions = {},
): Server {
  const bodyLimitBytes = options.bodyLimitBytes ?? defaultBodyLimitBytes;
  const site = options.site ?? createLocalSite();
  return createServer((request, response) => {
    serve(handlers, site, bodyLimitBytes, request, response).catch((error: unknown) => {
      // A client that hung up mid-request is not an error worth a log line.
      if (request.destroyed || response.destroyed) return;
      console.error('local server: failed to answer a request', error);
      if (response.headersSent) response.destroy();
      else writeResult(response, { statusCode: 500, headers: jsonHeaders, body: internalErrorBody });
    });
  });
}

async function serve(
  handlers: Record<FunctionName, HttpHandler>,
  site: LocalSite,
  bodyLimitBytes: number,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const method = (request.method ?? 'GET').toUpperCase();
  if (request.headers.host !== undefined && !loopbackHost.test(request.headers.host)) {
    writeResult(response, { statusCode: 421, headers: jsonHeaders, body: otherHostBody });
    return;
  }
  const { rawPath, rawQueryString } = splitTarget(request.url ?? '/');
  const match = matchRoute(method, rawPath);

  // Not an API Gateway route: the demo site (and its backend's one POST). Only paths no route matches get here,
  // so routes always win.
  if (match.routeKey === defaultRouteKey && (method === 'GET' || method === 'HEAD' || method === 'POST')) {
    const file = await site(rawPath, method === 'HEAD' ? 'GET' : method);
    if (file) {
      writeStatic(response, file, method === 'HEAD');
      return;
    }
  }

  const body = await readBody(request, bodyLimitBytes);
  if (body === 'too-large') {
    writeResult(response, { statusCode: 413, headers: jsonHeaders, body: tooLargeBody });
    return;
  }

  const now = new Date();
  const requestId = randomBytes(12).toString('base64');
  const event = buildEvent(request, { method, rawPath, rawQueryString, match, body, requestId, now });
  const context = buildContext(match.function);
  let result: HttpResult;
  try {
    result = await handlers[match.function](event, context);
    if (typeof result?.statusCode !== 'number') throw new Error('the handler returned no statusCode');
  } catch (error) {
    console.error(`local server: the ${match.function} function failed on ${method} ${rawPath}`, error);
    result = { statusCode: 500, headers: jsonHeaders, body: internalErrorBody };
  }
  response.setHeader('apigw-requestid', requestId);
  writeResult(response, result);
}

interface EventParts {
  readonly method: string;
  readonly rawPath: string;
  readonly rawQueryString: string;
  readonly match: RouteMatch;
  readonly body: Buffer;
  readonly requestId: string;
  readonly now: Date;
}

function buildEvent(request: IncomingMessage, parts: EventParts): HttpEvent {
  const { method, rawPath, rawQueryString, match, body, requestId, now } = parts;
  const { headers, cookies } = collectHeaders(request.rawHeaders);
  const sourceIp = (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  // API Gateway appends the caller to X-Forwarded-For and adds the X-Forwarded-Port/-Proto it was reached on.
  headers['x-forwarded-for'] = headers['x-forwarded-for']
    ? `${headers['x-forwarded-for']}, ${sourceIp}`
    : sourceIp;
  headers['x-forwarded-port'] = String(request.socket.localPort ?? '');
  headers['x-forwarded-proto'] = 'http';
  const domainName = headers.host?.replace(/:\d+$/, '') || '127.0.0.1';
  const event: HttpEvent = {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath,
    rawQueryString,
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: match.routeKey,
      stage: '$default',
      time: formatRequestTime(now),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: false,
  };
  if (cookies.length > 0) event.cookies = cookies;
  const queryStringParameters = parseQueryString(rawQueryString);
  if (queryStringParameters) event.queryStringParameters = queryStringParameters;
  if (match.pathParameters) event.pathParameters = match.pathParameters;
  if (body.length > 0) {
    // API Gateway passes text bodies as they are and base64-encodes the rest.
    const isText = isTextContentType(headers['content-type']);
    event.body = body.toString(isText ? 'utf8' : 'base64');
    event.isBase64Encoded = !isText;
  }
  return event;
}

/**
 * Lower-cases names and comma-joins repeated headers; the cookie header becomes the `cookies` list. The names
 * are the client's, so they go on a null-prototype object: `constructor` or `__proto__` stays a header.
 */
function collectHeaders(rawHeaders: readonly string[]): {
  headers: Record<string, string>;
  cookies: string[];
} {
  const headers = Object.create(null) as Record<string, string>;
  const cookies: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] ?? '').toLowerCase();
    const value = rawHeaders[index + 1] ?? '';
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((cookie) => cookie.trim())
          .filter(Boolean),
      );
      continue;
    }
    const previous = headers[name];
    headers[name] = previous === undefined ? value : `${previous},${value}`;
  }
  return { headers, cookies };
}

/** Decodes the query string; repeated keys are comma-joined as API Gateway does (on a null prototype, as headers). */
function parseQueryString(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  const parameters = Object.create(null) as Record<string, string>;
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    const previous = parameters[key];
    parameters[key] = previous === undefined ? value : `${previous},${value}`;
  }
  return Object.keys(parameters).length > 0 ? parameters : undefined;
}

function isTextContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    type.startsWith('text/') ||
    type === 'application/x-www-form-urlencoded' ||
    /^application\/([\w.-]+\+)?(json|xml)$/.test(type) ||
    type === 'application/javascript'
  );
}

/** Reads the body, or drains it and answers 'too-large' once it passes the limit. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolveBody, reject) => {
    const declared = Number(request.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (tooLarge) {
        // A client that keeps sending far past the limit is cut off rather than drained for ever.
        if (size > drainLimitFactor * limit) {
          request.socket.destroy();
          resolveBody('too-large');
        }
        return;
      }
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    // Draining the rest before answering lets the client finish sending and read the 413.
    request.on('end', () => resolveBody(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function writeResult(response: ServerResponse, result: HttpResult): void {
  response.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    response.setHeader(name, String(value));
  }
  // Payload 2.0 results may carry `cookies` and a base64 body; HttpResult does not declare them, so read loosely.
  const extra = result as { cookies?: unknown; isBase64Encoded?: unknown };
  if (Array.isArray(extra.cookies) && extra.cookies.length > 0) {
    response.setHeader('set-cookie', extra.cookies.map(String));
  }
  const body = result.body ?? '';
  response.end(extra.isBase64Encoded === true ? Buffer.from(body, 'base64') : body);
}

function writeStatic(response: ServerResponse, file: StaticFile, headOnly: boolean): void {
  response.statusCode = file.statusCode;
  for (const [name, value] of Object.entries(file.headers)) response.setHeader(name, value);
  response.setHeader('content-length', file.body.length);
  response.end(headOnly ? undefined : file.body);
}

function buildContext(functionName: FunctionName): Context {
  return localLambdaContext({
    functionName: `marginalia-${functionName}`,
    timeoutMs: functionTimeoutMs,
    memoryLimitInMB: 512,
  });
}

/** Splits a request target into path and query exactly as received (an absolute-form target keeps its path). */
function splitTarget(target: string): { rawPath: string; rawQueryString: string } {
  const pathAndQuery = /^[a-z][a-z0-9+.-]*:\/\//i.test(target)
    ? target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, '') || '/'
    : target;
  const questionMark = pathAndQuery.indexOf('?');
  if (questionMark === -1) return { rawPath: pathAndQuery, rawQueryString: '' };
  return {
    rawPath: pathAndQuery.slice(0, questionMark),
    rawQueryString: pathAndQuery.slice(questionMark + 1),
  };
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** API Gateway's `requestContext.time` format, e.g. `12/Mar/2020:19:03:58 +0000`. */
function formatRequestTime(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}
