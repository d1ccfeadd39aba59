import en from 'zod/v4/locales/en.js';
import zhCN from 'zod/v4/locales/zh-CN.js';
import { AppError } from '../domain/errors.js';
import { limits } from '../domain/limits.js';
import { type Lang, resolveLang, translate } from '../domain/messages.js';
import type * as z from '../domain/zod.js';
import type { HttpEvent } from './http-types.js';

const zodLocales = { en: en().localeError, 'zh-CN': zhCN().localeError } satisfies Record<Lang, unknown>;

/** What routes read of a request, parsed once. */
export interface ApiRequest {
  /** The route API Gateway picked (`GET /api/comment/{id}`), or `$default` when none matched. */
  readonly routeKey: string;
  readonly method: string;
  readonly path: string;
  /** True on the routes without `/api` (client v2), which answer reads without the envelope. */
  readonly legacy: boolean;
  readonly lang: Lang;
  /** The client address as API Gateway saw the connection (never a forwarded header). */
  readonly sourceIp: string;
  /** The `{id}` path parameter, if the route has one. */
  readonly id: string | undefined;
  /** The `Authorization` header (the widget sends `Bearer undefined` when signed out). */
  readonly authorization: string | undefined;
  /** The `Origin` header: the site of the page that sent the request, when a browser sent it. */
  readonly origin: string | undefined;
  /** The `Host` header: the name (and port) this server was reached at. */
  readonly host: string | undefined;
  /** The `Content-Type` header. */
  readonly contentType: string | undefined;
  /** Header `name` (lower case, as API Gateway passes them; repeated ones comma-joined). */
  header(name: string): string | undefined;
  /** Every value of query parameter `name`, in order. */
  queryAll(name: string): string[];
  /** The first value of query parameter `name`. */
  query(name: string): string | undefined;
  /**
   * The JSON body, bounded in size. Its `application/json` type is checked before any route runs
   * (cross-site.ts), for every POST and PUT.
   */
  jsonBody(): unknown;
  /**
   * The body as text (decoded from base64 when API Gateway sent it so), bounded in size: for the mail
   * links' form posts (cross-site.ts lets those routes through). Absent on requests tests build by hand.
   */
  textBody?(): string;
  /**
   * The value of cookie `name` (API Gateway's payload 2.0 passes cookies apart from the headers). Absent on
   * requests tests build by hand.
   */
  cookie?(name: string): string | undefined;
}

/** Reads an API Gateway event into an ApiRequest. */
export function toApiRequest(event: HttpEvent): ApiRequest {
  const params = new URLSearchParams(event.rawQueryString ?? '');
  const lang = resolveLang(params.get('lang') ?? undefined);
  const path = event.rawPath;
  return {
    routeKey: event.routeKey,
    method: event.requestContext.http.method.toUpperCase(),
    path,
    legacy: !path.startsWith('/api/'),
    lang,
    sourceIp: event.requestContext.http.sourceIp,
    id: event.pathParameters?.id,
    authorization: event.headers?.authorization,
    origin: event.headers?.origin,
    host: event.headers?.host,
    contentType: event.headers?.['content-type'],
    header: (name) => event.headers?.[name],
    queryAll: (name) => params.getAll(name),
    query: (name) => params.get(name) ?? undefined,
    jsonBody: () => readJsonBody(event, lang),
    textBody: () => readTextBody(event, lang),
    cookie: (name) => cookieOf(event, name),
  };
}

/** The first cookie of `name` the request carries: from payload 2.0's `cookies`, or a `cookie` header. */
function cookieOf(event: HttpEvent, name: string): string | undefined {
  const pairs = event.cookies ?? event.headers?.cookie?.split(';') ?? [];
  for (const pair of pairs) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * The value of query parameter `name`, which may be given once at most: a repeated one (`path=/a&path=/b`)
 * is a 400 naming it, as no value could be picked without guessing.
 */
export function singleQuery(request: ApiRequest, name: string): string | undefined {
  const values = request.queryAll(name);
  if (values.length > 1) {
    throw new AppError(
      'invalid_input',
      translate(request.lang, 'queryRepeated', { name, count: values.length }),
      { [name]: 'must be given once' },
    );
  }
  return values[0];
}

/**
 * True for `application/json`, in any case, with or without parameters (`; charset=utf-8`). Nothing
 * else: a page on any site may send a body that has no type, or `text/plain`, without asking first.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*application\/json\s*(?:;|$)/i.test(contentType);
}

/** A query parameter that may be repeated and comma-joined (`url=a,b&url=c`), as a flat list. */
export function commaList(request: ApiRequest, name: string): string[] | undefined {
  const values = request.queryAll(name);
  return values.length === 0 ? undefined : values.flatMap((value) => value.split(','));
}

function readTextBody(event: HttpEvent, lang: Lang): string {
  const raw = event.body ?? '';
  const size = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw);
  if (size > limits.bodyBytes) {
    throw new AppError('payload_too_large', translate(lang, 'bodyTooLarge', { limit: limits.bodyBytes }));
  }
  return event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
}

function readJsonBody(event: HttpEvent, lang: Lang): unknown {
  const text = readTextBody(event, lang);
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new AppError(
      'invalid_input',
      translate(lang, 'invalidJson'),
      { body: 'must be valid JSON' },
      { cause },
    );
  }
}

/** Parses `input` with `schema`, or throws a 400 naming each bad field and its rule in `lang`. */
export function parseInput<Schema extends z.ZodMiniType>(
  schema: Schema,
  input: unknown,
  lang: Lang,
): z.output<Schema> {
  const result = schema.safeParse(input, { error: zodLocales[lang] });
  if (result.success) return result.data;
  const details: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || 'body';
    details[field] ??= issue.message;
  }
  const problems = Object.entries(details)
    .map(([field, rule]) => `${field}: ${rule}`)
    .join('; ');
  throw new AppError('invalid_input', translate(lang, 'invalidInput', { problems }), details);
}
