import type { DeliveryStore } from '../../../../functions/shared/table/delivery-store.js';
import type { RecipientKind } from '../../../../functions/shared/table/keys.js';
import type { MailGuards } from '../../../../functions/shared/table/mail-guards.js';
import type { ReplyConfirmations } from '../../../../functions/shared/table/reply-confirmations.js';
import type {
  NotifiedComment,
  ReadNotifiedComments,
} from '../../../../functions/shared/table/notified-comments.js';
import type { OutboxEvent } from '../../../../functions/shared/table/outbox-event.js';
import type { StoredOutboxEvent } from '../../../../functions/shared/table/outbox-items.js';
import type { DeliveryState } from '../../../../functions/shared/table/outbox-items.js';

/** A delivery as the fake keeps it. */
export interface FakeDelivery {
  state: DeliveryState;
  attempts: number;
  lastError?: string;
  leaseUntil?: number;
  counted?: boolean;
  retryAt?: number;
  gaveUp?: boolean;
  awaitingConfirmation?: boolean;
}

/**
 * The notifier's storage in memory, with the conditions of the real one (delivery-store.ts, mail-guards.ts):
 * a claim only of a delivery neither sent nor skipped and not leased, and (unless by hand) not given up nor
 * before its retry; a failure never over a send; caps counted per address hash; suppressions by hash and scope.
 */
