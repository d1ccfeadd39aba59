import { type ResolveViewer, requireAdmin } from '../shared/auth/viewer.js';
import { commentTextSchema } from '../shared/domain/comment-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { fitsInOneItem } from '../shared/domain/item-size.js';
import { limits } from '../shared/domain/limits.js';
import { translate } from '../shared/domain/messages.js';
import { type Presentation, presentComment } from '../shared/domain/present-comment.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { CommentRepository } from '../shared/table/comment-repository.js';
import type { ModerationRepository } from '../shared/table/moderation-repository.js';
import { findComment } from './find-comment.js';
import { presentForAdmin } from './present-for-admin.js';

/**
 * What an administrator may change. The widget's edit form also sends nick, mail, link, url and
 * ua (the administrator's own): they are ignored, so an edit never overwrites the author.
 */
const moderationBodySchema = z.object({
  status: z.optional(z.enum(['approved', 'waiting', 'spam'])),
  // The widget sends 0/1.
  sticky: z.optional(
    z.pipe(
      z.union([z.boolean(), z.literal(0), z.literal(1)]),
      z.transform((sticky) => Boolean(sticky)),
    ),
  ),
  comment: z.optional(commentTextSchema),
});

/**
 * `PUT /api/comment/{id}` from an administrator: status (approved/waiting/spam), sticky, and an edit of
 * the text (rendered and sanitised again), in any combination, applied in one transaction with the
 * counters the status moves.
 */
export function createModerateComment({
  viewer,
  comments,
  moderation,
  renderMarkdown,
  presentation,
}: {
  readonly viewer: ResolveViewer;
  readonly comments: Pick<CommentRepository, 'locate'>;
  readonly moderation: Pick<ModerationRepository, 'get' | 'moderate'>;
  /** Markdown to sanitised HTML, for an edited text. */
  readonly renderMarkdown: (text: string) => Promise<string>;
  readonly presentation: Presentation;
}): Router {
  return async (request) => {
    await requireAdmin(viewer, request.authorization, request.lang);
    const change = parseInput(moderationBodySchema, request.jsonBody(), request.lang);
    const target = await findComment(comments, request);
    const notFound = () =>
      new AppError('not_found', translate(request.lang, 'commentNotFound', { id: target.id }));
    // Each change applies only to the comment as read: a concurrent change (or delete) refuses it.
    const changed = () =>
      new AppError('duplicate', translate(request.lang, 'statusChanged', { id: target.id }));

    const current = await moderation.get(target);
    if (!current) throw notFound();
    let text: { orig: string; html: string } | undefined;
    if (change.comment !== undefined) {
      const html = await renderMarkdown(change.comment);
      if (!fitsInOneItem(change.comment, html)) {
        throw new AppError(
          'payload_too_large',
          translate(request.lang, 'commentTooLarge', { limit: limits.storedCommentBytes }),
        );
      }
      text = { orig: change.comment, html };
    }
    // Text, pin and status in one transaction with the counters: all applied, or none.
    if (!(await moderation.moderate(current, { text, sticky: change.sticky, status: change.status }))) {
      throw changed();
    }

    const updated = await moderation.get(target);
    if (!updated) throw notFound();
    return envelope(
      presentForAdmin(
        presentComment(updated, { ...presentation, legacy: request.legacy }, { withUrl: true }),
        updated,
        request.lang,
      ),
    );
  };
}
