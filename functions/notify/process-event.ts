import type { HashAddress } from '../shared/notify/address-hash.js';
import type { DeliveryStore } from '../shared/table/delivery-store.js';
import type { RecipientKind } from '../shared/table/keys.js';
import type { MailGuards } from '../shared/table/mail-guards.js';
import type { OwnerMailHours } from '../shared/table/owner-mail-hours.js';
import type { SiteMailCaps } from '../shared/table/site-mail-caps.js';
import type { NotifiedComment, ReadNotifiedComments } from '../shared/table/notified-comments.js';
import type { StoredOutboxEvent } from '../shared/table/outbox-items.js';
import type { ReplyConfirmations } from '../shared/table/reply-confirmations.js';
import type { SendAccountMail } from './channels/account-mail-channel.js';
import { isPermanentFailure } from './channels/permanent-failure.js';
import { processAccountMail } from './process-account-mail.js';
import { nextRetryAt } from './delivery-retry.js';
import { takeOwnerMailSlot, takeSiteMailSlot } from './mail-cap-slots.js';
import type { Channels, Notice, NoticeComment } from './notice.js';
import type { NotifyConfig } from './notify-config.js';
import { awaitingReasons, replyMailDecision } from './reply-consent.js';
import { noticesFor, type PlannedNotice, type RuleComment } from './rules.js';

/** What processing one event needs. */
export interface ProcessEventDependencies {
  readonly deliveries: DeliveryStore;
  readonly guards: MailGuards;
  /** The site-wide caps on reader mail; absent, none (unit tests of other parts). */
  readonly siteMailCaps?: SiteMailCaps;
  /** The owner's mail cap per hour and its digest; absent, none (unit tests of other parts). */
  readonly ownerMailHours?: OwnerMailHours;
  /** Readers' confirmations of reply mail (REPLY_MAIL=confirmed). */
  readonly confirmations: Pick<ReplyConfirmations, 'consent' | 'markAsked' | 'unmarkAsked'>;
  readonly readComments: ReadNotifiedComments;
  readonly channels: Channels;
  /** The account mails (confirm, reset, changed, already-registered); absent without a mail channel. */
  readonly accountMail?: SendAccountMail;
  readonly notify: Pick<
    NotifyConfig,
    | 'AUTHOR_EMAIL'
    | 'AUTHOR_LANG'
    | 'DISABLE_AUTHOR_NOTIFY'
    | 'NOTIFY_CAP_PER_HOUR'
    | 'NOTIFY_CAP_PER_DAY'
    | 'REPLY_MAIL'
  >;
  readonly now: () => number;
  /** The keyed hash suppressions and caps are kept under (shared/notify/address-hash.ts). */
  readonly hashAddress: HashAddress;
  /**
   * The hash before normalisation (address-hash.ts): suppressions recorded through unsubscribe links mailed
   * before it are kept under it, and are honoured until those links expire.
   */
  readonly formerHashAddress?: HashAddress;
  /** How long a claimed delivery is this sender's before another may take it over (its sender died). */
  readonly leaseMs?: number;
  /** The waits before each retry of a delivery that failed for now (delivery-retry.ts). */
  readonly retryDelaysMs?: readonly number[];
}

/**
 * How processing ended: `final` when the event needs nothing more from this invocation (sent, skipped,
 * gone, a delivery held by another sender, who finishes it, or a delivery failed: it keeps its own retry
 * schedule, which the sweep serves, so the stream record is done and holds back nothing behind it); false
 * only when processing itself broke (the table unreachable), for the stream to hand the record over again.
 */
export interface EventOutcome {
  readonly final: boolean;
  /** What the event is now, as this sender left it. */
  readonly state: 'sent' | 'failed' | 'skipped' | 'missing' | 'held elsewhere';
}

/** Processes outbox event `eventId` once: every delivery it should have, each sent at most once. */
export type ProcessEvent = (eventId: string) => Promise<EventOutcome>;

/** Long enough for the slowest channel's whole exchange (their timeouts are seconds). */
const defaultLeaseMs = 120_000;

/** What one delivery came to in this processing. */
type DeliveryResult =
  | { readonly state: 'sent' | 'skipped' | 'held elsewhere' }
  /** Failed now or earlier: tried again at `retryAt`, or (absent) given up. */
  | { readonly state: 'failed'; readonly error: string; readonly retryAt?: number };

