/**
 * What the migration does with one item, decided from the item alone: pure, so a dry run and a real run
 * decide alike, and a rerun finds nothing left to do.
 */
import type { CommentStatus } from '../../functions/shared/domain/comment.js';
import { indexAttributes } from '../../functions/shared/storage/comment-item.js';
import { contribution } from '../../functions/shared/storage/counter-deltas.js';
import type { NumberValue } from '@aws-sdk/lib-dynamodb';
import { attributes, entities, type Key, keys, likeSortValue } from '../../functions/shared/storage/keys.js';

/** The step one comment item needs to be in layout 2. */
export type CommentStep =
  /** A reply not yet under its root: it moves to `to`, whole. */
  | { readonly kind: 'move'; readonly to: Key }
  /** A root without its roots-index keys (or with stale ones): it gets `rootsPk` and `likeSort`. */
  | { readonly kind: 'index'; readonly rootsPk: string; readonly likeSort: NumberValue }
  /** Already as layout 2 keeps it. */
  | { readonly kind: 'in-place' }
  /** Not a comment the migration understands: left as it is and reported. */
  | { readonly kind: 'invalid'; readonly reason: string };

const statuses: readonly string[] = ['approved', 'waiting', 'spam'] satisfies CommentStatus[];

/** True for comment items (roots and replies, wherever they sit). */
export function isCommentItem(item: Record<string, unknown>): boolean {
  return item.entity === entities.comment;
}

/** True for the counters item of a page. */
export function isPageCountersItem(item: Record<string, unknown>): boolean {
  return item.entity === entities.pageCounters;
}

/** The step `item` (a comment item of either layout) needs. */
export function planComment(item: Record<string, unknown>): CommentStep {
  const url = item.url;
  const id = item[attributes.commentId];
  const rid = item.rid;
  // As the functions read it (fromCommentItem): a comment without a status is approved.
  const status = item.status ?? 'approved';
  if (typeof url !== 'string' || typeof id !== 'string') return invalid('no url or no comment id');
  if (typeof status !== 'string' || !statuses.includes(status)) {
    return invalid(`unknown status ${String(status)}`);
  }
  if (rid !== undefined && typeof rid !== 'string') return invalid('a rid that is not a string');
  const place = { url, id, status: status as CommentStatus, ...(rid === undefined ? {} : { rid }) };
  const target = keys.comment(place);
  // A move never leaves the item's partition: a url that does not name it is a damaged item.
  if (item[attributes.pk] !== target.pk) return invalid(`its url ${url} does not name its partition`);
  if (rid !== undefined) {
    return item[attributes.sk] === target.sk ? { kind: 'in-place' } : { kind: 'move', to: target };
  }
  if (item[attributes.sk] !== target.sk) return invalid('a root away from its key');
  const rootsPk = indexAttributes({ ...place, sticky: item.sticky === true })[attributes.rootsPk] as string;
  // The like key spells out the count as stored (none counts as 0, as the functions read it).
  // The like sort value spells out the count as stored (none counts as 0, as the functions read it).
  const likeSort = likeSortValue(typeof item.like === 'number' ? item.like : 0, id);
  const indexed =
    item[attributes.rootsPk] === rootsPk &&
    String(item[attributes.likeSort]) === likeSort.toString() &&
    typeof item.like === 'number';
  return indexed ? { kind: 'in-place' } : { kind: 'index', rootsPk, likeSort };
}

/** The comment counters of a page, as layout 2 keeps them on its counters item. */
export interface PageCounts {
  readonly comments: number;
  readonly roots: number;
  readonly held: number;
  readonly heldRoots: number;
}

/** Names of the page counters the migration sets. */
export const pageCountNames = [
  'comments',
  'roots',
  'held',
  'heldRoots',
] as const satisfies readonly (keyof PageCounts)[];

/** Counts a page's comments (each with its `status` and, for a reply, `rid`) as the live writes count them. */
export function countComments(items: Iterable<Record<string, unknown>>): PageCounts {
  const counts = { comments: 0, roots: 0, held: 0, heldRoots: 0 };
  for (const item of items) {
    const status = (item.status ?? 'approved') as CommentStatus;
    const { page } = contribution(status, item.rid === undefined);
    for (const name of pageCountNames) counts[name] += page[name];
  }
  return counts;
}

function invalid(reason: string): CommentStep {
  return { kind: 'invalid', reason };
}
