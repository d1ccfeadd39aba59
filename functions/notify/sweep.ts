import { logError } from '../shared/log.js';
import type { DeliveryStore } from '../shared/storage/delivery-store.js';
import { keptError, type ProcessEvent } from './process-event.js';

/** What the sweep needs. */
export interface SweepDependencies {
  readonly deliveries: Pick<DeliveryStore, 'eventsToRedrive' | 'markSwept'>;
  readonly processEvent: ProcessEvent;
  readonly now: () => number;
}

/** How the sweep chooses; the defaults suit a schedule of a few minutes. */
export interface SweepSettings {
  /** A pending event older than this (written or re-driven) was missed by the stream. */
  readonly staleMs?: number;
  /** Automatic re-drives of one event; past them only `/ui` re-drives it. */
  readonly maxSweeps?: number;
  /** Events re-driven per run: bounds the run's time; the next run takes the rest. */
  readonly limit?: number;
}

/** What one run did. */
export interface SweepReport {
  readonly redriven: number;
  /** Left final: sent, skipped, or finished by another sender. */
  readonly settled: number;
  readonly failed: number;
}

/** Re-drives what the stream left behind; runs on a schedule. */
export type Sweep = () => Promise<SweepReport>;

const dayMs = 86_400_000;

/**
 * Builds the sweep: the events of today and yesterday (UTC) left `pending` for more than `staleMs` (5
 * minutes), or `failed`, each at most `maxSweeps` (5) times, are processed again here, one after another
 * (the stream's own retries run beside it; the deliveries' leases keep the two from sending twice).
 */
export function createSweep(dependencies: SweepDependencies, settings: SweepSettings = {}): Sweep {
  const { deliveries, processEvent, now } = dependencies;
  const staleMs = settings.staleMs ?? 5 * 60_000;
  const maxSweeps = settings.maxSweeps ?? 5;
  const limit = settings.limit ?? 25;
  return async () => {
    const time = now();
    const day = (at: number) => new Date(at).toISOString().slice(0, 10);
    const eventIds = await deliveries.eventsToRedrive({
      days: [day(time - dayMs), day(time)],
      staleBefore: time - staleMs,
      maxSweeps,
      limit,
    });
    let redriven = 0;
    let settled = 0;
    let failed = 0;
    for (const eventId of eventIds) {
      // Counted before it is tried, so an event that throws every time still runs out of sweeps.
      if (!(await deliveries.markSwept(eventId))) continue;
      redriven += 1;
      try {
        const outcome = await processEvent(eventId);
        if (outcome.final) settled += 1;
        else failed += 1;
      } catch (error) {
        failed += 1;
        logError('The sweep could not process an outbox event', {
          eventId,
          error: keptError(error),
        });
      }
    }
    return { redriven, settled, failed };
  };
}
