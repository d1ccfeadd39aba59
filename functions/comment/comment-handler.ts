import { likeBodySchema } from '../shared/domain/comment-schemas.js';
import { envelope } from '../shared/http/envelope.js';
import { createHttpFunction, type Router } from '../shared/http/http-function.js';
import type { HttpHandler } from '../shared/http/http-types.js';
import { matchRouteKey, pathHasRoute, type RouteKey } from '../shared/http/route-key.js';
import { dispatchRouteKey, type RouteTable } from '../shared/http/route-table.js';
import { methodNotAllowed, routeNotFound } from '../shared/http/route-errors.js';
import { createCallerResolver, viewerOf } from '../shared/auth/viewer.js';
import { createCaptchaTokenHasher } from '../shared/spam/captcha-token-hash.js';
import { createAccountLifeRoutes } from './account-life-routes.js';
import { createCaptchaGuard } from './captcha-guard.js';
import { createCommentFeed } from './comment-feed.js';
import { createConfirmReplies, createShowConfirmReplies } from './confirm-replies.js';
import { createDeleteAccount, createListAccounts, createUpdateAccount } from './account-admin.js';
import { createCountComments } from './count-comments.js';
import { createCurrentUser } from './current-user.js';
import type { CommentDependencies } from './dependencies.js';
import { createDeleteComment } from './delete-comment.js';
import { createDeleteOwnComment } from './delete-own-comment.js';
import { createEditOwnComment } from './edit-own-comment.js';
import { initialStatus, type StatusInput } from './initial-status.js';
import { createLikeComment } from './like-comment.js';
import { createListComments } from './list-comments.js';
import { createListForModeration } from './list-for-moderation.js';
import { createModerateComment } from './moderate-comment.js';
import { createModerateFromMail, createShowModerationLink } from './moderate-from-mail.js';
import { createNotificationAction } from './notification-action.js';
import { createNotificationLog } from './notification-log.js';
import { captchaWidgetOf } from './pages/captcha-widget.js';
import { loadUiPages } from './pages/load-ui-pages.js';
import type { PasskeyRoutes } from './passkeys.js';
import { once } from '../shared/once.js';
import { createLinkReader } from './read-link.js';
import { createRecentComments } from './recent-comments.js';
import { createIssueSession } from './issue-session.js';
import { createSignIn } from './sign-in.js';
import { createOAuthRoutes } from './oauth-routes.js';
import { createAccountOfIdentity } from './sign-in-with-identity.js';
import { createSignInWithSso, ssoAssertionVerifier } from './sign-in-with-sso.js';
import {
  accountLinkRouteKeys,
  commentDataRouteKeys,
  type CommentRouteKey,
  commentRouteKeys,
  notificationLinkRouteKeys,
} from './routes.js';
import { createSecondFactorCheck } from './second-factor.js';
import { createTwoFactorRoutes } from './two-factor.js';
import { createAccountAttempts } from './account-attempts.js';
import { tokenFor } from '../shared/auth/token.js';
import { createSubmitComment } from './submit-comment.js';
import { createShowUnsubscribe, createUnsubscribe } from './unsubscribe.js';
import { createUpdateProfile } from './update-profile.js';
import { createUserWall } from './user-wall.js';
import { createLevelsOf } from '../shared/domain/comment-levels.js';

