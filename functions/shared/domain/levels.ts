/**
 * Waline's `LEVELS`: a comma list of approved-comment thresholds (`0,10,20,50,100,200`). An author's level is
 * the last index `i` with `LEVELS[i] <= count`, else 0 (accounts.md §1.10, §1.14); the widget names level `n`
 * `locale['level' + n]`.
 */

/** At most this many thresholds: the widget names six, and a level is a small number. */
export const maxLevels = 20;

/** The level of an author with `count` approved comments under `thresholds` (Waline's rule). */
export function levelOf(count: number, thresholds: readonly number[]): number {
  let level = 0;
  thresholds.forEach((threshold, index) => {
    if (threshold <= count) level = index;
  });
  return level;
}

/**
 * Reads `LEVELS`: whole numbers, comma-separated, each at least the one before (Waline does not check this,
 * and a list out of order gives levels that jump back). Returns undefined for an unset or empty value; throws
 * an Error naming the rule for anything else that is not such a list.
 */
export function parseLevels(raw: string | undefined): number[] | undefined {
  const trimmed = raw?.trim() ?? '';
  if (trimmed === '') return undefined;
  const parts = trimmed.split(',').map((part) => part.trim());
  if (parts.length > maxLevels) throw new Error(`must have at most ${maxLevels} thresholds`);
  const thresholds = parts.map((part) => {
    if (!/^\d{1,9}$/.test(part)) throw new Error(`must be whole numbers separated by commas (got "${part}")`);
    return Number(part);
  });
  thresholds.forEach((threshold, index) => {
    if (index > 0 && threshold < (thresholds[index - 1] as number)) {
      throw new Error('must not decrease: each threshold at least the one before');
    }
  });
  return thresholds;
}
