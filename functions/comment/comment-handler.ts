import { likeBodySchema } from '../shared/domain/comment-schemas.js';
import { envelope } from '../shared/http/envelope.js';
import { createHttpFunction, type Router } from '../shared/http/http-function.js';
import type { HttpHandler } from '../shared/http/http-types.js';
import { parseResourcePath } from '../shared/http/resource-path.js';
import { methodNotAllowed, routeNotFound } from '../shared/http/route-errors.js';
import type { Services } from '../shared/services.js';
import { createCountComments } from './count-comments.js';
import { createCurrentUser } from './current-user.js';
import { createDeleteComment } from './delete-comment.js';
import { createLikeComment } from './like-comment.js';
import { createListComments } from './list-comments.js';
import { createListForModeration } from './list-for-moderation.js';
import { createModerateComment } from './moderate-comment.js';
import { loginPage } from './pages/login-page.js';
import { moderationPage } from './pages/moderation-page.js';
import { createRecentComments } from './recent-comments.js';
import { createSignIn } from './sign-in.js';
import { createSubmitComment } from './submit-comment.js';

/**
 * The comment function: comments (list, count, recent, submit, like, moderation), sign-in
 * (`/api/token`, and `/token` which the widget calls), the sign-in and moderation pages (`/ui`);
 * it also answers unknown routes.
 */
export function createCommentHandler(services: Services): HttpHandler {
  const list = createListComments(services);
  const count = createCountComments(services);
  const recent = createRecentComments(services);
  const moderationList = createListForModeration(services);
  const submit = createSubmitComment(services);
  const like = createLikeComment(services);
  const moderate = createModerateComment(services);
  const remove = createDeleteComment(services);
  const signIn = createSignIn(services);
  const currentUser = createCurrentUser(services);

  const commentRoutes: Router = async (request) => {
    if (request.method === 'POST') return submit(request);
    if (request.method !== 'GET') throw methodNotAllowed(request);
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

  const commentByIdRoutes: Router = async (request) => {
    if (request.method === 'DELETE') return remove(request);
    if (request.method !== 'PUT') throw methodNotAllowed(request);
    // Exactly {"like": bool} is a visitor's vote; anything else is an administrator's change.
    return likeBodySchema.safeParse(request.jsonBody()).success ? like(request) : moderate(request);
  };

  const tokenRoutes: Router = async (request) => {
    if (request.method === 'POST') return signIn(request);
    if (request.method === 'GET') return currentUser(request);
    // Signing out is the widget forgetting its token; Waline answers it with success too.
    if (request.method === 'DELETE') return envelope('');
    throw methodNotAllowed(request);
  };

  return createHttpFunction(
    async (request) => {
      const target = parseResourcePath(request.path);
      if (target?.resource === 'comment') {
        return target.id === undefined
          ? commentRoutes(request)
          : commentByIdRoutes({ ...request, id: request.id ?? target.id });
      }
      if (target?.resource === 'token' && target.id === undefined) return tokenRoutes(request);
      // The pages live beside the API, not in it: /ui and /ui/login, never /api/ui.
      if (target?.resource === 'ui' && !request.path.startsWith('/api/')) {
        if (request.method !== 'GET') throw methodNotAllowed(request);
        if (target.id === undefined) return moderationPage();
        if (target.id === 'login') {
          return loginPage({
            allowedOrigins: services.config.ALLOWED_ORIGINS,
            siteUrl: services.config.SITE_URL,
          });
        }
      }
      throw routeNotFound(request);
    },
    { allowedOrigins: services.config.ALLOWED_ORIGINS },
  );
}
