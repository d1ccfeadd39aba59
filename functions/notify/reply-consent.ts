import type { ReplyConsent } from '../shared/table/reply-confirmations.js';
import type { NotifyConfig } from './notify-config.js';

/**
 * Whether a reply notice may go to its reader's address (REPLY_MAIL): the rule that keeps the site from
 * mailing an address nobody confirmed. Pure: the address's standing is read by the caller.
 */

/** What becomes of one reply notice: sent; replaced by the confirmation mail (`ask`); or skipped, and why. */
export type ReplyMailDecision =
  | { readonly kind: 'send' }
  /** `first`: no confirmation mail in the last 30 days (one is to be recorded); else this event's own, retried. */
  | { readonly kind: 'ask'; readonly first: boolean }
  | { readonly kind: 'skip'; readonly reason: string };

/** Why a reply notice waits for its reader, as the delivery records it. */
export const awaitingReasons = {
  sent: 'awaiting confirmation (confirmation mail sent)',
  already: 'awaiting confirmation (confirmation already sent in the last 30 days)',
} as const;

/**
 * The decision for the reply notice of event `eventId` under `mode`: `all` sends; `off` skips; `confirmed`
 * sends to a confirmed address, else asks it once (its first notice is replaced by the confirmation mail,
 * which a failed send tries again) and skips the notices after it until the click. `consent` is needed only
 * for `confirmed`.
 */
export function replyMailDecision(
  mode: NotifyConfig['REPLY_MAIL'],
  consent: ReplyConsent | undefined,
  eventId: string,
): ReplyMailDecision {
  if (mode === 'all') return { kind: 'send' };
  if (mode === 'off') return { kind: 'skip', reason: 'REPLY_MAIL=off' };
  if (consent?.confirmed) return { kind: 'send' };
  if (consent?.asked === undefined) return { kind: 'ask', first: true };
  if (consent.asked.eventId === eventId) return { kind: 'ask', first: false };
  return { kind: 'skip', reason: awaitingReasons.already };
}
