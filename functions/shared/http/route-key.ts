/**
 * API Gateway's names for routes (`GET /api/comment/{id}`) and how it picks one for a request. The stack
 * creates the routes the functions' route lists name (functions/api-routes.ts); local mode and the tests
 * pick the route key with `matchRouteKey`, as API Gateway does, and each function dispatches on it.
 */

/** The methods the API serves. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A route as API Gateway names it: a method and a path template, `{name}` standing for one segment. */
export type RouteKey = `${HttpMethod} /${string}`;

/** The route key API Gateway gives a request that matches no route. */
export const defaultRouteKey = '$default';

/** The route API Gateway picked for a request, with the values of its `{name}` segments. */
export interface RouteKeyMatch {
  readonly routeKey: RouteKey;
  readonly pathParameters?: Record<string, string>;
}

/** The route key without `/api`: the legacy (v2) client's name for the same route. */
export type LegacyTwin<K extends string> = K extends `${infer M} /api/${infer P}` ? `${M} /${P}` : never;

/** `GET /api/comment` → `GET /comment`: the route the v2 client calls for the same operation. */
export function legacyTwin<K extends RouteKey>(key: K): LegacyTwin<K> {
  return key.replace(' /api/', ' /') as LegacyTwin<K>;
}

/** `GET /comment` → `GET /api/comment`: the inverse of `legacyTwin`. */
export function apiTwin(key: string): string {
  const space = key.indexOf(' ');
  return `${key.slice(0, space)} /api${key.slice(space + 1)}`;
}

interface CompiledKey {
  readonly routeKey: RouteKey;
  readonly method: string;
  readonly pattern: RegExp;
  readonly parameterNames: readonly string[];
}

const compiled = new WeakMap<readonly RouteKey[], readonly CompiledKey[]>();

function compile(routeKeys: readonly RouteKey[]): readonly CompiledKey[] {
  const known = compiled.get(routeKeys);
  if (known) return known;
  const result = routeKeys.map((routeKey) => {
    const [method = '', template = ''] = routeKey.split(' ');
    const parameterNames: string[] = [];
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const parameter = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (parameter === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        parameterNames.push(parameter);
        return '([^/]+)';
      })
      .join('');
    return { routeKey, method, pattern: new RegExp(`^${source}$`), parameterNames };
  });
  // As API Gateway does, a route without parameters wins over one whose parameter would match the same
  // segment: `PUT /api/user/password` is not `PUT /api/user/{id}` with the id `password` (a stable sort).
  result.sort((a, b) => Number(a.parameterNames.length > 0) - Number(b.parameterNames.length > 0));
  compiled.set(routeKeys, result);
  return result;
}

/** A path segment decoded as API Gateway decodes path parameters; kept as sent when it is not valid. */
function decodeOrKeep(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The route of `routeKeys` that API Gateway would pick for `method` and `path` (exact paths: a trailing
 * slash matches no route), or undefined: the request goes to `$default`.
 */
export function matchRouteKey(
  routeKeys: readonly RouteKey[],
  method: string,
  path: string,
): RouteKeyMatch | undefined {
  for (const candidate of compile(routeKeys)) {
    if (candidate.method !== method) continue;
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    if (candidate.parameterNames.length === 0) return { routeKey: candidate.routeKey };
    const pathParameters = Object.fromEntries(
      candidate.parameterNames.map((name, index) => [name, decodeOrKeep(match[index + 1] ?? '')]),
    );
    return { routeKey: candidate.routeKey, pathParameters };
  }
  return undefined;
}

/** Whether some route of `routeKeys` serves `path` with any method: a request with another one is a 405. */
export function pathHasRoute(routeKeys: readonly RouteKey[], path: string): boolean {
  return compile(routeKeys).some((candidate) => candidate.pattern.test(path));
}
