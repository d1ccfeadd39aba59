import { logError } from '../shared/log.js';
import type { OwnerMailHours } from '../shared/table/owner-mail-hours.js';
import type { SendOwnerDigest } from './channels/owner-digest-channel.js';
import { isPermanentFailure } from './channels/permanent-failure.js';
import { keptError } from './process-event.js';

/** What sending the owner's digests needs. */
export interface OwnerDigestDependencies {
  readonly ownerMailHours: Pick<OwnerMailHours, 'pendingDigests' | 'claimDigest' | 'recordDigest'>;
  /** The digest mail; absent (no mail channel, no AUTHOR_EMAIL), nothing is sent. */
  readonly ownerDigestMail?: SendOwnerDigest;
  readonly now: () => number;
}

/** How the digests are sent; the defaults suit a sweep every few minutes. */
export interface OwnerDigestSettings {
  /** How long a claimed digest is this sweep's before another may take it over. */
  readonly leaseMs?: number;
  /** Attempts of one digest before it is given up (a sweep each: about two hours at the stack's pace). */
  readonly maxAttempts?: number;
  /** No further digest once less time than this is left of the invocation. */
  readonly minTimeLeftMs?: number;
}

/** What one run did. */
export interface OwnerDigestReport {
  readonly sent: number;
  readonly failed: number;
}

/** Sends the digest of each past hour whose owner mails went past the cap; runs with the sweep. */
export type SendOwnerDigests = (timeLeftMs?: () => number) => Promise<OwnerDigestReport>;

/**
 * Builds the digests' run: for each hour of the last two days (never the current one) with comments past
 * AUTHOR_NOTIFY_CAP_PER_HOUR and no digest sent, oldest first, claim it (the claim closes the hour: a mail
 * counted later is sent by itself), mail "N more comments" with the link to `/ui`, and record it sent, or
 * failed: tried again at the next sweep, given up when refused for good or after `maxAttempts` (12). A
 * success whose record failed is sent again once its lease ends (under the same Message-ID), as any delivery.
 */
export function createOwnerDigests(
  dependencies: OwnerDigestDependencies,
  settings: OwnerDigestSettings = {},
): SendOwnerDigests {
  const { ownerMailHours, ownerDigestMail, now } = dependencies;
  const leaseMs = settings.leaseMs ?? 120_000;
  const maxAttempts = settings.maxAttempts ?? 12;
  const minTimeLeftMs = settings.minTimeLeftMs ?? 20_000;
  return async (timeLeftMs) => {
    let sent = 0;
    let failed = 0;
    if (!ownerDigestMail) return { sent, failed };
    for (const { hour } of await ownerMailHours.pendingDigests(now())) {
      if (timeLeftMs && timeLeftMs() < minTimeLeftMs) break;
      const claim = await ownerMailHours.claimDigest(hour, now(), leaseMs);
      if (!claim) continue;
      try {
        await ownerDigestMail({ hour, count: claim.count });
      } catch (error) {
        failed += 1;
        const gaveUp = isPermanentFailure(error) || claim.attempts >= maxAttempts;
        const kept = keptError(error);
        logError("The owner's digest was not sent", { hour, error: kept, gaveUp });
        await ownerMailHours.recordDigest(hour, { state: 'failed', error: kept, gaveUp }, now());
        continue;
      }
      await ownerMailHours.recordDigest(hour, { state: 'sent' }, now());
      sent += 1;
    }
    return { sent, failed };
  };
}
