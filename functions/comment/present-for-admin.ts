import type { ListedComment } from '../shared/domain/comment.js';
import type { PublicComment } from '../shared/domain/present-comment.js';

/** A comment as an administrator sees it: the public shape plus mail and the IP hash (to block it). */
export function presentForAdmin(
  shown: PublicComment,
  comment: ListedComment,
): PublicComment & { mail: string; ipHash?: string } {
  return { ...shown, mail: comment.mail, ...(comment.ipHash ? { ipHash: comment.ipHash } : {}) };
}
