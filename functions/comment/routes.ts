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
  'GET /api/token/2fa',
  'POST /api/token/2fa',
  'DELETE /api/token/2fa',
  'PUT /api/user',
  // The user wall (anyone) and, for administrators, the accounts: list, change, ban or delete.
  'GET /api/user',
  'PUT /api/user/{id}',
  'DELETE /api/user/{id}',
] as const satisfies readonly RouteKey[];

/**
 * The notifications: the log and its actions for `/ui` (an administrator's), and the pages of the links in
 * a mail (unsubscribe, moderate, confirm), whose signed token is their authority. `/api` only: no widget calls
 * them, and the links name these addresses. The link routes' POSTs are not refused as cross-site
 * (`notificationLinkRouteKeys`).
 */
export const commentNotificationRouteKeys = [
  'GET /api/notification',
  'POST /api/notification',
  'GET /api/notification/unsubscribe',
  'POST /api/notification/unsubscribe',
  'GET /api/notification/moderate',
  'POST /api/notification/moderate',
  'GET /api/notification/confirm',
  'POST /api/notification/confirm',
] as const satisfies readonly RouteKey[];

/**
 * The POSTs of the links in a mail: a mail provider sends the one-click unsubscribe from anywhere (RFC
 * 8058), and the link pages post plain forms; the signed token in the address is what they act on.
 */
export const notificationLinkRouteKeys = [
  'POST /api/notification/unsubscribe',
  'POST /api/notification/moderate',
  'POST /api/notification/confirm',
] as const satisfies readonly (typeof commentNotificationRouteKeys)[number][];

/**
 * An account's life (issue 27), in Waline's routes: registration (`POST /api/user`), the confirmation link's
 * page and its button (`/api/verification`), the reset request (`PUT /api/user/password`) and the reset
 * page's new password (`POST /api/user/password`). Only the confirmation is also without `/api`
 * (`accountLinkRouteKeys`), as Waline's mail links use `/verification`: no v2 client calls the others.
 */
export const commentAccountRouteKeys = [
  'POST /api/user',
  'PUT /api/user/password',
  'POST /api/user/password',
  'GET /api/verification',
  'POST /api/verification',
] as const satisfies readonly RouteKey[];

/** The confirmation link's page and button without `/api`: Waline's mail links use `/verification`. */
export const accountLegacyRouteKeys = [
  'GET /verification',
  'POST /verification',
] as const satisfies readonly RouteKey[];

/**
 * The confirmation link's button: a plain form on the link's page, whose signed token in the address is its
 * authority (as `notificationLinkRouteKeys`).
 */
export const accountLinkRouteKeys = ['POST /api/verification', 'POST /verification'] as const;

/**
 * Single sign-on with the site (issue 28): its backend's or its issuer's assertion exchanged for a token. `/api`
 * only: the site's own page calls it, never a widget.
 */
export const commentSsoRouteKeys = ['POST /api/token/sso'] as const satisfies readonly RouteKey[];

/**
 * A commenter's own data (issue 28): the request of a mailed link, the download and the erase (with that link's
 * token or a sign-in token), the administrators' log of them, and the page. `/api` only: no widget calls them.
 */
export const commentDataRouteKeys = [
  'POST /api/my-data',
  'GET /api/my-data',
  'DELETE /api/my-data',
  'GET /api/my-data/log',
  'GET /ui/my-data',
] as const satisfies readonly RouteKey[];

/** The sign-in, profile, moderation, accounts and account-life pages, beside the API (as on Waline: there is no `/api/ui`). */
export const commentPageRouteKeys = [
  'GET /ui',
  'GET /ui/login',
  'GET /ui/profile',
  'GET /ui/users',
  'GET /ui/register',
  'GET /ui/forgot',
  'GET /ui/reset',
] as const satisfies readonly RouteKey[];

/**
 * Passkeys (issue 28, passkeys.ts): an account's own list, registration and removal, and the sign-in with one.
 * `/api` only: no widget calls them, the profile and sign-in pages do.
 */
export const commentPasskeyRouteKeys = [
  'GET /api/passkey',
  'POST /api/passkey/options',
  'POST /api/passkey',
  'DELETE /api/passkey/{id}',
  'POST /api/token/passkey/options',
  'POST /api/token/passkey',
] as const satisfies readonly RouteKey[];

/**
 * Sign-in with an OpenID Connect issuer or GitHub (issue 28): the login page's links (`{id}`: `oidc-1`, `github`)
 * and the one callback every provider sends readers back to. `/api` only: browsers follow them, no widget calls them.
 */
export const commentOAuthRouteKeys = [
  'GET /api/oauth/{id}',
  'GET /api/oauth/callback',
] as const satisfies readonly RouteKey[];

/** A route the comment function's table answers. */
export type CommentRouteKey =
  | (typeof commentOAuthRouteKeys)[number]
  | (typeof commentApiRouteKeys)[number]
  | (typeof commentPasskeyRouteKeys)[number]
  | (typeof commentAccountRouteKeys)[number]
  | (typeof commentNotificationRouteKeys)[number]
  | (typeof commentPageRouteKeys)[number]
  | (typeof commentSsoRouteKeys)[number]
  | (typeof commentDataRouteKeys)[number];

/** Every route API Gateway sends the comment function, besides `$default` (unknown routes). */
export const commentRouteKeys: readonly RouteKey[] = [
  ...commentApiRouteKeys,
  ...commentApiRouteKeys.map(legacyTwin),
  ...commentAccountRouteKeys,
  ...accountLegacyRouteKeys,
  ...commentNotificationRouteKeys,
  ...commentPasskeyRouteKeys,
  ...commentPageRouteKeys,
  ...commentSsoRouteKeys,
  ...commentDataRouteKeys,
  ...commentOAuthRouteKeys,
];
