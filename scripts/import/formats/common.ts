/** Helpers the format readers share. */
import type { CommentStatus } from '../../../functions/shared/domain/comment.js';
import { counterNames, type CounterName } from '../../../functions/shared/domain/counters.js';
import { parseDate, count } from '../values.js';

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

/** The Waline status names; anything else is not a status. */
export function statusOf(value: unknown): CommentStatus | undefined {
  if (value === undefined || value === null || value === '') return 'approved';
  return value === 'approved' || value === 'waiting' || value === 'spam' ? value : undefined;
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
