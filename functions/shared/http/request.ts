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
  /** Every value of query parameter `name`, in order. */
  queryAll(name: string): string[];
  /** The first value of query parameter `name`. */
  query(name: string): string | undefined;
  /** The JSON object body, bounded in size. */
  jsonBody(): unknown;
}

/** Reads an API Gateway event into an ApiRequest. */
export function toApiRequest(event: HttpEvent): ApiRequest {
  const params = new URLSearchParams(event.rawQueryString ?? '');
  const lang = resolveLang(params.get('lang') ?? undefined);
  const path = event.rawPath;
  return {
    method: event.requestContext.http.method.toUpperCase(),
    path,
    legacy: !path.startsWith('/api/'),
    lang,
    sourceIp: event.requestContext.http.sourceIp,
    id: event.pathParameters?.id,
    authorization: event.headers?.authorization,
    queryAll: (name) => params.getAll(name),
    query: (name) => params.get(name) ?? undefined,
    jsonBody: () => readJsonBody(event, lang),
  };
}

/** A query parameter that may be repeated and comma-joined (`url=a,b&url=c`), as a flat list. */
export function commaList(request: ApiRequest, name: string): string[] | undefined {
  const values = request.queryAll(name);
  return values.length === 0 ? undefined : values.flatMap((value) => value.split(','));
}

function readJsonBody(event: HttpEvent, lang: Lang): unknown {
  const raw = event.body ?? '';
  const size = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw);
  if (size > limits.bodyBytes) {
    throw new AppError('payload_too_large', translate(lang, 'bodyTooLarge', { limit: limits.bodyBytes }));
  }
  const contentType = event.headers?.['content-type'] ?? '';
  if (contentType && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new AppError('unsupported_media_type', translate(lang, 'jsonRequired'));
  }
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
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
