import type { Caller, ResolveCaller } from '../shared/auth/viewer.js';
import type { Config } from '../shared/config.js';
import { commentTextSchema } from '../shared/domain/comment-schemas.js';
import { captchaTokenSchema } from '../shared/domain/comment-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { fitsInOneItem } from '../shared/domain/item-size.js';
import { limits } from '../shared/domain/limits.js';
import { type Lang, translate } from '../shared/domain/messages.js';
import { ownEditRefusal, type OwnCommentRefusal, statusAfterOwnEdit } from '../shared/domain/own-comment.js';
import { type Presentation, presentComment } from '../shared/domain/present-comment.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import { fieldWithWord } from '../shared/spam/field-rules.js';
import type { CommentRepository } from '../shared/table/comment-repository.js';
import type { ModerationRepository } from '../shared/table/moderation-repository.js';
import type { CaptchaGuard } from './captcha-guard.js';
import { findComment } from './find-comment.js';
import type { InitialStatus, StatusInput } from './initial-status.js';

/**
 * What an author may change of their comment: its text alone. The widget's edit form also sends nick, mail,
 * link, url and ua (its own inputs, not the profile: Waline's fix of #2163); they are ignored, so an edit never
 * changes who wrote it. The captcha token is taken as on a post.
 */
const ownEditBodySchema = z.object({
  // Optional here so that a change that is not the caller's to make is told so (403) before its shape (400).
  comment: z.optional(commentTextSchema),
  turnstile: captchaTokenSchema,
  recaptchaV3: captchaTokenSchema,
});

/** What an author's edit takes. */
export interface EditOwnCommentDependencies {
  readonly caller: ResolveCaller;
  readonly comments: Pick<CommentRepository, 'locate'>;
  readonly moderation: Pick<ModerationRepository, 'get' | 'moderate'>;
  readonly config: Pick<Config, 'EDIT_WINDOW' | 'IP_HASH_SALT' | 'BLOCKED_IP_HASHES' | 'BLOCKED_WORDS'>;
  readonly captcha: CaptchaGuard;
  readonly renderMarkdown: (text: string) => Promise<string>;
  /** The status the submit's filters give a text (initial-status.ts): word rules, audit, Akismet. */
  readonly initialStatus: (comment: StatusInput) => Promise<InitialStatus>;
  /** An administrator's change (moderate-comment.ts): administrators edit as before. */
  readonly moderate: Router;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly presentation: Presentation;
}

/** The 403 of an account that may not edit or delete comment `id`, saying why. */
export function ownCommentRefused(lang: Lang, id: string, refusal: OwnCommentRefusal, minutes = 0): AppError {
  switch (refusal) {
    case 'anonymous-comment':
      return new AppError('forbidden', translate(lang, 'anonymousCommentNotEditable', { id }));
    case 'not-author':
      return new AppError('forbidden', translate(lang, 'notYourComment', { id }));
    case 'window-closed':
      return new AppError('forbidden', translate(lang, 'editWindowClosed', { id, minutes }), {
        comment: `may be edited by its author for ${minutes} minutes after posting (EDIT_WINDOW)`,
      });
    default:
      throw new Error(`unhandled refusal: ${refusal satisfies never}`);
  }
}

/** The signed-in account behind a request that changes a comment: a 401 when anonymous, a 403 when banned. */
export function requireCommenter(
  caller: Caller,
  lang: Lang,
  anonymous: 'signInRequired' | 'deleteNeedsSignIn',
) {
  if (caller.kind === 'anonymous') throw new AppError('unauthorized', translate(lang, anonymous));
  if (caller.kind === 'banned') throw new AppError('forbidden', translate(lang, 'accountBanned'));
  return caller.viewer;
}

