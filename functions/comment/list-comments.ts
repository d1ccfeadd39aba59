import { resolveViewer } from '../shared/auth/viewer.js';
import { listQuerySchema } from '../shared/domain/comment-schemas.js';
import { presentComment, presentReplyUser } from '../shared/domain/present-comment.js';
import { buildThreadPage } from '../shared/domain/thread.js';
import { bare, envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { Services } from '../shared/services.js';

/** `GET /api/comment?path&page&pageSize&sortBy`: one page of an article's threads, in one Query. */
export function createListComments(services: Services): Router {
  const { comments, presentation } = services;
  return async (request) => {
    const query = parseInput(
      listQuerySchema,
      {
        path: request.query('path'),
        page: request.query('page') || undefined,
        pageSize: request.query('pageSize') || undefined,
        sortBy: request.query('sortBy') || undefined,
      },
      request.lang,
    );
    const stored = await comments.listByUrl(query.path);
    // Administrators see waiting and spam comments too, to moderate them in place (as on Waline).
    const admin = (await resolveViewer(services, request)) !== undefined;
    const page = buildThreadPage(stored, query, (comment) => admin || comment.status === 'approved');
    const options = { ...presentation, legacy: request.legacy };
    const data = {
      page: page.page,
      totalPages: page.totalPages,
      pageSize: page.pageSize,
      count: page.count,
      data: page.threads.map(({ root, children }) => ({
        ...presentComment(root, options),
        children: children.map(({ reply, parent }) => ({
          ...presentComment(reply, options),
          ...(parent ? { reply_user: presentReplyUser(parent, options) } : {}),
        })),
      })),
    };
    return request.legacy ? bare(data) : envelope(data);
  };
}
