import type { RangeRead } from './article-comments.js';
import { threadRange } from './keys.js';

/** One part of a thread: its root and approved replies (`visible`), or its held replies (`held`). */
export type ThreadPart = 'visible' | 'held';

/**
 * The roots of a time-sorted page whose threads lie in one range of the partition: root ids are ULIDs,
 * so the page's unpinned roots, neighbours in the time index, are neighbours in the table too, with only
 * roots the index partitions keep apart between them (held ones for a visitor, pinned ones). A pinned root
 * of the page is in that range only when its id falls between theirs: otherwise it may be years away, and
 * the range would hold much of the article. Empty when the page holds pinned roots only.
 */
export function threadSpan(
  pageRoots: readonly { readonly id: string }[],
  pinned: ReadonlySet<string>,
): string[] {
  const flow = pageRoots.filter((root) => !pinned.has(root.id)).map((root) => root.id);
  if (flow.length === 0) return [];
  // Ids are letters and digits (ASCII): JavaScript orders them as DynamoDB orders their UTF-8 bytes.
  const first = flow.reduce((a, b) => (b < a ? b : a));
  const last = flow.reduce((a, b) => (b > a ? b : a));
  return [...new Set(pageRoots.map((root) => root.id).filter((id) => id >= first && id <= last))];
}

/**
 * The sort-key range of the threads of `rootIds` (one part): from the smallest id's thread range to the
 * largest one's. `#` sorts before every id character, so every thread of an id between them lies inside.
 */
export function spanRange(rootIds: readonly string[], part: ThreadPart): { from: string; to: string } {
  const sorted = [...rootIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    from: threadRange(sorted[0] ?? '', part).from,
    to: threadRange(sorted.at(-1) ?? '', part).to,
  };
}

/**
 * Splits one read of a span into the reads of its roots' threads, as a thread's own Query would have
 * given them: a root whose range the read passed (or a read that reached the span's end) is complete, the
 * root in whose range it stopped has `more` and goes on from the read's last key, and a root the read did
 * not reach is absent. Items of other roots in the span (not on the page) are left out.
 */
export function splitSpanRead(
  rootIds: readonly string[],
  part: ThreadPart,
  read: RangeRead,
): Map<string, RangeRead> {
  const itemsOf = new Map<string, Record<string, unknown>[]>(rootIds.map((id) => [id, []]));
  // The projection holds no key: a reply names its root (rid, which its key is made of), a root is its own.
  for (const item of read.items) itemsOf.get(String(item.rid ?? item.commentId))?.push(item);
  const stoppedAt = read.more && read.next ? String(read.next.sk) : undefined;
  const reads = new Map<string, RangeRead>();
  for (const [rootId, items] of itemsOf) {
    const range = threadRange(rootId, part);
    if (stoppedAt === undefined || stoppedAt > range.to) reads.set(rootId, { items, more: false });
    else if (stoppedAt >= range.from) reads.set(rootId, { items, more: true, next: read.next });
  }
  return reads;
}
