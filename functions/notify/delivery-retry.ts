/**
 * Each delivery's own retry schedule. A delivery that fails for now (a refused connection, a timeout, a
 * 5xx, a 429) records when it is tried again; the sweep (every 10 minutes) re-drives its event once that
 * time has come, and only the deliveries due are sent again. After the last wait it is given up, as is at
 * once a permanent failure (channels/permanent-failure.ts). A delivery sent is never sent again.
 */

/** The waits before the 1st, 2nd, ... retry: six attempts over about four hours, all within the sweep's two days. */
export const defaultRetryDelaysMs: readonly number[] = [
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  60 * 60_000,
  2 * 60 * 60_000,
];

/**
 * When a delivery that failed for now at `at`, on its attempt number `attempts` (1 for the first), is tried
 * again; undefined once the schedule `delaysMs` is used up (it is given up).
 */
export function nextRetryAt(
  attempts: number,
  at: number,
  delaysMs: readonly number[] = defaultRetryDelaysMs,
): number | undefined {
  const delay = delaysMs[Math.max(0, attempts - 1)];
  return delay === undefined ? undefined : at + delay;
}
