import type { Router } from '../shared/http/http-function.js';
import type { ModerateClaims } from '../shared/notify/link-token.js';
import type { CommentLocation, CommentRepository } from '../shared/storage/comment-repository.js';
import type { ModeratedComment, ModerationRepository } from '../shared/storage/moderation-repository.js';
import { invalidLinkPage } from './pages/link-page.js';
import {
  alreadyDone,
  type MailModerationOutcome,
  moderateConfirmPage,
  moderateResultPage,
} from './pages/moderate-page.js';
import { type ReadLink, requestLink } from './read-link.js';

/** What the moderation links' routes take: the same storage calls as `PUT` and `DELETE /api/comment/{id}`. */
export interface ModerateFromMailDependencies {
  readonly readLink: ReadLink;
  readonly comments: Pick<CommentRepository, 'locate'>;
  readonly moderation: Pick<ModerationRepository, 'get' | 'moderate' | 'remove'>;
  /** `SITE_URL`: the confirmation page links the comment's page under it. */
  readonly siteUrl: string | undefined;
}

/** The comment a link names, where it lives and as it is now (read consistently), or undefined when gone. */
async function readComment(
  { comments, moderation }: Pick<ModerateFromMailDependencies, 'comments' | 'moderation'>,
  id: string,
): Promise<{ location: CommentLocation; comment: ModeratedComment } | undefined> {
  const location = await comments.locate(id);
  if (!location) return undefined;
  const comment = await moderation.get(location);
  return comment ? { location, comment } : undefined;
}

/**
 * `GET /api/notification/moderate?token=`: the confirmation page of a link in the owner's mail about a
 * waiting comment. It shows the comment and one button for the link's action; it changes nothing, so a
 * link scanner that opens it does no harm.
 */
export function createShowModerationLink({
  readLink,
  siteUrl,
  ...storage
}: ModerateFromMailDependencies): Router {
  return async (request) => {
    const link = await requestLink(readLink, request, 'moderate');
    if (!link) return invalidLinkPage(request.lang);
    const found = await readComment(storage, link.claims.commentId);
    if (!found) return moderateResultPage({ kind: 'missing' }, request.lang);
    return moderateConfirmPage(found.comment, link.claims.action, {
      lang: request.lang,
      siteUrl,
      query: link.query,
    });
  };
}

/**
 * `POST /api/notification/moderate?token=`: runs the link's action through the moderation code of `/ui`
 * (the same repository calls, so an approval writes its outbox event in its transaction). No sign-in: the
 * signed token, which names one action on one comment and expires, is the authority. Single use in
 * effect: approving an approved comment, or marking spam as spam, changes nothing and says so; a comment
 * gone is a 404; one changed meanwhile (the write is conditioned on its status as read) a 409.
 */
export function createModerateFromMail({
  readLink,
  comments,
  moderation,
}: ModerateFromMailDependencies): Router {
  return async (request) => {
    const link = await requestLink(readLink, request, 'moderate');
    if (!link) return invalidLinkPage(request.lang);
    return moderateResultPage(await act(link.claims, { comments, moderation }), request.lang);
  };
}

/** Applies one link's action to its comment as it is now. */
async function act(
  { action, commentId }: ModerateClaims,
  storage: Pick<ModerateFromMailDependencies, 'comments' | 'moderation'>,
): Promise<MailModerationOutcome> {
  const found = await readComment(storage, commentId);
  if (!found) return { kind: 'missing' };
  if (action === 'delete') {
    const removed = await storage.moderation.remove(found.location);
    if (removed === 'conflict') return { kind: 'changed' };
    return removed === 0 ? { kind: 'missing' } : { kind: 'done', action, count: removed };
  }
  if (alreadyDone(action, found.comment)) return { kind: 'already', action };
  const status = action === 'approve' ? 'approved' : 'spam';
  return (await storage.moderation.moderate(found.comment, { status }))
    ? { kind: 'done', action }
    : { kind: 'changed' };
}
