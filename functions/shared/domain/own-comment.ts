import type { CommentStatus, ListedComment } from './comment.js';

/** Milliseconds in a minute, for EDIT_WINDOW. */
const minuteMs = 60_000;

/**
 * Why a signed-in account may not edit or delete a comment: it was posted without an account (a typed address is
 * no identity), by another account, or (an edit only) longer ago than the edit window.
 */
export type OwnCommentRefusal = 'anonymous-comment' | 'not-author' | 'window-closed';

/** Why account `accountId` may not delete `comment`; undefined when it is its author. */
export function ownDeleteRefusal(
  comment: Pick<ListedComment, 'userId'>,
  accountId: string,
): OwnCommentRefusal | undefined {
  if (comment.userId === undefined) return 'anonymous-comment';
  return comment.userId === accountId ? undefined : 'not-author';
}

/**
 * Why account `accountId` may not edit `comment` at `now` (epoch ms): as for a delete, and past
 * `editWindowMinutes` after it was posted (EDIT_WINDOW; 0 closes every window).
 */
export function ownEditRefusal(
  comment: Pick<ListedComment, 'userId' | 'insertedAt'>,
  accountId: string,
  now: number,
  editWindowMinutes: number,
): OwnCommentRefusal | undefined {
  const refusal = ownDeleteRefusal(comment, accountId);
  if (refusal !== undefined) return refusal;
  // The window's last millisecond still edits: a comment posted at t is editable up to t + window.
  return now - comment.insertedAt <= editWindowMinutes * minuteMs && editWindowMinutes > 0
    ? undefined
    : 'window-closed';
}

/**
 * The status an author's edit leaves a comment in, given what the submit's filters say of the new text: an edit
 * never approves what was held (only an administrator does), and an approved comment the filters now hold goes
 * back to waiting, for an administrator to look at (not to spam: its author is a known account).
 */
export function statusAfterOwnEdit(current: CommentStatus, filtered: CommentStatus): CommentStatus {
  return current === 'approved' && filtered !== 'approved' ? 'waiting' : current;
}
