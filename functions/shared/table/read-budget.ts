import { limits } from '../domain/limits.js';

/**
 * What a list page's reads have brought, against its read budget (`limits.listReadChars` of text and HTML,
 * about what one answer can carry): the characters read, and the largest comment, by which the next reads
 * are judged.
 */
export interface ReadBudget {
  readonly chars: number;
  readonly largest: number;
}

/** A page's budget before any read. */
export const unspentBudget: ReadBudget = { chars: 0, largest: 0 };

/** The budget once `items` (comment items, with their texts or not) have been read too. */
export function spend(budget: ReadBudget, items: readonly Record<string, unknown>[]): ReadBudget {
  let { chars, largest } = budget;
  for (const item of items) {
    const size = String(item.orig ?? '').length + String(item.html ?? '').length;
    chars += size;
    largest = Math.max(largest, size);
  }
  return { chars, largest };
}

/** Whether the page may read more texts: it has not yet read what one answer can carry. */
export function budgetLeft(budget: ReadBudget): boolean {
  return budget.chars < limits.listReadChars;
}

/**
 * How many reads of up to `items` comments each what is left of the budget holds, judging each comment by
 * the largest read so far; before any was read, a first wave of `limits.listFirstWaveReads`.
 */
export function readsLeft(budget: ReadBudget, items: number): number {
  return budget.largest === 0
    ? limits.listFirstWaveReads
    : Math.floor((limits.listReadChars - budget.chars) / (items * budget.largest));
}
