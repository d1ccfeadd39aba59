import { likeBodySchema } from '../shared/domain/comment-schemas.js';
import { envelope } from '../shared/http/envelope.js';
import { createHttpFunction, type Router } from '../shared/http/http-function.js';
import type { HttpHandler } from '../shared/http/http-types.js';
import { lazyRoute } from '../shared/http/lazy-route.js';
import { matchRouteKey, pathHasRoute, type RouteKey } from '../shared/http/route-key.js';
import { dispatchRouteKey, type RouteTable } from '../shared/http/route-table.js';
import { methodNotAllowed, routeNotFound } from '../shared/http/route-errors.js';
import { createViewerResolver } from '../shared/auth/viewer.js';
import { once } from '../shared/once.js';
import { createCountComments } from './count-comments.js';
import type { CommentDependencies } from './dependencies.js';
import { createListComments } from './list-comments.js';
import { createRecentComments } from './recent-comments.js';
import { type CommentRouteKey, commentRouteKeys, notificationLinkRouteKeys } from './routes.js';

/**
 * The comment function: comments (list, count, recent, feeds, submit, like, moderation), sign-in
 * (`/api/token`, and `/token` which the widget calls), the administrator's profile (`PUT /api/user`),
 * the notification log and its actions (`/api/notification`), the pages of the links in a mail
 * (`/api/notification/unsubscribe`, `/api/notification/moderate`), the sign-in, profile and moderation
 * pages (`/ui`);
 * it also answers unknown routes (API Gateway's `$default`). Its table answers exactly the routes of
 * routes.ts, which the stack and local mode create: each request goes to the route its `routeKey` names.
 * `apiRouteKeys` are every route of the API (functions/api-routes.ts, passed in by the entry point, which
 * sits above both functions): a path another function serves is answered 405 for a wrong method, not 404.
 */
