/** Helpers the format readers share. */
import type { CommentStatus } from '../../../functions/shared/domain/comment.js';
import { counterNames, type CounterName } from '../../../functions/shared/domain/counters.js';
import { count, decodePath, parseDate, truthy } from '../values.js';

/** Reads dates in the source zone and counts the naive ones, for the report. */
export function createDateReader(zone: string) {
  let naive = 0;
  return {
    read(value: unknown): number | undefined {
      const parsed = parseDate(value, zone);
      if (parsed?.naive) naive++;
      return parsed?.ms;
    },
    /** A note for the report when some timestamps carried no zone. */
    note(): string[] {
      return naive > 0
        ? [`${naive} timestamps had no time zone and were read as ${zone} (--source-timezone)`]
        : [];
    },
  };
}

/** True when a LeanCloud `ACL` keeps visitors from reading the row: `*` is not granted read. */
function unreadable(acl: unknown): boolean {
  if (typeof acl !== 'object' || acl === null || Array.isArray(acl)) return false;
  const everyone: unknown = (acl as Record<string, unknown>)['*'];
  return !(
    typeof everyone === 'object' &&
    everyone !== null &&
    truthy((everyone as { read?: unknown }).read)
  );
}

/**
 * The status of a Waline, Valine or Twikoo row, whatever file it comes in. A row with a `status` is
 * one Waline wrote or moderated, and Waline shows rows by it alone (it reads LeanCloud with the master
 * key, past `ACL`, and never looks at `isSpam`). A row without one was hidden when Valine-Admin or
 * Twikoo marked it `isSpam` (spam, or held by a manual-review mode: spam), or when its `ACL` kept
 * visitors out (hidden by hand, its fate undecided: waiting). Undefined for a status Waline lacks.
 */
export function rowStatus(row: Record<string, unknown>): CommentStatus | undefined {
  const { status } = row;
  if (status !== undefined && status !== null && status !== '') {
    return status === 'approved' || status === 'waiting' || status === 'spam' ? status : undefined;
  }
  if (truthy(row.isSpam)) return 'spam';
  return unreadable(row.ACL) ? 'waiting' : 'approved';
}

/** A comment's page key, decoded as the widget asks for comments, with the source's form if it differs. */
export function commentPage(raw: string): { url: string; rawUrl?: string } {
  const url = decodePath(raw);
  return url === raw ? { url } : { url, rawUrl: raw };
}

/** The reading counters of a Counter row (`time`, `reaction0..8`), the zero ones left out. */
export function countersOf(row: Record<string, unknown>): Partial<Record<CounterName, number>> {
  const counts: Partial<Record<CounterName, number>> = {};
  for (const name of counterNames) {
    const value = count(row[name]);
    if (value > 0) counts[name] = value;
  }
  return counts;
}

/** Splits counters into pageviews (under the key the browser sends) and reactions (decoded key). */
export function splitCounters(counts: Partial<Record<CounterName, number>>): {
  time: Partial<Record<CounterName, number>>;
  reactions: Partial<Record<CounterName, number>>;
} {
  const { time, ...reactions } = counts;
  return { time: time === undefined ? {} : { time }, reactions };
}
