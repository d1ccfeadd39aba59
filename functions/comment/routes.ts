import { legacyTwin, type RouteKey } from '../shared/http/route-key.js';

/**
 * The comment function's routes under `/api` (client v3). Each is also created without `/api` for the v2
 * client (`commentRouteKeys`), which the same route answers without the envelope. Its route table, which
 * must answer exactly these, is in comment-handler.ts.
 */
export const commentApiRouteKeys = [
  'GET /api/comment',
  'GET /api/comment/rss',
  'POST /api/comment',
  'PUT /api/comment/{id}',
  'DELETE /api/comment/{id}',
  'GET /api/token',
  'POST /api/token',
  'DELETE /api/token',
  'PUT /api/user',
] as const satisfies readonly RouteKey[];

/** The sign-in, profile and moderation pages, beside the API (as on Waline: there is no `/api/ui`). */
export const commentPageRouteKeys = [
  'GET /ui',
  'GET /ui/login',
  'GET /ui/profile',
] as const satisfies readonly RouteKey[];

/** A route the comment function's table answers. */
export type CommentRouteKey = (typeof commentApiRouteKeys)[number] | (typeof commentPageRouteKeys)[number];

/** Every route API Gateway sends the comment function, besides `$default` (unknown routes). */
export const commentRouteKeys: readonly RouteKey[] = [
  ...commentApiRouteKeys,
  ...commentApiRouteKeys.map(legacyTwin),
  ...commentPageRouteKeys,
];
