import { describe, expect, it } from 'vitest';
import { createNotificationAction } from '../../../../functions/comment/notification-action.js';
import type { EventSpec } from '../../../support/http-event.js';
import { routeAnswer } from '../../../support/route-answer.js';
import { testViewer } from '../../../support/viewers.js';

const now = 1_800_000_000_000;
const adminToken = 'Bearer admin-token';
const eventId = '01KAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * The route over fakes: the viewer knows one token; the outbox records each call, and `redrive` answers
 * true only for the ids in `redrivable`.
 */
function actionRoute(redrivable: readonly string[] = [eventId]) {
  const calls: string[] = [];
  const route = createNotificationAction({
    viewer: async (authorization) =>
      authorization === adminToken ? testViewer('01ADMIN', 'admin@example.com') : undefined,
    outbox: {
      enqueueTest: async (id, at) => {
        calls.push(`test ${id} ${at}`);
      },
      redrive: async (id, at) => {
        calls.push(`redrive ${id} ${at}`);
        return redrivable.includes(id);
      },
    },
    now: () => now,
    newId: (time) => `01NEW${time}`,
  });
  return { route, calls };
}

/** A POST of `body`, as the administrator, as someone else, or (null) with no Authorization header. */
const post = (body: unknown, authorization: string | null = adminToken): EventSpec => ({
  method: 'POST',
  path: '/api/notification',
  body,
  headers: authorization === null ? {} : { authorization },
});

interface Failure {
  errno: number;
  errmsg: string;
  details?: Record<string, string>;
}

describe('POST /api/notification', () => {
  it('writes a test event with a new id at the time of the request, and answers its id', async () => {
    const { route, calls } = actionRoute();

    const answer = await routeAnswer(route, post({ action: 'test' }));

    expect(answer).toEqual({ statusCode: 200, body: { errno: 0, errmsg: '', data: { id: `01NEW${now}` } } });
    expect(calls).toEqual([`test 01NEW${now} ${now}`]);
  });

  it('re-drives the event it names, and answers its id', async () => {
    const { route, calls } = actionRoute();

    const answer = await routeAnswer(route, post({ action: 'redrive', id: eventId }));

    expect(answer).toEqual({ statusCode: 200, body: { errno: 0, errmsg: '', data: { id: eventId } } });
    expect(calls).toEqual([`redrive ${eventId} ${now}`]);
  });

  it('answers 404 when there is no such event, or it was sent', async () => {
    const { route } = actionRoute([]);

    const answer = await routeAnswer(route, post({ action: 'redrive', id: eventId }));

    expect(answer.statusCode).toBe(404);
    expect((answer.body as Failure).errmsg).toContain(eventId);
  });

  it.each([
    [{ action: 'redrive', id: 'not-an-id' }, 'id', 'must be a notification id'],
    [{ action: 'redrive', id: '81KAAAAAAAAAAAAAAAAAAAAAAA' }, 'id', 'must be a notification id'],
    [{ action: 'redrive' }, 'id', 'expected string'],
    [{ action: 'resend' }, 'action', "Expected 'test' | 'redrive'"],
    [{}, 'action', "Expected 'test' | 'redrive'"],
    [['test'], 'body', 'expected object'],
  ])('refuses %j with a 400 naming %s and its rule, and writes nothing', async (body, field, rule) => {
    const { route, calls } = actionRoute();

    const answer = await routeAnswer(route, post(body));

    expect(answer.statusCode).toBe(400);
    expect((answer.body as Failure).details?.[field]).toContain(rule);
    expect(calls).toEqual([]);
  });

  it('refuses anyone but an administrator with a 401, before reading the body', async () => {
    const { route, calls } = actionRoute();

    const anonymous = await routeAnswer(route, post({ action: 'test' }, null));
    const stranger = await routeAnswer(route, post({ action: 'redrive', id: eventId }, 'Bearer someone'));

    expect([anonymous.statusCode, stranger.statusCode]).toEqual([401, 401]);
    expect(calls).toEqual([]);
  });
});
