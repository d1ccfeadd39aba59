import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSweep } from '../../../../functions/notify/sweep.js';

describe('createSweep', () => {
  afterEach(() => vi.restoreAllMocks());

  it('asks for today and yesterday, pending for five minutes, five sweeps at most, 25 at a time', async () => {
    const eventsToRedrive = vi.fn(async () => []);
    const sweep = createSweep({
      deliveries: { eventsToRedrive, markSwept: vi.fn() },
      processEvent: vi.fn(),
      now: () => Date.parse('2026-11-25T00:03:00Z'),
    });

    expect(await sweep()).toEqual({ redriven: 0, settled: 0, failed: 0 });
    expect(eventsToRedrive).toHaveBeenCalledWith({
      days: ['2026-11-24', '2026-11-25'],
      staleBefore: Date.parse('2026-11-24T23:58:00Z'),
      maxSweeps: 5,
      limit: 25,
    });
  });

  it('processes each event it could mark, goes on past one that throws, and counts what came of each', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const processEvent = vi.fn(async (eventId: string) => {
      if (eventId === 'THROWS') throw new Error('mail to a@example.com: boom');
      return eventId === 'FAILS'
        ? { final: false, state: 'failed' as const }
        : { final: true, state: 'sent' as const };
    });
    const sweep = createSweep(
      {
        deliveries: {
          eventsToRedrive: async () => ['SENT', 'GONE', 'THROWS', 'FAILS'],
          markSwept: async (eventId) => eventId !== 'GONE',
        },
        processEvent,
        now: () => 0,
      },
      { staleMs: 1, maxSweeps: 1, limit: 4 },
    );

    const report = await sweep();

    expect(report).toEqual({ redriven: 3, settled: 1, failed: 2 });
    expect(processEvent.mock.calls.map(([eventId]) => eventId)).toEqual(['SENT', 'THROWS', 'FAILS']);
    expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toMatchObject({
      message: 'The sweep could not process an outbox event',
      eventId: 'THROWS',
      error: 'mail to <address>: boom',
    });
  });
});
