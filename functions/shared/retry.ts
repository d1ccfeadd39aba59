// Hand-written rather than p-retry (not a dependency: the figures below come from a trial build with it),
// which fits these loops poorly and costs more:
// - its jitter multiplies each wait by 1 to 2; these loops draw it anywhere below the ceiling (full
//   jitter), which spreads writers that collided on one hot item furthest apart;
// - it retries only thrown errors, where unprocessed keys and a not-yet-indexed comment are results;
// - it takes no injected sleep (the bulk writer's tests inject one).
// Measured with esbuild (--bundle --minify, both handlers): p-retry in place of this module adds 5.3 KB
// (1.8 KB gzipped) to each function's bundle; this module adds 0.27 KB over the loops it replaced.

/**
 * How a loop tries again: how often, how long it waits in between, and what calls for another try.
 */
export interface RetryPolicy<T> {
  /** Tries in all, the first one included. */
  readonly attempts: number;
  /** The ceiling of the wait after the first try, in ms; it doubles after each further try. */
  readonly firstDelayMs: number;
  /** Where the ceiling stops doubling, in ms (nowhere without it). */
  readonly maxDelayMs?: number;
  /**
   * False waits the whole ceiling each time: right for waiting on something to arrive (an index to catch
   * up), where there is no crowd of clients to spread out. Full jitter otherwise.
   */
  readonly jitter?: boolean;
  /** True for an error worth another try; any other error (every one without it) is thrown at once. */
  readonly retryError?: (error: unknown) => boolean;
  /** True for a result that calls for another try; when the tries run out, the last result is returned. */
  readonly retryResult?: (result: T) => boolean;
  /** Waits `ms`; injected so tests need not sleep (fake timers work with the default too). */
  readonly sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The wait after try `attempt` (1 for the first) of `policy`, in ms: drawn uniformly below
 * `firstDelayMs × 2^(attempt − 1)`, capped at `maxDelayMs`, or that ceiling itself without jitter.
 */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy<unknown>, 'firstDelayMs' | 'maxDelayMs' | 'jitter'>,
): number {
  const ceiling = Math.min(
    policy.maxDelayMs ?? Number.POSITIVE_INFINITY,
    policy.firstDelayMs * 2 ** (attempt - 1),
  );
  return policy.jitter === false ? ceiling : Math.random() * ceiling;
}

/**
 * Runs `tryOnce` (given the try's number, from 1) until it returns a result `policy` accepts, throws an
 * error `policy` does not retry, or `policy.attempts` tries are spent, waiting {@link backoffDelay}
 * between tries. The last try's error is thrown, or its result returned, as it came.
 */
export async function retry<T>(tryOnce: (attempt: number) => Promise<T>, policy: RetryPolicy<T>): Promise<T> {
  const sleep = policy.sleep ?? pause;
  for (let attempt = 1; ; attempt++) {
    let result: T;
    try {
      result = await tryOnce(attempt);
    } catch (error) {
      if (attempt >= policy.attempts || !(policy.retryError?.(error) ?? false)) throw error;
      await sleep(backoffDelay(attempt, policy));
      continue;
    }
    if (attempt >= policy.attempts || !(policy.retryResult?.(result) ?? false)) return result;
    await sleep(backoffDelay(attempt, policy));
  }
}
