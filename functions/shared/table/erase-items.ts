import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { deletedPlaceholder } from '../domain/deleted-placeholder.js';
import type { ErasedWithReplies } from '../domain/erase-mode.js';
import { regionAttribute, textBytesOf, userIdAttribute } from './comment-item.js';
import { attributes } from './keys.js';
import type { ModeratedComment } from './moderation-items.js';
import { takenFromAuthorItems } from './own-comment-items.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export type { ErasedWithReplies } from '../domain/erase-mode.js';

/** The name an anonymised comment shows. */
export const anonymousNick = 'Anonymous';

/** What an anonymised comment keeps of its author: nothing (its text stays). */
const anonymised = { nick: anonymousNick, mail: '', link: '', browser: '', os: '', ua: '' } as const;

/**
 * The items of one TransactWriteItems that takes a commenter's erased comment, which others answered, away from
 * them and keeps it for its replies: placeholder or anonymised (`mode`), its account id, IP hash, region and
 * duplicate-mark hash removed, `deletedAt` stamped; its duplicate mark and its feed entries under `feedKeys`
 * deleted. It keeps its key, its status and its index keys: no page or site counter moves (the caller moves the
 * author's level counter).
 */
export function erasedItems(
  tableName: string,
  comment: ModeratedComment,
  mode: ErasedWithReplies,
  deletedAt: number,
  feedKeys: readonly string[],
): TransactItem[] {
  const kept =
    mode === 'placeholder'
      ? { ...deletedPlaceholder, [attributes.textBytes]: textBytesOf(deletedPlaceholder) }
      : anonymised;
  return takenFromAuthorItems(
    tableName,
    comment,
    { ...kept, deletedAt },
    {
      removed: [userIdAttribute, 'ipHash', 'contentHash', regionAttribute],
      feedKeys,
      // Two erases that read the thread at once: only the first takes it (and its author's count), once.
      once: true,
    },
  );
}

/**
 * Of `thread` (a root and its replies), the comments of `erased` (ids) that stay, answered: a comment others
 * answered (a reply whose `pid` is it, or, a root, any reply of the thread) stays, and so does one answered by a
 * comment that stays. The others of `erased` can go whole.
 */
export function answeredOf(
  thread: readonly { readonly id: string; readonly pid?: string; readonly rid?: string }[],
  erased: ReadonlySet<string>,
): Set<string> {
  const staying = new Set(thread.filter((c) => !erased.has(c.id)).map((c) => c.id));
  const answered = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const comment of thread) {
      if (!erased.has(comment.id) || answered.has(comment.id)) continue;
      const kept = thread.some(
        (other) =>
          (staying.has(other.id) || answered.has(other.id)) &&
          (other.pid === comment.id || (comment.rid === undefined && other.rid === comment.id)),
      );
      if (kept) {
        answered.add(comment.id);
        grew = true;
      }
    }
  }
  return answered;
}
