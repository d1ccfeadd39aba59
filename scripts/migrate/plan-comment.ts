/**
 * What the migration does with one item, decided from the item alone: pure, so a dry run and a real run
 * decide alike, and a rerun finds nothing left to do.
 */
import type { CommentStatus } from '../../functions/shared/domain/comment.js';
import {
  indexAttributes,
  staleIndexAttributes,
  textBytesOf,
} from '../../functions/shared/table/comment-item.js';
import { contribution } from '../../functions/shared/table/counter-deltas.js';
import type { NumberValue } from '@aws-sdk/lib-dynamodb';
import { attributes, entities, type Key, keys, likeSortValue } from '../../functions/shared/table/keys.js';

/**
 * The attributes layout 3 derives from a comment, to set (`set`), and those it must not carry (`remove`):
 * its card-index keys and `textBytes`; for a root its roots-index partition, its like sort value and a like
 * count (0 when it has none); no layout 2 `recent` keys.
 */
export interface DerivedAttributes {
  readonly set: Readonly<Record<string, string | number | NumberValue>>;
  readonly remove: readonly string[];
}

/** The step one comment item needs to be in layout 3. */
export type CommentStep =
  /** A reply not yet under its root: it moves to `to`, whole, with its derived attributes. */
  | ({ readonly kind: 'move'; readonly to: Key } & DerivedAttributes)
  /** A comment in place whose derived attributes are missing or stale: they are set (and removed). */
  | ({ readonly kind: 'index' } & DerivedAttributes)
  /** Already as layout 3 keeps it. */
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

/** The step `item` (a comment item of any layout) needs. */
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
  const derived = derive(item, place);
  if (rid !== undefined && item[attributes.sk] !== target.sk) return { kind: 'move', to: target, ...derived };
  if (item[attributes.sk] !== target.sk) return invalid('a root away from its key');
  const current =
    Object.entries(derived.set).every(([name, value]) => String(item[name]) === String(value)) &&
    derived.remove.length === 0;
  return current ? { kind: 'in-place' } : { kind: 'index', ...derived };
}

/** What layout 3 derives from the comment `item` at `place` (DerivedAttributes). */
function derive(
  item: Record<string, unknown>,
  place: { url: string; id: string; rid?: string; status: CommentStatus },
): DerivedAttributes {
  const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : '');
  const root = place.rid === undefined;
  // A root's like sort value spells out the count as stored (none counts as 0, as the functions read it).
  const like = typeof item.like === 'number' ? item.like : 0;
  return {
    set: {
      ...indexAttributes({ ...place, sticky: item.sticky === true }),
      [attributes.textBytes]: textBytesOf({ orig: text('orig'), html: text('html') }),
      ...(root ? { [attributes.likeSort]: likeSortValue(like, place.id), like } : {}),
    },
    remove: staleIndexAttributes(place.status).filter((name) => item[name] !== undefined),
  };
}

/** The comment counters of a page, as layouts 2 and 3 keep them on its counters item. */
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
