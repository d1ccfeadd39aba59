import type { ListedComment } from '../shared/domain/comment.js';
import { type HeldReason, heldReasonLabel } from '../shared/domain/held-reason.js';
import type { Lang } from '../shared/domain/messages.js';
import type { PublicComment } from '../shared/domain/present-comment.js';

/** A comment as an administrator sees it: the public shape plus mail and the IP hash (to block it). */
export type AdminComment = PublicComment & {
  mail: string;
  ipHash?: string;
  /** Why it was held or marked spam when submitted (held-reason.ts); absent when approved at once, or older. */
  heldBecause?: HeldReason;
  /** The same in words, in the request's language, as `/ui` shows it. */
  heldReason?: string;
};

/**
 * A comment as an administrator sees it: the public shape plus mail, the IP hash (to block it) and why it was
 * held, as a code and in words in `lang`.
 */
export function presentForAdmin(shown: PublicComment, comment: ListedComment, lang: Lang): AdminComment {
  return {
    ...shown,
    mail: comment.mail,
    ...(comment.ipHash ? { ipHash: comment.ipHash } : {}),
    ...(comment.heldBecause
      ? { heldBecause: comment.heldBecause, heldReason: heldReasonLabel(comment.heldBecause, lang) }
      : {}),
  };
}
