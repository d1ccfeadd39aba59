import { type ResolveViewer, requireAdmin } from '../shared/auth/viewer.js';
import { coercedInt } from '../shared/domain/coerced-int.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput, singleQuery } from '../shared/http/request.js';
import type { OutboxLogEntry, OutboxRepository } from '../shared/table/outbox-repository.js';

/** How far back and how many: each day is one Query, and events are kept 30 days (their TTL). */
const logQuerySchema = z.object({
  days: coercedInt({ min: 1, max: 30, default: 7 }),
  limit: coercedInt({ min: 1, max: 200, default: 50 }),
});

/** Anything shaped like a mail address: an error text from a channel may quote one, the log never shows it. */
const addressLike = /[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+/g;

const withoutAddresses = (text: string) => text.replace(addressLike, '[address]');

/**
 * One entry as `/ui` shows it, field by field (so nothing the repository might add reaches the answer):
 * the event, the comment it is about (url and ids, no author), and each delivery by recipient kind.
 */
export function presentLogEntry(entry: OutboxLogEntry) {
  const { subject } = entry;
  return {
    id: entry.eventId,
    cause: entry.cause,
    at: entry.at,
    state: entry.state,
    attempts: entry.attempts,
    ...(entry.lastError === undefined ? {} : { lastError: withoutAddresses(entry.lastError) }),
    ...(entry.retryAt === undefined ? {} : { retryAt: entry.retryAt }),
    ...(entry.gaveUp ? { gaveUp: true } : {}),
    ...(subject === undefined
      ? {}
      : {
          comment: {
            url: subject.url,
            id: subject.id,
            ...(subject.rid === undefined ? {} : { rid: subject.rid }),
            ...(subject.pid === undefined ? {} : { pid: subject.pid }),
            status: subject.status,
            byAdmin: subject.byAdmin,
          },
        }),
    deliveries: entry.deliveries.map((delivery) => ({
      recipient: delivery.recipient,
      state: delivery.state,
      attempts: delivery.attempts,
      ...(delivery.lastError === undefined ? {} : { lastError: withoutAddresses(delivery.lastError) }),
      ...(delivery.retryAt === undefined ? {} : { retryAt: delivery.retryAt }),
      ...(delivery.gaveUp ? { gaveUp: true } : {}),
      updatedAt: delivery.updatedAt,
    })),
  };
}

/**
 * `GET /api/notification?days=&limit=` (administrators only): the notification log, newest first: each
 * event with its state, attempts and last error, and what became of each recipient. Addresses appear
 * nowhere: recipients are named by kind (owner, parent, webhook, telegram).
 */
export function createNotificationLog({
  viewer,
  outbox,
  now,
}: {
  readonly viewer: ResolveViewer;
  readonly outbox: Pick<OutboxRepository, 'log'>;
  readonly now: () => number;
}): Router {
  return async (request) => {
    await requireAdmin(viewer, request.authorization, request.lang);
    const query = parseInput(
      logQuerySchema,
      {
        days: singleQuery(request, 'days') || undefined,
        limit: singleQuery(request, 'limit') || undefined,
      },
      request.lang,
    );
    const entries = await outbox.log({ now: now(), days: query.days, limit: query.limit });
    return envelope({ days: query.days, limit: query.limit, data: entries.map(presentLogEntry) });
  };
}
