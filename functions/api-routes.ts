import { articleRouteKeys } from './article/routes.js';
import { commentRouteKeys } from './comment/routes.js';
import type { RouteKey } from './shared/http/route-key.js';

/**
 * Every route of the API and the function that serves it: the stack creates exactly these (lib/), local
 * mode dispatches with them (scripts/local-server.ts), and the comment function, API Gateway's `$default`,
 * reads them to tell a wrong method (405) from an unknown path (404).
 */
export const apiRoutes = {
  comment: commentRouteKeys,
  article: articleRouteKeys,
} as const satisfies Record<string, readonly RouteKey[]>;

/** The Lambda functions behind the API. */
export type FunctionName = keyof typeof apiRoutes;

/** Every route key of every function. */
export const allRouteKeys: readonly RouteKey[] = Object.values(apiRoutes).flat();
