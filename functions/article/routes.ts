import { legacyTwin, type RouteKey } from '../shared/http/route-key.js';

/**
 * The article function's routes under `/api` (client v3); each is also created without `/api` for the v2
 * client. Its route table, which must answer exactly these, is in article-handler.ts.
 */
export const articleApiRouteKeys = [
  'GET /api/article',
  'POST /api/article',
] as const satisfies readonly RouteKey[];

/** A route the article function's table answers. */
export type ArticleRouteKey = (typeof articleApiRouteKeys)[number];

/** Every route API Gateway sends the article function. */
export const articleRouteKeys: readonly RouteKey[] = [
  ...articleApiRouteKeys,
  ...articleApiRouteKeys.map(legacyTwin),
];
