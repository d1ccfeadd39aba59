import { type HeldReason, heldReasonLabel } from '../../shared/domain/held-reason.js';
import type { Lang } from '../../shared/domain/messages.js';
import type { Notice, NoticeComment } from '../notice.js';
import { mailSafeHtml } from './mail-safe-html.js';
import { type SiteSettings, type SiteVariables, siteVariables } from './site.js';

/**
 * Waline's template variables (`self`, `parent`, `site`) for a notice. A comment offers what Waline's
 * offers but the private fields: no `mail` (no address is ever in a mail body), no IP, no user agent.
 */

/** A comment as a template sees it. */
export interface CommentVariables {
  /** Waline's name for the id. */
  readonly objectId: string;
  readonly id: string;
  readonly nick: string;
  /** The commenter's website, as typed. */
  readonly link: string;
  /** The page path. */
  readonly url: string;
  /** The stored HTML, mail-safe (mail-safe-html.ts): print it with `| safe`, as Waline's templates do. */
  readonly comment: string;
  /** The text as typed (Waline: `rawComment`); `orig` too. */
  readonly rawComment: string;
  readonly orig: string;
  readonly status: string;
  /** Epoch milliseconds (Waline's `time`). */
  readonly time: number;
  /** ISO 8601. */
  readonly insertedAt: string;
  readonly pid?: string;
  readonly rid?: string;
  /** Why it was held or marked spam when submitted (held-reason.ts), when known. */
  readonly heldBecause?: HeldReason;
  /** The same in words, in the mail's language. */
  readonly heldReason?: string;
}

/** What every mail template is rendered with. */
export interface TemplateVariables {
  readonly self?: CommentVariables;
  readonly parent?: CommentVariables;
  readonly site: SiteVariables;
}

/** The variables of `notice` on the site `site`. */
export function templateVariables(notice: Notice, site: SiteSettings): TemplateVariables {
  return {
    ...(notice.self ? { self: commentVariables(notice.self, notice.lang) } : {}),
    ...(notice.parent ? { parent: commentVariables(notice.parent, notice.lang) } : {}),
    site: siteVariables(site, notice.self),
  };
}

function commentVariables(comment: NoticeComment, lang: Lang): CommentVariables {
  return {
    objectId: comment.id,
    id: comment.id,
    nick: comment.nick,
    link: comment.link,
    url: comment.url,
    comment: mailSafeHtml(comment.html),
    rawComment: comment.orig,
    orig: comment.orig,
    status: comment.status,
    time: comment.insertedAt,
    insertedAt: new Date(comment.insertedAt).toISOString(),
    ...(comment.pid === undefined ? {} : { pid: comment.pid }),
    ...(comment.rid === undefined ? {} : { rid: comment.rid }),
    ...(comment.heldBecause === undefined
      ? {}
      : { heldBecause: comment.heldBecause, heldReason: heldReasonLabel(comment.heldBecause, lang) }),
  };
}