/**
 * The comment function: comments (list, count, recent, feeds, submit, like, moderation), sign-in
 * (`/api/token`, and `/token` which the widget calls), the administrator's profile (`PUT /api/user`),
 * the notification log and its actions (`/api/notification`), the pages of the links in a mail
 * (`/api/notification/unsubscribe`, `/api/notification/moderate`, `/api/notification/confirm`), the sign-in, profile and moderation
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
  const { config, comments, counters, moderation, accounts, outbox, presentation, renderMarkdown } =
    dependencies;
  const { tokenSecret, now, newId, spamCheck, readSubmitMarks, markRefusedPost } = dependencies;
  // Who calls: anonymous, banned, or an account that may act (the routes an account uses: post, edit and delete
  // its own); the viewer is the account alone.
  const caller = createCallerResolver({ tokenSecret, now, accounts });
  const viewer = viewerOf(caller);
  const authors = dependencies.authorProfiles.read;
  // LEVELS unset: no levels, and no counter read for them.
  const levelsOf = createLevelsOf({
    thresholds: config.LEVELS,
    authorKeyOf: dependencies.authorKeyOf,
    counts: (authorKeys) => dependencies.authorCounts.counts(authorKeys),
  });
  const levels = levelsOf ? { levelsOf } : {};
  const list = createListComments({ viewer, comments, authors, presentation, ...levels });
  const count = createCountComments({ counters });
  const recent = createRecentComments({ comments, authors, presentation, ...levels });
  const userWall = createUserWall({
    authorCounts: dependencies.authorCounts,
    avatarFor: presentation.avatarFor,
    levels: config.LEVELS,
  });
  const feed = createCommentFeed({
    comments,
    site: { url: config.SITE_URL, name: config.SITE_NAME },
    authorFeed: dependencies.authorFeed,
  });
  const moderationList = createListForModeration({ viewer, moderation, authors, presentation });
  const captcha = createCaptchaGuard({
    secret: dependencies.captchaSecret,
    verifyCaptcha: dependencies.verifyCaptcha,
    claimCaptchaToken: dependencies.claimCaptchaToken,
    hashCaptchaToken: createCaptchaTokenHasher(config.IP_HASH_SALT),
    config,
    now,
  });
  const submit = createSubmitComment({
    caller,
    authors,
    comments,
    config,
    readSubmitMarks,
    markRefusedPost,
    renderMarkdown,
    captcha,
    initialStatus: (comment) => statusOf(comment),
    hashAddress: dependencies.hashAddress,
    authorOf: dependencies.authorOf,
    ...(dependencies.regionOf ? { regionOf: dependencies.regionOf } : {}),
    now,
    newId,
    presentation,
  });
  const like = createLikeComment({ comments, ipHashSalt: config.IP_HASH_SALT });
  const statusOf = (comment: StatusInput) => initialStatus({ config, spamCheck }, comment);
  const moderate = createModerateComment({ viewer, comments, moderation, renderMarkdown, presentation });
  // An account's own edit and delete; an administrator's go on to moderate and delete as before.
  const editOwn = createEditOwnComment({
    caller,
    comments,
    moderation,
    config,
    captcha,
    renderMarkdown,
    initialStatus: statusOf,
    moderate,
    now,
    presentation,
  });
  const remove = createDeleteOwnComment({
    caller,
    comments,
    moderation,
    adminDelete: createDeleteComment({ viewer, comments, moderation }),
  });
  const { signInRecords, accountTotp } = dependencies;
  // Every sign-in method ends here: the account's checks, then its token.
  const issueSession = createIssueSession({ tokenSecret, config, now, avatarFor: presentation.avatarFor });
  const signIn = createSignIn({
    accounts,
    signInRecords,
    secondFactor: createSecondFactorCheck({ totp: accountTotp, tokenSecret, now }),
    config,
    tokenSecret,
    now,
    issueSession,
    captcha,
  });
  const twoFactor = createTwoFactorRoutes({
    signedIn: async (request) => (await viewer(request.authorization))?.account,
    attempts: createAccountAttempts({ signInRecords, config, now }),
    tokenAfter: async (account, sessionVersion) => {
      const secret = await tokenSecret();
      return secret && tokenFor(secret, { id: account.id, sessionVersion }, now(), config.TOKEN_TTL_HOURS);
    },
    totp: accountTotp,
    tokenSecret,
    issuer: config.SITE_NAME ?? (config.SITE_URL ? new URL(config.SITE_URL).host : 'Marginalia'),
    now,
  });
  // Single sign-on with the site (issue 28): its backend's or its issuer's assertion, exchanged for a token.
  const signInWithSso = createSignInWithSso({
    config,
    verifyAssertion: ssoAssertionVerifier(config, dependencies.ssoSecret),
    tokenSecret,
    accountLimits: dependencies.accountLimits,
    claimAssertion: dependencies.claimSsoAssertion,
    accountOfIdentity: createAccountOfIdentity({ ...dependencies, config }),
    issueSession,
    now,
  });
  const currentUser = createCurrentUser({ viewer, avatarFor: presentation.avatarFor });
  const updateProfile = createUpdateProfile({ ...dependencies, viewer, avatarFor: presentation.avatarFor });
  const accountAdmin = { viewer, accounts, accountTotp, avatarFor: presentation.avatarFor, now };
  const listAccounts = createListAccounts({ ...accountAdmin, wall: userWall });
  const notificationLog = createNotificationLog({ viewer, outbox, now });
  const notificationAction = createNotificationAction({ viewer, outbox, now, newId });
  const readLink = createLinkReader({
    linkSecret: dependencies.linkSecret,
    now,
    // Unsubscribe links mailed before the link key keep working until they expire (docs/notifications.md).
    unkeyedEra: { tokenSecret, salt: config.IP_HASH_SALT },
  });
  const site = { name: config.SITE_NAME, url: config.SITE_URL };
  const unsubscribeLink = { readLink, outbox, now, site };
  const moderationLink = { readLink, comments, moderation, siteUrl: config.SITE_URL };
  const confirmLink = { readLink, confirmations: dependencies.confirmations, now, site };
  const accountLife = createAccountLifeRoutes({ ...dependencies, captcha, readLink });
  // A commenter's data routes are rare: their code is a chunk of its own, loaded on the first such request.
  const loadMyData = once(async () =>
    (await import('./my-data-routes.js')).createMyDataRoutes({ ...dependencies, caller, captcha, readLink }),
  );
  const myData = Object.fromEntries(
    commentDataRouteKeys.map((key): [typeof key, Router] => [
      key,
      async (request) => (await loadMyData())[key](request),
    ]),
  ) as Record<(typeof commentDataRouteKeys)[number], Router>;
  // Passkeys load their module, and @simplewebauthn/server with it (~320 KB), on their first request only.
  const passkeyRoutes = once(async () =>
    (await import('./passkeys.js')).createPasskeyRoutes({ ...dependencies, viewer, issueSession }),
  );
  const passkey =
    (route: keyof PasskeyRoutes): Router =>
    async (request) =>
      (await passkeyRoutes())[route](request);
  // Sign-in with an OpenID Connect issuer or GitHub (issue 28): its buttons on /ui/login, its flow and callback.
  const signInProviders = dependencies.signInProviders;
  const oauth = createOAuthRoutes({
    providers: signInProviders,
    flows: dependencies.oauthFlows,
    accountOfIdentity: createAccountOfIdentity({ ...dependencies, config }),
    issueSession,
    config,
    now,
  });

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
  /** Exactly `{"like": bool}` is a visitor's vote; anything else is an author's edit or an administrator's change. */
  const changeComment: Router = async (request) =>
    likeBodySchema.safeParse(request.jsonBody()).success ? like(request) : editOwn(request);

  const table: RouteTable<CommentRouteKey> = {
    'GET /api/comment': readComments,
    'GET /api/comment/rss': feed,
    'POST /api/comment': submit,
    'PUT /api/comment/{id}': changeComment,
    'DELETE /api/comment/{id}': remove,
    'GET /api/token': currentUser,
    'POST /api/token': signIn,
    'POST /api/token/sso': signInWithSso,
    // Signing out is the widget forgetting its token; Waline answers it with success too.
    'DELETE /api/token': async () => envelope(''),
    'PUT /api/user': updateProfile,
    'GET /api/token/2fa': twoFactor.show,
    'POST /api/token/2fa': twoFactor.confirm,
    'DELETE /api/token/2fa': twoFactor.disable,
    'GET /api/user': listAccounts,
    'PUT /api/user/{id}': createUpdateAccount(accountAdmin),
    'DELETE /api/user/{id}': createDeleteAccount(accountAdmin),
    'GET /api/notification': notificationLog,
    'POST /api/notification': notificationAction,
    'GET /api/notification/unsubscribe': createShowUnsubscribe(unsubscribeLink),
    'POST /api/notification/unsubscribe': createUnsubscribe(unsubscribeLink),
    'GET /api/notification/moderate': createShowModerationLink(moderationLink),
    'POST /api/notification/moderate': createModerateFromMail(moderationLink),
    'GET /api/notification/confirm': createShowConfirmReplies(confirmLink),
    'POST /api/notification/confirm': createConfirmReplies(confirmLink),
    'GET /ui': async () => (await loadUiPages()).moderationPage(),
    'GET /ui/login': async () =>
      (await loadUiPages()).loginPage({
        allowedOrigins: config.ALLOWED_ORIGINS,
        siteUrl: config.SITE_URL,
        captcha: captchaWidgetOf(config),
        providers: signInProviders.map(({ key, label }) => ({ key, label })),
      }),
    'GET /ui/profile': async () =>
      (await loadUiPages()).profilePage({ allowedOrigins: config.ALLOWED_ORIGINS, siteUrl: config.SITE_URL }),
    'GET /ui/users': async () => (await loadUiPages()).usersPage(),
    ...accountLife,
    ...myData,
    'GET /api/passkey': passkey('list'),
    'POST /api/passkey/options': passkey('registrationOptions'),
    'POST /api/passkey': passkey('register'),
    'DELETE /api/passkey/{id}': passkey('remove'),
    'POST /api/token/passkey/options': passkey('signInOptions'),
    'POST /api/token/passkey': passkey('signIn'),
    'GET /api/oauth/{id}': oauth.begin,
    'GET /api/oauth/callback': oauth.callback,
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
    linkRoutes: [...notificationLinkRouteKeys, ...accountLinkRouteKeys],
  });
}
