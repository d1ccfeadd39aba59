import type { HashAddress } from '../shared/notify/address-hash.js';
import type { OwnerMailHours } from '../shared/table/owner-mail-hours.js';
import { type SiteMailCaps, siteCapReason } from '../shared/table/site-mail-caps.js';
import type { NoticeTemplate } from './notice.js';

/**
 * The site-wide mail caps as the sender checks them (process-event.ts): a reader mail takes a slot of the
 * site's hour and day and of its domain's hour; an owner mail past the hour's cap goes into the hour's
 * digest (owner-digest.ts). Each answers why the delivery is skipped, or undefined to send it.
 */

/** The recipient domain of `address`, as the domain cap counts it: lower-cased, after the last `@`. */
export function recipientDomain(address: string): string {
  return address
    .slice(address.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
}

/**
 * Takes the site-wide slot of one reader mail to `address` at `at`: undefined when taken, else the reason
 * naming the full cap. The domain is kept as its keyed hash, as addresses are: one reader's own domain
 * would say who they are.
 */
export async function takeSiteMailSlot(
  caps: SiteMailCaps,
  hashAddress: HashAddress,
  address: string,
  at: number,
): Promise<string | undefined> {
  const refused = await caps.take(hashAddress(recipientDomain(address)), at);
  return refused === undefined ? undefined : siteCapReason(refused, caps.settings);
}

/** Why a capped owner mail is skipped. */
export const inDigestReason = "in the hour's digest";

/**
 * Counts one owner mail of template `template` at `at`: `counted` when it took a slot of the hour, or the
 * reason it is skipped (past the hour's cap, it is told in the hour's digest). The test mail from /ui is
 * never capped, and takes no slot.
 */
export async function takeOwnerMailSlot(
  hours: OwnerMailHours,
  template: NoticeTemplate,
  at: number,
): Promise<{ readonly skip?: string; readonly counted: boolean }> {
  if (template === 'test') return { counted: false };
  return (await hours.take(at)) === 'digest' ? { skip: inDigestReason, counted: false } : { counted: true };
}
