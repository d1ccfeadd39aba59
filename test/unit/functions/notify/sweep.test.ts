import { describe, expect, it, vi } from 'vitest';
import { createSweep } from '../../../../functions/notify/sweep.js';

describe('createSweep', () => {
  it('asks for today and yesterday, retries due now, pending for five minutes, five sweeps at most, 25 at a time', async () => {
    const eventsToRedrive = vi.fn(async () => []);
    const sweep = createSweep({
      deliveries: { eventsToRedrive, redriveBySweep: vi.fn() },
      now: () => Date.parse('2026-11-25T00:03:00Z'),
    });

    expect(await sweep()).toEqual({ redriven: 0, deferred: 0 });
    expect(eventsToRedrive).toHaveBeenCalledWith({
      days: ['2026-11-24', '2026-11-25'],
      now: Date.parse('2026-11-25T00:03:00Z'),
      staleBefore: Date.parse('2026-11-24T23:58:00Z'),
      maxSweeps: 5,
      limit: 25,
    });
  });

  it('sets each event it finds back to pending, at the time of its write, and counts those it could', async () => {
    let time = 1_000;
    const redriveBySweep = vi.fn(async (eventId: string) => {
      time += 10;
      return eventId !== 'SENT MEANWHILE';
    });
    const sweep = createSweep(
      {
        deliveries: {
          eventsToRedrive: async () => ['FAILED', 'SENT MEANWHILE', 'PENDING'],
          redriveBySweep,
        },
        now: () => time,
      },
      { staleMs: 1, maxSweeps: 1, limit: 3 },
    );

    expect(await sweep()).toEqual({ redriven: 2, deferred: 0 });
    expect(redriveBySweep.mock.calls).toEqual([
      ['FAILED', 1_000],
      ['SENT MEANWHILE', 1_010],
      ['PENDING', 1_020],
    ]);
  });

  it('takes no further event once less than 25 s is left of its invocation, and says how many it left', async () => {
    const left = [60_000, 25_000, 24_999, 60_000];
    const timeLeftMs = vi.fn(() => left.shift() ?? 0);
    const redriveBySweep = vi.fn(async (_eventId: string) => true);
    const sweep = createSweep({
      deliveries: { eventsToRedrive: async () => ['A', 'B', 'C', 'D'], redriveBySweep },
      now: () => 0,
    });

    const report = await sweep(timeLeftMs);

    expect(report).toEqual({ redriven: 2, deferred: 2 });
    expect(redriveBySweep.mock.calls.map(([eventId]) => eventId)).toEqual(['A', 'B']);
  });

  it('takes every event it finds when it has no deadline (local mode)', async () => {
    const redriveBySweep = vi.fn(async () => true);
    const sweep = createSweep(
      { deliveries: { eventsToRedrive: async () => ['A', 'B'], redriveBySweep }, now: () => 0 },
      { minTimeLeftMs: Number.MAX_SAFE_INTEGER },
    );

    expect(await sweep()).toEqual({ redriven: 2, deferred: 0 });
  });
});