/** The longest error kept in the table. */
const maxErrorChars = 500;
/** An address, as it may appear in an error (a server's answer often repeats the recipient): plain or URL-encoded. */
const addressPattern = /[^\s<>()[\]{},;:"'`]+(?:@|%40)[^\s<>()[\]{},;:"'`]+/gi;

/**
 * The error as kept in the table and logged: its message (with its name, unless a plain Error), every
 * address in it replaced, at most 500 characters.
 */
export function keptError(error: unknown): string {
  const message =
    error instanceof Error
      ? `${error.name && error.name !== 'Error' ? `${error.name}: ` : ''}${error.message}`
      : String(error);
  return message
    .slice(0, 8 * maxErrorChars)
    .replace(addressPattern, '<address>')
    .slice(0, maxErrorChars);
}

/** A comment as a notice shows it: never its mail, IP hash or user agent. */
function noticeComment(comment: NotifiedComment): NoticeComment {
  return {
    id: comment.id,
    url: comment.url,
    nick: comment.nick,
    link: comment.link,
    html: comment.html,
    orig: comment.orig,
    status: comment.status,
    insertedAt: comment.insertedAt,
    ...(comment.rid === undefined ? {} : { rid: comment.rid }),
    ...(comment.pid === undefined ? {} : { pid: comment.pid }),
    ...(comment.heldBecause === undefined ? {} : { heldBecause: comment.heldBecause }),
  };
}

const ruleComment = (comment: NotifiedComment): RuleComment => ({
  status: comment.status,
  mail: comment.mail,
  ...(comment.lang === undefined ? {} : { lang: comment.lang }),
});

/**
 * Builds the processing of one event: read it (consistently); leave it when it is final; read its comment
 * and parent as they are now (a comment deleted meanwhile: the event is `skipped`); ask the rules; then per
 * recipient claim the delivery (one that failed before only when its retry is due, unless re-driven by
 * hand), check suppressions (site, and thread for a reader) and caps (a reader's own, then the site-wide
 * ones; the owner's per hour, past which the mail goes into the hour's digest), send through the
 * recipient's channel and record what came of it (a failure with its next try, or given up); finally record
 * the event `sent` (every delivery final), `failed` (with the errors, and its earliest retry or that it was
 * given up) or `skipped` (nobody to tell, and why).
 */
export function createProcessEvent(dependencies: ProcessEventDependencies): ProcessEvent {
  const { deliveries, guards, confirmations, readComments, channels, notify, now, hashAddress } =
    dependencies;
  const { siteMailCaps, ownerMailHours } = dependencies;
  const leaseMs = dependencies.leaseMs ?? defaultLeaseMs;
  const { retryDelaysMs } = dependencies;
  const kinds = (Object.keys(channels) as RecipientKind[]).filter((kind) => channels[kind] !== undefined);

  /** The suppression of `address`: under its hash, else (an old unsubscribe link's) under its former hash. */
  async function suppressionOf(address: string, hash: string, rootId: string | undefined) {
    const found = await guards.suppression(hash, rootId);
    const former = dependencies.formerHashAddress?.(address);
    return found ?? (former && former !== hash ? guards.suppression(former, rootId) : undefined);
  }

  /**
   * REPLY_MAIL, suppression and caps of a mail recipient: why it is skipped, or undefined to send (and
   * whether a cap slot was taken, and whether the confirmation mail goes in the notice's place).
   */
  async function mailGuard(
    planned: PlannedNotice & { to: string },
    eventId: string,
    rootId: string | undefined,
    alreadyCounted: boolean,
  ): Promise<{ skip?: string; counted: boolean; confirmation?: boolean }> {
    const hash = hashAddress(planned.to);
    const reader = planned.recipient === 'parent';
    if (reader && notify.REPLY_MAIL === 'off') return { skip: 'REPLY_MAIL=off', counted: false };
    const suppressed = await suppressionOf(planned.to, hash, reader ? rootId : undefined);
    if (suppressed)
      return {
        skip: `suppressed (${suppressed === 'site' ? 'the whole site' : 'this thread'})`,
        counted: false,
      };
    // Site-wide caps, owner: past the hour's cap, the mail is told in the hour's digest (mail-cap-slots.ts).
    if (planned.recipient === 'owner' && ownerMailHours && !alreadyCounted) {
      return takeOwnerMailSlot(ownerMailHours, planned.template, now());
    }
    if (!reader) return { counted: false };
    const consent = notify.REPLY_MAIL === 'confirmed' ? await confirmations.consent(hash, now()) : undefined;
    const decision = replyMailDecision(notify.REPLY_MAIL, consent, eventId);
    if (decision.kind === 'skip') return { skip: decision.reason, counted: false };
    // Recorded before it is sent, conditionally: of two senders at once, one mails, and the one that loses takes
    // no cap slot. A confirmation a cap then refuses gives its mark back, so the address can be asked later.
    const marked = decision.kind === 'ask' && decision.first;
    if (marked && !(await confirmations.markAsked(hash, eventId, now())))
      return { skip: awaitingReasons.already, counted: false };
    const capped = (skip: string) =>
      marked
        ? confirmations.unmarkAsked(hash, eventId).then(() => ({ skip, counted: false }))
        : { skip, counted: false };
    // The confirmation mail counts against the caps as a notice does. A delivery tried again after it took
    // its slots (it failed after counting) takes none again.
    if (!alreadyCounted) {
      const caps = { perHour: notify.NOTIFY_CAP_PER_HOUR, perDay: notify.NOTIFY_CAP_PER_DAY };
      if (!(await guards.takeCapSlot(hash, now(), caps))) {
        return capped(`capped (${caps.perHour} an hour, ${caps.perDay} a day)`);
      }
      // Site-wide caps, any reader mail: after the address's slot, a slot of the site's hour and day and of the
      // domain's hour. When refused, the address's slot stays spent rather than given back: a cap is a ceiling,
      // and one slot too few for that address in a flood harms nobody, whereas giving it back is one more
      // write that can itself fail or race the window's expiry.
      const siteCap = siteMailCaps && (await takeSiteMailSlot(siteMailCaps, hashAddress, planned.to, now()));
      if (siteCap) return capped(siteCap);
    }
    if (decision.kind === 'send') return { counted: !alreadyCounted };
    return { counted: !alreadyCounted, confirmation: true };
  }

  async function deliver(
    event: StoredOutboxEvent,
    planned: PlannedNotice,
    comments: { comment?: NotifiedComment; parent?: NotifiedComment },
  ): Promise<DeliveryResult> {
    const send = channels[planned.recipient];
    if (!send) return { state: 'skipped' };
    const claim = await deliveries.claim(event.id, planned.recipient, {
      at: now(),
      leaseMs,
      byHand: event.byHand === true,
    });
    if (!claim.claimed) {
      if (claim.state === 'sent' || claim.state === 'skipped') return { state: claim.state };
      // Failed earlier and not due yet (or given up): it keeps its schedule, and the event shows it.
      if (claim.state === 'failed' && (claim.retryAt !== undefined || claim.gaveUp)) {
        return {
          state: 'failed',
          error: claim.lastError ?? 'failed earlier',
          ...(claim.gaveUp ? {} : { retryAt: claim.retryAt }),
        };
      }
      return { state: 'held elsewhere' };
    }
    let counted = false;
    let confirmation = false;
    if (planned.to !== undefined) {
      const rootId = event.subject ? (event.subject.rid ?? event.subject.id) : undefined;
      const guard = await mailGuard({ ...planned, to: planned.to }, event.id, rootId, claim.counted);
      if (guard.skip) {
        await deliveries.record(
          event.id,
          planned.recipient,
          { state: 'skipped', lastError: guard.skip },
          now(),
        );
        return { state: 'skipped' };
      }
      counted = guard.counted;
      confirmation = guard.confirmation === true;
    }
    // The confirmation mail carries nothing of the replier's: no comment at all, only the site and the link.
    const notice: Notice = {
      eventId: event.id,
      recipient: planned.recipient,
      template: confirmation ? 'confirm' : planned.template,
      lang: planned.lang,
      ...(planned.to === undefined ? {} : { to: planned.to }),
      ...(comments.comment && !confirmation ? { self: noticeComment(comments.comment) } : {}),
      ...(comments.parent && !confirmation ? { parent: noticeComment(comments.parent) } : {}),
    };
    try {
      await send(notice);
    } catch (error) {
      // A permanent refusal is never tried again; any other failure waits its turn, up to the schedule's end.
      const permanent = isPermanentFailure(error);
      const retryAt = permanent ? undefined : nextRetryAt(claim.attempts, now(), retryDelaysMs);
      const kept = `${keptError(error)}${permanent ? ' (refused for good: not retried)' : ''}`;
      await deliveries.record(
        event.id,
        planned.recipient,
        {
          state: 'failed',
          lastError: kept,
          ...(counted ? { counted } : {}),
          ...(retryAt === undefined ? {} : { retryAt }),
        },
        now(),
      );
      return { state: 'failed', error: kept, ...(retryAt === undefined ? {} : { retryAt }) };
    }
    if (confirmation) {
      // The notice itself waits for the click, which hands this delivery back (reply-confirmations.ts).
      await deliveries.record(
        event.id,
        planned.recipient,
        { state: 'skipped', lastError: awaitingReasons.sent, awaitingConfirmation: true, counted },
        now(),
      );
      return { state: 'skipped' };
    }
    await deliveries.record(
      event.id,
      planned.recipient,
      { state: 'sent', ...(counted ? { counted } : {}) },
      now(),
    );
    return { state: 'sent' };
  }

  return async (eventId) => {
    const event = await deliveries.getEvent(eventId);
    if (!event) return { final: true, state: 'missing' };
    if (event.state === 'sent' || event.state === 'skipped') return { final: true, state: event.state };
    if (event.cause === 'account.mail') {
      const { accountMail, retryDelaysMs: delays } = dependencies;
      return processAccountMail(event, {
        deliveries,
        accountMail,
        now,
        leaseMs,
        keptError,
        ...(delays ? { retryDelaysMs: delays } : {}),
      });
    }

    const comments = event.subject ? await readComments(event.subject) : {};
    if (event.subject && !comments.comment) {
      await deliveries.finishEvent(
        eventId,
        { state: 'skipped', lastError: 'the comment was deleted' },
        now(),
      );
      return { final: true, state: 'skipped' };
    }

    const plan = noticesFor(event, {
      owner: {
        address: notify.AUTHOR_EMAIL,
        lang: notify.AUTHOR_LANG,
        notifyOff: notify.DISABLE_AUTHOR_NOTIFY,
      },
      channels: kinds,
      ...(comments.comment ? { comment: ruleComment(comments.comment) } : {}),
      ...(comments.parent ? { parent: ruleComment(comments.parent) } : {}),
    });
    if (plan.kind === 'skip') {
      await deliveries.finishEvent(eventId, { state: 'skipped', lastError: plan.reason }, now());
      return { final: true, state: 'skipped' };
    }

    for (const { recipient, reason } of plan.skipped) {
      await deliveries.record(eventId, recipient, { state: 'skipped', lastError: reason }, now());
    }
    // One recipient's failure (a channel down, misconfigured or refusing) neither delays nor stops another's:
    // all are sent at once, and a failed one keeps its own retry schedule. A delivery whose claim or record
    // threw (the table unreachable) is a failure too, and every other one still finishes before the event is
    // recorded, so nothing goes on sending unobserved.
    const settled = await Promise.allSettled(
      plan.notices.map((planned) => deliver(event, planned, comments)),
    );
    const results = settled.map((outcome): DeliveryResult =>
      outcome.status === 'fulfilled' ? outcome.value : { state: 'failed', error: keptError(outcome.reason) },
    );
    const failures = plan.notices.flatMap((planned, index) => {
      const result = results[index];
      return result?.state === 'failed' ? [{ recipient: planned.recipient, ...result }] : [];
    });
    if (failures.length > 0) {
      const lastError = failures.map((failure) => `${failure.recipient}: ${failure.error}`).join('; ');
      // Processing broke: the event is left failed without a schedule (the sweep re-drives it, bounded) and
      // the stream hands the record over again.
      if (settled.some((outcome) => outcome.status === 'rejected')) {
        await deliveries.finishEvent(eventId, { state: 'failed', lastError }, now());
        return { final: false, state: 'failed' };
      }
      const retries = failures.flatMap((failure) => (failure.retryAt === undefined ? [] : [failure.retryAt]));
      await deliveries.finishEvent(
        eventId,
        retries.length > 0
          ? { state: 'failed', lastError, retryAt: Math.min(...retries) }
          : { state: 'failed', lastError, gaveUp: true },
        now(),
      );
      return { final: true, state: 'failed' };
    }
    // Another sender holds a delivery: it finishes the event (or, if it dies, the sweep re-drives it).
    if (results.some((result) => result.state === 'held elsewhere'))
      return { final: true, state: 'held elsewhere' };
    await deliveries.finishEvent(eventId, { state: 'sent' }, now());
    return { final: true, state: 'sent' };
  };
}
