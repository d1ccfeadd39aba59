import type { DeliveryStore } from '../shared/table/delivery-store.js';

/** What the sweep needs. */
export interface SweepDependencies {
  readonly deliveries: Pick<DeliveryStore, 'eventsToRedrive' | 'redriveBySweep'>;
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
  /** The sweep takes no further event once less time than this is left of its invocation. */
  readonly minTimeLeftMs?: number;
}

/** What one run did. */
export interface SweepReport {
  /** Set back to pending, for the stream to process. */
  readonly redriven: number;
  /** Found but left for the next run: the invocation's time ran short. */
  readonly deferred: number;
}

/**
 * Re-drives what the stream left behind; runs on a schedule. `timeLeftMs` (the invocation's
 * `getRemainingTimeInMillis`; none locally) stops it from taking more events than its time allows.
 */
export type Sweep = (timeLeftMs?: () => number) => Promise<SweepReport>;

const dayMs = 86_400_000;

/**
 * Builds the sweep: the events of today and yesterday (UTC) that are `failed` with a delivery retry due
 * (each delivery bounds its own tries: delivery-retry.ts), and, each at most `maxSweeps` (5) times, those left
 * `pending` for more than `staleMs` (5 minutes) or failed before retries were scheduled, are set back to
 * `pending` (`limit`: 25 a run).
 * The stream then processes each, as it does a `/ui` re-drive: the sweep processes nothing itself, so an event
 * is never run by the sweep and the stream at once, and a run lasts a few writes, not a few sends. It takes no
 * further event once less than `minTimeLeftMs` (25 s) is left of its invocation: the next run takes the rest.
 */
export function createSweep(dependencies: SweepDependencies, settings: SweepSettings = {}): Sweep {
  const { deliveries, now } = dependencies;
  const staleMs = settings.staleMs ?? 5 * 60_000;
  const maxSweeps = settings.maxSweeps ?? 5;
  const limit = settings.limit ?? 25;
  const minTimeLeftMs = settings.minTimeLeftMs ?? 25_000;
  return async (timeLeftMs) => {
    const time = now();
    const day = (at: number) => new Date(at).toISOString().slice(0, 10);
    const eventIds = await deliveries.eventsToRedrive({
      days: [day(time - dayMs), day(time)],
      now: time,
      staleBefore: time - staleMs,
      maxSweeps,
      limit,
    });
    let redriven = 0;
    for (const [index, eventId] of eventIds.entries()) {
      if (timeLeftMs && timeLeftMs() < minTimeLeftMs) {
        return { redriven, deferred: eventIds.length - index };
      }
      // Counted as it is set back, so an event that fails every time still runs out of sweeps.
      if (await deliveries.redriveBySweep(eventId, now())) redriven += 1;
    }
    return { redriven, deferred: 0 };
  };
}
