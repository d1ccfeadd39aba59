import type { Router } from '../shared/http/http-function.js';
import type { ModerateClaims } from '../shared/notify/link-token.js';
import type { CommentLocation, CommentRepository } from '../shared/table/comment-repository.js';
import type { ModeratedComment, ModerationRepository } from '../shared/table/moderation-repository.js';
import { invalidLinkPage } from './pages/link-page.js';
import {
  linkStanding,
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
 * waiting comment. It shows the comment and one button for the link's action, or, when the comment's
 * status is no longer the one the mail showed, what happened meanwhile and no button; it changes nothing,
 * so a link scanner that opens it does no harm.
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
    return moderateConfirmPage(found.comment, link.claims, {
      lang: request.lang,
      siteUrl,
      query: link.query,
    });
  };
}

/**
 * `POST /api/notification/moderate?token=`: runs the link's action through the moderation code of `/ui`
 * (the same repository calls, so an approval writes its outbox event in its transaction). No sign-in: the
 * signed token, which names one action on one comment in one status and expires, is the authority. It
 * acts only on the comment as the owner's mail showed it: a comment whose status changed since (marked
 * spam or approved in `/ui`) is left as it is, and the page says so (409); approving an approved comment,
 * or marking spam as spam, changes nothing and says so; a comment gone is a 404. Race-free: the write is
 * conditioned on the status the token names, so a change between the read and the write refuses it (409).
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

type Storage = Pick<ModerateFromMailDependencies, 'comments' | 'moderation'>;

/** Applies one link's action to its comment, only while the comment is in the status the link names. */
async function act(
  { action, commentId, status }: ModerateClaims,
  storage: Storage,
): Promise<MailModerationOutcome> {
  const found = await readComment(storage, commentId);
  if (!found) return { kind: 'missing' };
  const standing = linkStanding(action, status, found.comment);
  if (standing) return standing;
  // From here the comment was read in `status`; each write below is conditioned on it.
  if (action === 'delete') {
    const removed = await storage.moderation.remove(found.location, { status });
    if (removed === 'conflict') return refused(storage, commentId, status);
    return removed === 0 ? { kind: 'missing' } : { kind: 'done', action, count: removed };
  }
  const change = { status: action === 'approve' ? 'approved' : 'spam' } as const;
  return (await storage.moderation.moderate(found.comment, change))
    ? { kind: 'done', action }
    : refused(storage, commentId, status);
}

/**
 * Why a write was refused, from the comment read again: gone, its status changed since the link's (what
 * the owner is told), or something else changed while it was being done (try again).
 */
async function refused(
  storage: Storage,
  commentId: string,
  status: ModerateClaims['status'],
): Promise<MailModerationOutcome> {
  const now = await readComment(storage, commentId);
  if (!now) return { kind: 'missing' };
  return now.comment.status === status
    ? { kind: 'changed' }
    : { kind: 'changedSince', status: now.comment.status };
}