export function createFakeNotifyStore() {
  const events = new Map<string, StoredOutboxEvent & { sweeps?: number; updatedAt?: number }>();
  const deliveries = new Map<string, FakeDelivery>();
  const comments = new Map<string, NotifiedComment>();
  const suppressions = new Set<string>();
  const capCounts = new Map<string, number>();
  const key = (eventId: string, recipient: RecipientKind) => `${eventId}#${recipient}`;

  const store: DeliveryStore = {
    async getEvent(eventId) {
      const event = events.get(eventId);
      return event && { ...event };
    },
    async finishEvent(eventId, outcome, at) {
      const event = events.get(eventId);
      if (!event) return;
      const { lastError: _dropped, retryAt: _retry, gaveUp: _gaveUp, byHand: _byHand, ...rest } = event;
      const retrying = outcome.state === 'failed' && outcome.retryAt !== undefined;
      events.set(eventId, {
        ...rest,
        state: outcome.state,
        attempts: event.attempts + 1,
        updatedAt: at,
        ...(outcome.lastError === undefined ? {} : { lastError: outcome.lastError.slice(0, 500) }),
        ...(retrying ? { retryAt: outcome.retryAt } : {}),
        ...(outcome.state === 'failed' && !retrying && outcome.gaveUp ? { gaveUp: true } : {}),
      });
    },
    async claim(eventId, recipient, { at, leaseMs, byHand = false }) {
      const delivery = deliveries.get(key(eventId, recipient));
      if (
        delivery &&
        (delivery.state === 'sent' ||
          delivery.state === 'skipped' ||
          (delivery.leaseUntil !== undefined && delivery.leaseUntil >= at) ||
          (!byHand &&
            (delivery.gaveUp === true || (delivery.retryAt !== undefined && delivery.retryAt > at))))
      ) {
        return {
          claimed: false,
          state: delivery.state,
          ...(delivery.retryAt === undefined ? {} : { retryAt: delivery.retryAt }),
          ...(delivery.gaveUp ? { gaveUp: true } : {}),
          ...(delivery.lastError === undefined ? {} : { lastError: delivery.lastError }),
        };
      }
      const attempts = (delivery?.attempts ?? 0) + 1;
      deliveries.set(key(eventId, recipient), {
        ...delivery,
        state: 'sending',
        attempts,
        leaseUntil: at + leaseMs,
      });
      return { claimed: true, attempts, counted: delivery?.counted === true };
    },
    async record(eventId, recipient, outcome) {
      const delivery = deliveries.get(key(eventId, recipient));
      if (outcome.state !== 'sent' && delivery?.state === 'sent') return;
      const {
        leaseUntil: _freed,
        lastError: _old,
        retryAt: _retry,
        gaveUp: _gaveUp,
        ...rest
      } = delivery ?? { state: 'pending', attempts: 0 };
      deliveries.set(key(eventId, recipient), {
        ...rest,
        state: outcome.state,
        ...(outcome.lastError === undefined ? {} : { lastError: outcome.lastError.slice(0, 500) }),
        ...(outcome.counted ? { counted: true } : {}),
        ...(outcome.awaitingConfirmation ? { awaitingConfirmation: true } : {}),
        ...(outcome.state === 'failed'
          ? outcome.retryAt === undefined
            ? { gaveUp: true }
            : { retryAt: outcome.retryAt }
          : {}),
      });
    },
    async redriveBySweep(eventId, at) {
      const event = events.get(eventId);
      if (!event || (event.state !== 'pending' && event.state !== 'failed')) return false;
      events.set(eventId, { ...event, state: 'pending', updatedAt: at, sweeps: (event.sweeps ?? 0) + 1 });
      return true;
    },
    async eventsToRedrive({ now, staleBefore, maxSweeps, limit }) {
      return [...events.values()]
        .filter(
          (event) =>
            (event.state === 'failed' && event.retryAt !== undefined && event.retryAt <= now) ||
            ((event.sweeps ?? 0) < maxSweeps &&
              ((event.state === 'pending' && (event.updatedAt ?? event.at) < staleBefore) ||
                (event.state === 'failed' && event.retryAt === undefined && !event.gaveUp))),
        )
        .map((event) => event.id)
        .slice(0, limit);
    },
  };

  const guards: MailGuards = {
    async suppression(addressHash, rootId) {
      if (suppressions.has(`${addressHash}#site`)) return 'site';
      if (rootId !== undefined && suppressions.has(`${addressHash}#${rootId}`)) return 'thread';
      return undefined;
    },
    async takeCapSlot(addressHash, _at, caps) {
      const taken = capCounts.get(addressHash) ?? 0;
      if (taken >= Math.min(caps.perHour, caps.perDay)) return false;
      capCounts.set(addressHash, taken + 1);
      return true;
    },
  };

  const confirmed = new Set<string>();
  const asked = new Map<string, { eventId: string; at: number }>();
  const askedMs = 30 * 86_400_000;
  const confirmations: ReplyConfirmations = {
    async consent(addressHash, now) {
      const mark = asked.get(addressHash);
      const live = mark !== undefined && mark.at + askedMs > now;
      return { confirmed: confirmed.has(addressHash), ...(live ? { asked: mark } : {}) };
    },
    async markAsked(addressHash, eventId, at) {
      const mark = asked.get(addressHash);
      if (mark && mark.at + askedMs > at) return false;
      asked.set(addressHash, { eventId, at });
      return true;
    },
    async unmarkAsked(addressHash, eventId) {
      if (asked.get(addressHash)?.eventId === eventId) asked.delete(addressHash);
    },
    async confirm(addressHash) {
      confirmed.add(addressHash);
    },
    async releasePending(eventId, at) {
      const delivery = deliveries.get(key(eventId, 'parent'));
      const event = events.get(eventId);
      if (!event || delivery?.state !== 'skipped' || !delivery.awaitingConfirmation) return false;
      const { awaitingConfirmation: _a, counted: _c, lastError: _l, ...rest } = delivery;
      deliveries.set(key(eventId, 'parent'), { ...rest, state: 'pending' });
      const { sweeps: _s, ...eventRest } = event;
      events.set(eventId, { ...eventRest, state: 'pending', updatedAt: at });
      return true;
    },
  };

  const readComments: ReadNotifiedComments = async ({ id, pid }) => {
    const comment = comments.get(id);
    const parent = pid === undefined ? undefined : comments.get(pid);
    return { ...(comment ? { comment } : {}), ...(parent ? { parent } : {}) };
  };

  return {
    store,
    guards,
    confirmations,
    confirmed,
    asked,
    readComments,
    events,
    deliveries,
    comments,
    suppressions,
    capCounts,
    delivery: (eventId: string, recipient: RecipientKind) => deliveries.get(key(eventId, recipient)),
    /** Adds `event` as its cause writes it: pending, no attempt yet. */
    addEvent(event: OutboxEvent) {
      events.set(event.id, { ...event, state: 'pending', attempts: 0 });
    },
  };
}

/** A stored comment with the fields a notice shows, `overrides` on top. */
export function notifiedComment(overrides: Partial<NotifiedComment> & { id: string }): NotifiedComment {
  return {
    url: '/post',
    nick: 'Reader',
    mail: 'reader@example.com',
    link: '',
    browser: '',
    os: '',
    orig: 'Hello',
    html: '<p>Hello</p>',
    status: 'approved',
    like: 0,
    sticky: false,
    insertedAt: 1_700_000_000_000,
    ...overrides,
  };
}