/**
 * `PUT /api/comment/{id}` from a signed-in account (a like is answered before: comment-handler.ts). An
 * administrator's goes to moderate-comment.ts, as before. An author's edits only the text of their own comment
 * (its `userId` is theirs), within `EDIT_WINDOW` minutes of posting, and goes through the submit's filters again:
 * the blocked IPs and words (403), the captcha where one is set, then the status the forbidden words, the audit
 * and Akismet give the new text. A comment the filters now hold goes back to waiting (never approved by an
 * edit); the text, the status and the counters it moves change in one transaction (moderation-items.ts).
 * Anonymous: 401. Not the author, an anonymous comment, or past the window: 403 saying which.
 */
export function createEditOwnComment(dependencies: EditOwnCommentDependencies): Router {
  const { caller: resolveCaller, comments, moderation, config, captcha, renderMarkdown, now } = dependencies;
  return async (request) => {
    const viewer = requireCommenter(
      await resolveCaller(request.authorization),
      request.lang,
      'signInRequired',
    );
    if (viewer.type === 'administrator') return dependencies.moderate(request);
    const body = parseInput(ownEditBodySchema, request.jsonBody(), request.lang);
    // The captcha token is demanded before any read: a missing one costs nothing.
    const demand = await captcha.demand(
      { turnstile: body.turnstile, recaptchaV3: body.recaptchaV3 },
      request,
    );
    const target = await findComment(comments, request);
    const current = await moderation.get(target);
    if (!current)
      throw new AppError('not_found', translate(request.lang, 'commentNotFound', { id: target.id }));
    const refusal = ownEditRefusal(current, viewer.id, now(), config.EDIT_WINDOW);
    if (refusal) throw ownCommentRefused(request.lang, target.id, refusal, config.EDIT_WINDOW);
    const text = body.comment;
    if (text === undefined) {
      throw new AppError('invalid_input', translate(request.lang, 'ownEditNeedsText'), {
        comment: 'is required: an author changes the text of their comment, nothing else',
      });
    }
    if (config.BLOCKED_IP_HASHES.includes(hashIp(config.IP_HASH_SALT, request.sourceIp))) {
      throw new AppError('forbidden', translate(request.lang, 'ipBlocked'));
    }
    const blockedIn = fieldWithWord({ text, nick: '', link: '' }, config.BLOCKED_WORDS);
    if (blockedIn) {
      throw new AppError('forbidden', translate(request.lang, 'blockedWord', { field: 'comment' }), {
        comment: 'contains a blocked word (BLOCKED_WORDS)',
      });
    }
    const outcome = await captcha.verify(demand, request);
    const html = await renderMarkdown(text);
    if (!fitsInOneItem(text, html)) {
      throw new AppError(
        'payload_too_large',
        translate(request.lang, 'commentTooLarge', { limit: limits.storedCommentBytes }),
      );
    }
    const { status: filtered } = await dependencies.initialStatus({
      byAdmin: false,
      ...(outcome.passed ? {} : { captchaUnreachable: true }),
      // It was approved under the rules (an administrator, or a trusted address): COMMENT_AUDIT=first holds it
      // no more than before. Held, it stays held whatever the filters say.
      trusted: current.status === 'approved',
      ip: request.sourceIp,
      userAgent: request.header('user-agent') ?? '',
      url: current.url,
      nick: current.nick,
      mail: current.mail,
      link: current.link,
      text,
    });
    const status = statusAfterOwnEdit(current.status, filtered);
    const change = {
      text: { orig: text, html },
      ...(status === current.status ? {} : { status }),
      // Written only while the comment is still the caller's (their delete or an erase may have come between).
      ownerId: viewer.id,
    };
    if (!(await moderation.moderate(current, change))) {
      throw new AppError('duplicate', translate(request.lang, 'statusChanged', { id: target.id }));
    }
    const updated = await moderation.get(target);
    if (!updated)
      throw new AppError('not_found', translate(request.lang, 'commentNotFound', { id: target.id }));
    const options = {
      ...dependencies.presentation,
      legacy: request.legacy,
      authors: new Map([[viewer.account.id, viewer.account]]),
    };
    return envelope(presentComment(updated, options, { withUrl: true }));
  };
}
