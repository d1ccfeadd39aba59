/**
 * Every HTTP route and the function that serves it, read from the functions' own route lists
 * (functions/api-routes.ts): the stack creates exactly the routes each function's table answers.
 */
import { apiRoutes, type FunctionName } from '../functions/api-routes.js';
import type { HttpMethod } from '../functions/shared/http/route-key.js';

export type { FunctionName } from '../functions/api-routes.js';

/** One API Gateway route: method, path (with `{id}` parameters) and its function. */
export interface RouteDefinition {
  readonly method: HttpMethod;
  readonly path: string;
  readonly function: FunctionName;
}

/** All routes, in the order of the functions' lists. */
export const routes: readonly RouteDefinition[] = Object.entries(apiRoutes).flatMap(([name, keys]) =>
  keys.map((key) => {
    const [method, path] = key.split(' ') as [HttpMethod, string];
    return { method, path, function: name as FunctionName };
  }),
);
