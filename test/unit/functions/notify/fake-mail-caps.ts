import {
  hourOf,
  type OwnerMailHours,
  type PendingDigest,
} from '../../../../functions/shared/table/owner-mail-hours.js';
import {
  type SiteMailCapName,
  type SiteMailCaps,
  type SiteMailCapSettings,
  siteMailWindows,
} from '../../../../functions/shared/table/site-mail-caps.js';

/** The site-wide caps in memory, with the real one's windows (site-mail-caps.ts): all counted or none. */
export function createFakeSiteMailCaps(settings: SiteMailCapSettings) {
  const counts = new Map<string, number>();
  const caps: SiteMailCaps = {
    settings,
    async take(domainHash, at) {
      const windows = siteMailWindows(domainHash, at, settings);
      const id = (window: (typeof windows)[number]) => `${window.key.pk}|${window.key.sk}`;
      const full = windows.find((window) => (counts.get(id(window)) ?? 0) >= window.cap);
      if (full) return full.name as SiteMailCapName;
      for (const window of windows) counts.set(id(window), (counts.get(id(window)) ?? 0) + 1);
      return undefined;
    },
  };
  return { caps, counts };
}

/** One owner mail hour as the fake keeps it. */
export interface FakeOwnerHour {
  sent: number;
  overflow: number;
  closed?: boolean;
  leaseUntil?: number;
  attempts: number;
  sentAt?: number;
  gaveUp?: boolean;
  lastError?: string;
}

/** The owner's mail hours in memory, with the conditions of the real one (owner-mail-hours.ts). */
export function createFakeOwnerMailHours(perHour: number) {
  const hours = new Map<string, FakeOwnerHour>();
  const hourItem = (hour: string) => {
    const item = hours.get(hour) ?? { sent: 0, overflow: 0, attempts: 0 };
    hours.set(hour, item);
    return item;
  };
  const open = (item: FakeOwnerHour, at: number) =>
    item.overflow > 0 &&
    item.sentAt === undefined &&
    !item.gaveUp &&
    (item.leaseUntil === undefined || item.leaseUntil < at);
  const store: OwnerMailHours = {
    perHour,
    async take(at) {
      const item = hourItem(hourOf(at));
      if (item.sent < perHour) {
        item.sent += 1;
        return 'send';
      }
      if (item.closed) return 'send';
      item.overflow += 1;
      return 'digest';
    },
    async pendingDigests(now) {
      const from = hourOf(now - 48 * 3_600_000);
      const to = hourOf(now - 3_600_000);
      return [...hours.entries()]
        .filter(([hour, item]) => hour >= from && hour <= to && open(item, now))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([hour, item]): PendingDigest => ({ hour, overflow: item.overflow }));
    },
    async claimDigest(hour, at, leaseMs) {
      const item = hours.get(hour);
      if (!item || !open(item, at)) return undefined;
      item.closed = true;
      item.leaseUntil = at + leaseMs;
      item.attempts += 1;
      return { count: item.overflow, attempts: item.attempts };
    },
    async recordDigest(hour, outcome, at) {
      const item = hourItem(hour);
      delete item.leaseUntil;
      if (outcome.state === 'sent') {
        item.sentAt = at;
        delete item.lastError;
      } else {
        item.lastError = outcome.error;
        if (outcome.gaveUp) item.gaveUp = true;
      }
    },
  };
  return { store, hours };
}