export function createCommentHandler(
  dependencies: CommentDependencies,
  apiRouteKeys: readonly RouteKey[],
): HttpHandler {
  const { config, comments, counters, moderation, admins, outbox, presentation, renderMarkdown } =
    dependencies;
  const { tokenSecret, now, newId, spamCheck, readSubmitMarks, markRefusedPost } = dependencies;
  const viewer = createViewerResolver({ tokenSecret, now, admins });
  // The reads a page load makes are built at cold start; every other route on its first request, from a chunk
  // of its own (lazy-route.ts), so that a first list, count or recent read does not load the writes and pages.
  const list = createListComments({ viewer, comments, presentation });
  const count = createCountComments({ counters });
  const recent = createRecentComments({ comments, presentation });
  const feed = lazyRoute(async () => {
    const { createCommentFeed } = await import('./comment-feed.js');
    return createCommentFeed({ comments, site: { url: config.SITE_URL, name: config.SITE_NAME } });
  });
  const moderationList = lazyRoute(async () => {
    const { createListForModeration } = await import('./list-for-moderation.js');
    return createListForModeration({ viewer, moderation, presentation });
  });
  const submit = lazyRoute(async () => {
    const [{ createSubmitComment }, { initialStatus }] = await Promise.all([
      import('./submit-comment.js'),
      import('./initial-status.js'),
    ]);
    return createSubmitComment({
      viewer,
      comments,
      config,
      readSubmitMarks,
      markRefusedPost,
      renderMarkdown,
      initialStatus: (comment) => initialStatus({ config, spamCheck }, comment),
      now,
      newId,
      presentation,
    });
  });
  const like = lazyRoute(async () => {
    const { createLikeComment } = await import('./like-comment.js');
    return createLikeComment({ comments, ipHashSalt: config.IP_HASH_SALT });
  });
  const moderate = lazyRoute(async () => {
    const { createModerateComment } = await import('./moderate-comment.js');
    return createModerateComment({ viewer, comments, moderation, renderMarkdown, presentation });
  });
  const remove = lazyRoute(async () => {
    const { createDeleteComment } = await import('./delete-comment.js');
    return createDeleteComment({ viewer, comments, moderation });
  });
  const signIn = lazyRoute(async () => {
    const { createSignIn } = await import('./sign-in.js');
    return createSignIn({ admins, config, tokenSecret, now, avatarFor: presentation.avatarFor });
  });
  const currentUser = lazyRoute(async () => {
    const { createCurrentUser } = await import('./current-user.js');
    return createCurrentUser({ viewer, admins, avatarFor: presentation.avatarFor });
  });
  const updateProfile = lazyRoute(async () => {
    const { createUpdateProfile } = await import('./update-profile.js');
    return createUpdateProfile({ ...dependencies, viewer, avatarFor: presentation.avatarFor });
  });
  const notificationLog = lazyRoute(async () => {
    const { createNotificationLog } = await import('./notification-log.js');
    return createNotificationLog({ viewer, outbox, now });
  });
  const notificationAction = lazyRoute(async () => {
    const { createNotificationAction } = await import('./notification-action.js');
    return createNotificationAction({ viewer, outbox, now, newId });
  });
  // The links in mails: one reader of their tokens serves the four routes.
  const site = { name: config.SITE_NAME, url: config.SITE_URL };
  const linkRoutes = once(async () => {
    const [{ createLinkReader }, unsubscribe, moderateFromMail] = await Promise.all([
      import('./read-link.js'),
      import('./unsubscribe.js'),
      import('./moderate-from-mail.js'),
    ]);
    const readLink = createLinkReader({
      linkSecret: dependencies.linkSecret,
      now,
      // Unsubscribe links mailed before the link key keep working until they expire (docs/notifications.md).
      unkeyedEra: { tokenSecret, salt: config.IP_HASH_SALT },
    });
    const unsubscribeLink = { readLink, outbox, now, site };
    const moderationLink = { readLink, comments, moderation, siteUrl: config.SITE_URL };
    return {
      showUnsubscribe: unsubscribe.createShowUnsubscribe(unsubscribeLink),
      unsubscribe: unsubscribe.createUnsubscribe(unsubscribeLink),
      showModerationLink: moderateFromMail.createShowModerationLink(moderationLink),
      moderateFromMail: moderateFromMail.createModerateFromMail(moderationLink),
    };
  });
  const linkRoute = (name: keyof Awaited<ReturnType<typeof linkRoutes>>): Router =>
    lazyRoute(async () => (await linkRoutes())[name]);
  const pageSettings = { allowedOrigins: config.ALLOWED_ORIGINS, siteUrl: config.SITE_URL };

  /** `GET /api/comment` is four reads, told apart by `?type=` (Waline's contract: one path for all). */
  const readComments: Router = async (request) => {
    switch (request.query('type')) {
      case 'count':
        return count(request);
      case 'recent':
        return recent(request);
      case 'list':
        return moderationList(request);
      default:
        return list(request);
    }
  };
  /** Exactly `{"like": bool}` is a visitor's vote; anything else is an administrator's change. */
  const changeComment: Router = async (request) =>
    likeBodySchema.safeParse(request.jsonBody()).success ? like(request) : moderate(request);

  const table: RouteTable<CommentRouteKey> = {
    'GET /api/comment': readComments,
    'GET /api/comment/rss': feed,
    'POST /api/comment': submit,
    'PUT /api/comment/{id}': changeComment,
    'DELETE /api/comment/{id}': remove,
    'GET /api/token': currentUser,
    'POST /api/token': signIn,
    // Signing out is the widget forgetting its token; Waline answers it with success too.
    'DELETE /api/token': async () => envelope(''),
    'PUT /api/user': updateProfile,
    'GET /api/notification': notificationLog,
    'POST /api/notification': notificationAction,
    'GET /api/notification/unsubscribe': linkRoute('showUnsubscribe'),
    'POST /api/notification/unsubscribe': linkRoute('unsubscribe'),
    'GET /api/notification/moderate': linkRoute('showModerationLink'),
    'POST /api/notification/moderate': linkRoute('moderateFromMail'),
    'GET /ui': lazyRoute(async () => {
      const { moderationPage } = await import('./pages/moderation-page.js');
      return async () => moderationPage();
    }),
    'GET /ui/login': lazyRoute(async () => {
      const { loginPage } = await import('./pages/login-page.js');
      return async () => loginPage(pageSettings);
    }),
    'GET /ui/profile': lazyRoute(async () => {
      const { profilePage } = await import('./pages/profile-page.js');
      return async () => profilePage(pageSettings);
    }),
  };
  const dispatch: Router = dispatchRouteKey(table, async (request) => {
    // API Gateway's $default: every path no route matches. A route's path with a trailing slash is that
    // route (the widget's `serverURL` may end with one); a routed path with another method is a 405.
    const trimmed = request.path.length > 1 ? request.path.replace(/\/$/, '') : request.path;
    const match =
      trimmed === request.path ? undefined : matchRouteKey(commentRouteKeys, request.method, trimmed);
    if (match) return dispatch({ ...request, routeKey: match.routeKey, id: match.pathParameters?.id });
    if (pathHasRoute(apiRouteKeys, request.path) || pathHasRoute(apiRouteKeys, trimmed)) {
      throw methodNotAllowed(request);
    }
    throw routeNotFound(request);
  });

  return createHttpFunction(dispatch, {
    allowedOrigins: config.ALLOWED_ORIGINS,
    linkRoutes: notificationLinkRouteKeys,
  });
}
