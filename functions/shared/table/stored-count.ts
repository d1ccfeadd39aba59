/**
 * A stored counter (a page or site count, a like count) read back as a non-negative integer: 0 where
 * it is missing or not a number, and never below 0 or fractional, whatever an older version, a
 * migration or a hand edit of the table left there. The answers promise counts, and a negative one
 * would break paging (`totalPages`) and the widget.
 */
export function storedCount(value: unknown): number {
  const count = Math.trunc(Number(value));
  return Number.isFinite(count) && count > 0 ? count : 0;
}
