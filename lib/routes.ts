/**
 * Every HTTP route and the function that serves it. The stack creates these API Gateway routes,
 * and the local server dispatches with the same table, so both expose the same surface.
 */

/** The two Lambda functions. */
export type FunctionName = 'comment' | 'article';

/** One API Gateway route: method, path (with `{id}` parameters) and its function. */
export interface RouteDefinition {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly function: FunctionName;
}

const resources: ReadonlyArray<Omit<RouteDefinition, 'path'> & { resource: string }> = [
  { method: 'GET', resource: '/comment', function: 'comment' },
  { method: 'POST', resource: '/comment', function: 'comment' },
  { method: 'PUT', resource: '/comment/{id}', function: 'comment' },
  { method: 'DELETE', resource: '/comment/{id}', function: 'comment' },
  { method: 'GET', resource: '/article', function: 'article' },
  { method: 'POST', resource: '/article', function: 'article' },
  { method: 'GET', resource: '/token', function: 'comment' },
  { method: 'POST', resource: '/token', function: 'comment' },
  { method: 'DELETE', resource: '/token', function: 'comment' },
];

/** The sign-in and moderation pages, beside the API (as on Waline: there is no `/api/ui`). */
const pages: readonly RouteDefinition[] = [
  { method: 'GET', path: '/ui', function: 'comment' },
  { method: 'GET', path: '/ui/login', function: 'comment' },
];

/** All routes: each resource under `/api` (client v3) and bare (legacy client v2), and the pages. */
export const routes: readonly RouteDefinition[] = [
  ...['/api', ''].flatMap((prefix) =>
    resources.map(({ resource, ...route }) => ({ ...route, path: `${prefix}${resource}` })),
  ),
  ...pages,
];
