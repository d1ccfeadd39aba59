import { describe, expect, it } from 'vitest';
import { createNotificationLog } from '../../../../functions/comment/notification-log.js';
import { tokenFor } from '../../../../functions/shared/auth/token.js';
import { createViewerResolver } from '../../../../functions/shared/auth/viewer.js';
import type { OutboxLogEntry } from '../../../../functions/shared/table/outbox-repository.js';
import { routeAnswer } from '../../../support/route-answer.js';
import { testAccount } from '../../../support/viewers.js';

const secret = 's'.repeat(40);
const now = 1_800_000_000_000;
const admin = testAccount({ id: '01ADMIN', email: 'admin@example.com', sessionVersion: 1 });
/** A guest's account: signed in, but no administrator. */
const guest = testAccount({ id: '01GUEST', email: 'guest@example.com', type: 'guest' });

/** An entry as a repository might hand it back, with fields the log must not pass on (mail, an address in an error). */
const entry = {
  eventId: '01KAAAAAAAAAAAAAAAAAAAAAAA',
  cause: 'comment.submitted',
  at: now - 60_000,
  state: 'failed',
  attempts: 2,
  lastError: 'parent: 550 recipient <ann@example.com> unavailable',
  subject: {
    url: '/posts/hello',
    id: '01KAAAAAAAAAAAAAAAAAAAAAAA',
    rid: '01ROOT',
    pid: '01ROOT',
    status: 'approved',
    byAdmin: false,
    mail: 'bob@example.com',
  },
  deliveries: [
    { recipient: 'owner', state: 'sent', attempts: 1, updatedAt: now - 50_000, mail: 'owner@example.com' },
    {
      recipient: 'parent',
      state: 'failed',
      attempts: 2,
      lastError: 'smtp: 550 <ann@example.com>: no such user',
      updatedAt: now - 40_000,
    },
  ],
  mail: 'bob@example.com',
} as unknown as OutboxLogEntry;

/**
 * The route over the real viewer (sign-in tokens checked with `secret`, the account looked up in a fake
 * with `admin` only) and a fake outbox that records each log request and answers `entries`.
 */
function logRoute(entries: OutboxLogEntry[] = [entry]) {
  const requests: Array<{ now: number; days: number; limit: number }> = [];
  const route = createNotificationLog({
    viewer: createViewerResolver({
      tokenSecret: async () => secret,
      now: () => now,
      accounts: { findById: async (id) => [admin, guest].find((account) => account.id === id) },
    }),
    outbox: {
      log: async (options) => {
        requests.push(options);
        return entries;
      },
    },
    now: () => now,
  });
  return { route, requests };
}

const adminHeader = async () => ({ authorization: `Bearer ${await tokenFor(secret, admin, now, 1)}` });
const get = async (query = '', headers?: Record<string, string>) => ({
  path: '/api/notification',
  query,
  headers: headers ?? (await adminHeader()),
});

describe('GET /api/notification', () => {
  it('answers the log for the last 7 days, at most 50, when no bounds are given', async () => {
    const { route, requests } = logRoute();

    const answer = await routeAnswer(route, await get());

    expect(answer.statusCode).toBe(200);
    expect(requests).toEqual([{ now, days: 7, limit: 50 }]);
    expect(answer.body).toMatchObject({ errno: 0, data: { days: 7, limit: 50 } });
  });

  it('presents each event with its comment and deliveries by recipient kind, and no address anywhere', async () => {
    const { route } = logRoute();

    const answer = await routeAnswer(route, await get('days=30&limit=200'));
    const json = JSON.stringify(answer.body);

    expect((answer.body as { data: { data: unknown[] } }).data.data).toEqual([
      {
        id: '01KAAAAAAAAAAAAAAAAAAAAAAA',
        cause: 'comment.submitted',
        at: now - 60_000,
        state: 'failed',
        attempts: 2,
        lastError: 'parent: 550 recipient <[address]> unavailable',
        comment: {
          url: '/posts/hello',
          id: '01KAAAAAAAAAAAAAAAAAAAAAAA',
          rid: '01ROOT',
          pid: '01ROOT',
          status: 'approved',
          byAdmin: false,
        },
        deliveries: [
          { recipient: 'owner', state: 'sent', attempts: 1, updatedAt: now - 50_000 },
          {
            recipient: 'parent',
            state: 'failed',
            attempts: 2,
            lastError: 'smtp: 550 <[address]>: no such user',
            updatedAt: now - 40_000,
          },
        ],
      },
    ]);
    expect(json).not.toMatch(/mail/i);
    expect(json).not.toContain('@');
  });

  it('presents a test event, which is about no comment, without one', async () => {
    const test = { ...entry, cause: 'test', subject: undefined, lastError: undefined, deliveries: [] };
    const { route } = logRoute([test as OutboxLogEntry]);

    const answer = await routeAnswer(route, await get());

    expect((answer.body as { data: { data: unknown[] } }).data.data).toEqual([
      { id: entry.eventId, cause: 'test', at: entry.at, state: 'failed', attempts: 2, deliveries: [] },
    ]);
  });

  it.each([
    ['days=0', 'days'],
    ['days=31', 'days'],
    ['days=1.5', 'days'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=many', 'limit'],
    ['days=1&days=2', 'days'],
  ])('refuses %s with a 400 naming %s, and reads nothing', async (query, field) => {
    const { route, requests } = logRoute();

    const answer = await routeAnswer(route, await get(query));

    expect(answer.statusCode).toBe(400);
    expect((answer.body as { details: Record<string, string> }).details).toHaveProperty(field);
    expect(requests).toEqual([]);
  });

  it("refuses anonymous callers, revoked tokens and a guest's token with a 401, and reads nothing", async () => {
    const { route, requests } = logRoute();
    const gone = await tokenFor(secret, { id: '01GONE', sessionVersion: 0 }, now, 1);
    const revoked = await tokenFor(secret, { id: admin.id, sessionVersion: 0 }, now, 1);
    const forged = await tokenFor('f'.repeat(40), admin, now, 1);
    const guests = await tokenFor(secret, guest, now, 1);

    const answers = await Promise.all(
      [
        {} as Record<string, string>,
        { authorization: 'Bearer undefined' },
        ...[gone, revoked, forged, guests].map((t) => ({ authorization: `Bearer ${t}` })),
      ].map(async (headers) => routeAnswer(route, await get('', headers))),
    );

    expect(answers.map((answer) => answer.statusCode)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(requests).toEqual([]);
  });
});
