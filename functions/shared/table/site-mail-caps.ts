import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type CappedWindow, cappedCountUpdate } from './capped-count.js';
import { entities, keys } from './keys.js';
import { transactWrite } from './transact.js';

/**
 * The site-wide caps on reader mail: however many readers a flood of replies reaches, the site sends at
 * most so many reader mails an hour and a day, and so many an hour to any one recipient domain. Bounces and
 * complaints from a mass mailing are what put an SES account under review; these caps bound them.
 */

/** The caps (NOTIFY_SITE_CAP_PER_HOUR, NOTIFY_SITE_CAP_PER_DAY, NOTIFY_DOMAIN_CAP_PER_HOUR). */
export interface SiteMailCapSettings {
  readonly perHour: number;
  readonly perDay: number;
  readonly domainPerHour: number;
}

/** Which cap refused a reader mail. */
export type SiteMailCapName = 'site-hour' | 'site-day' | 'domain-hour';

/** Takes a slot of the site-wide caps for one reader mail. */
export interface SiteMailCaps {
  /**
   * Counts one reader mail to the domain `domainHash` (a keyed hash of the lower-cased domain) in the site's
   * hour and day of `at` and in the domain's hour, all three or none; undefined when counted, else the cap
   * that was full (nothing counted).
   */
  take(domainHash: string, at: number): Promise<SiteMailCapName | undefined>;
  /** The caps it was built with (for the reason a capped delivery is recorded with). */
  readonly settings: SiteMailCapSettings;
}

const hourMs = 3_600_000;

/** The reason a reader delivery refused by `cap` is recorded `skipped` with. */
export function siteCapReason(cap: SiteMailCapName, settings: SiteMailCapSettings): string {
  switch (cap) {
    case 'site-hour':
      return `site cap: ${settings.perHour} reader mails an hour`;
    case 'site-day':
      return `site cap: ${settings.perDay} reader mails a day`;
    case 'domain-hour':
      return `domain cap: ${settings.domainPerHour} reader mails an hour to one domain`;
  }
}

/** The three counting windows of a reader mail at `at`, in the order the transaction writes them. */
export function siteMailWindows(
  domainHash: string,
  at: number,
  settings: SiteMailCapSettings,
): (CappedWindow & { readonly name: SiteMailCapName })[] {
  const time = new Date(at).toISOString();
  const hour = `H#${time.slice(0, 13)}`;
  // Kept a little past its window, then left to expire: an old count is never reset, only forgotten.
  const hourExpiry = Math.ceil((at + 2 * hourMs) / 1000);
  return [
    {
      name: 'site-hour',
      key: keys.siteMailCap(hour),
      cap: settings.perHour,
      expiresAt: hourExpiry,
      entity: entities.siteMailCap,
    },
    {
      name: 'site-day',
      key: keys.siteMailCap(`D#${time.slice(0, 10)}`),
      cap: settings.perDay,
      expiresAt: Math.ceil((at + 48 * hourMs) / 1000),
      entity: entities.siteMailCap,
    },
    {
      name: 'domain-hour',
      key: keys.domainMailCap(domainHash, hour),
      cap: settings.domainPerHour,
      expiresAt: hourExpiry,
      entity: entities.domainMailCap,
    },
  ];
}

/** Builds the site-wide reader mail caps on `client` and `tableName`. */
export function createSiteMailCaps(
  client: DynamoDBDocumentClient,
  tableName: string,
  settings: SiteMailCapSettings,
): SiteMailCaps {
  return {
    settings,
    async take(domainHash, at) {
      const windows = siteMailWindows(domainHash, at, settings);
      // The site's hour and day and the domain's hour together or none, so a refused mail leaves every count as it was.
      const outcome = await transactWrite(client, {
        TransactItems: windows.map((window) => cappedCountUpdate(tableName, window)),
      });
      if (outcome.ok) return undefined;
      const first = outcome.failedConditions[0] ?? 0;
      return windows[first]?.name ?? 'site-hour';
    },
  };
}
