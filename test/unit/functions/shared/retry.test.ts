import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, retry } from '../../../../functions/shared/retry.js';

const transient = new Error('transient');
const fatal = new Error('fatal');

/** A sleep that records each wait instead of waiting. */
function recordedSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('backoffDelay', () => {
  afterEach(() => vi.restoreAllMocks());

  it('doubles the ceiling after each try from the first delay, up to the cap, at the top of the jitter', () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const policy = { firstDelayMs: 50, maxDelayMs: 1000 };

    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffDelay(attempt, policy))).toEqual([
      50, 100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('draws the wait anywhere below its ceiling (full jitter), and grows without bound without a cap', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.25);

    expect(backoffDelay(1, { firstDelayMs: 100 })).toBe(25);
    expect(backoffDelay(21, { firstDelayMs: 100 })).toBe(0.25 * 100 * 2 ** 20);
  });

  it('waits the whole ceiling, whatever the random draw, without jitter', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.1);

    expect(backoffDelay(1, { firstDelayMs: 250, jitter: false })).toBe(250);
    expect(backoffDelay(3, { firstDelayMs: 250, maxDelayMs: 600, jitter: false })).toBe(600);
  });
});

describe('retry', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('answers the first result at once when nothing calls for another try', async () => {
    const { waits, sleep } = recordedSleep();
    const tryOnce = vi.fn(async () => 'done');

    await expect(retry(tryOnce, { attempts: 5, firstDelayMs: 10, sleep })).resolves.toBe('done');
    expect(tryOnce).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
  });

  it('tries again after an error the policy retries, numbering the tries, with a backoff wait between', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const { waits, sleep } = recordedSleep();
    const tryOnce = vi
      .fn(async (_attempt: number) => 'done')
      .mockRejectedValueOnce(transient)
      .mockRejectedValueOnce(transient);

    const outcome = retry(tryOnce, {
      attempts: 5,
      firstDelayMs: 10,
      retryError: (error) => error === transient,
      sleep,
    });

    await expect(outcome).resolves.toBe('done');
    expect(tryOnce.mock.calls.map(([attempt]) => attempt)).toEqual([1, 2, 3]);
    expect(waits).toEqual([10, 20]);
  });

  it('throws at once an error the policy does not retry, and every error without a retryError', async () => {
    const { waits, sleep } = recordedSleep();
    const failing = vi.fn(async () => 'done').mockRejectedValueOnce(fatal);
    const bare = vi.fn(async () => 'done').mockRejectedValueOnce(transient);

    await expect(
      retry(failing, { attempts: 5, firstDelayMs: 10, retryError: (error) => error === transient, sleep }),
    ).rejects.toBe(fatal);
    await expect(retry(bare, { attempts: 5, firstDelayMs: 10, sleep })).rejects.toBe(transient);
    expect(failing).toHaveBeenCalledTimes(1);
    expect(bare).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
  });

  it('throws the last error when every try failed, after exactly `attempts` tries', async () => {
    const { waits, sleep } = recordedSleep();
    const tryOnce = vi.fn(async () => Promise.reject(transient));

    await expect(
      retry(tryOnce, { attempts: 4, firstDelayMs: 10, retryError: () => true, sleep }),
    ).rejects.toBe(transient);
    expect(tryOnce).toHaveBeenCalledTimes(4);
    expect(waits).toHaveLength(3);
  });

  it('tries again while the result calls for it, and answers the last result when the tries run out', async () => {
    const { waits, sleep } = recordedSleep();
    const left = [3, 1, 0];
    const shrinking = vi.fn(async () => left.shift() ?? 0);
    const stuck = vi.fn(async () => 2);
    const policy = { attempts: 3, firstDelayMs: 10, retryResult: (n: number) => n > 0, sleep };

    await expect(retry(shrinking, policy)).resolves.toBe(0);
    expect(shrinking).toHaveBeenCalledTimes(3);
    await expect(retry(stuck, policy)).resolves.toBe(2);
    expect(stuck).toHaveBeenCalledTimes(3);
    expect(waits).toHaveLength(4);
  });

  it('waits on real timers by default: the next try starts when the wait is over, not before', async () => {
    vi.useFakeTimers();
    const tryOnce = vi.fn(async () => undefined as string | undefined).mockResolvedValueOnce(undefined);
    tryOnce.mockResolvedValueOnce('found');

    const outcome = retry(tryOnce, {
      attempts: 2,
      firstDelayMs: 250,
      jitter: false,
      retryResult: (found) => found === undefined,
    });
    await vi.advanceTimersByTimeAsync(249);
    expect(tryOnce).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);

    await expect(outcome).resolves.toBe('found');
    expect(tryOnce).toHaveBeenCalledTimes(2);
  });
});
