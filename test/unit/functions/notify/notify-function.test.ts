import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotifyDependencies } from '../../../../functions/notify/dependencies.js';
import type { OwnerDigest } from '../../../../functions/notify/channels/owner-digest-channel.js';
import type { Notice } from '../../../../functions/notify/notice.js';
import { loadNotifyConfig } from '../../../../functions/notify/notify-config.js';
import { createNotifyFunction } from '../../../../functions/notify/notify-function.js';
import {
  createAddressHasher,
  createFormerAddressHasher,
} from '../../../../functions/shared/notify/address-hash.js';
import { keys } from '../../../../functions/shared/table/keys.js';
import { type OutboxEvent, outboxEventItem } from '../../../../functions/shared/table/outbox-event.js';
import { testConfig } from '../../../support/test-config.js';
import { createFakeOwnerMailHours, createFakeSiteMailCaps } from './fake-mail-caps.js';
import { createFakeNotifyStore, notifiedComment } from './fake-notify-store.js';
import { scheduledEvent, snsEvent, streamEvent, streamRecord } from './lambda-events.js';

/** The keyed address hash under the test configuration's salt (test/support/test-config.ts). */
const addressHash = createAddressHasher('test-salt-0123456789abcdef');

const start = Date.parse('2026-11-25T17:00:00Z');

function setUp() {
  const fake = createFakeNotifyStore();
  const sent: Notice[] = [];
  let parentFails = false;
  const record = async (notice: Notice) => {
    sent.push(notice);
  };
  const outbox = {
    log: vi.fn(),
    redrive: vi.fn(),
    enqueueTest: vi.fn(),
    suppress: vi.fn(async () => undefined),
  };
  const ownerHours = createFakeOwnerMailHours(10);
  const digests: OwnerDigest[] = [];
  const dependencies: NotifyDependencies = {
    config: testConfig(),
    // Readers' mail as it was before confirmations: these tests are about the stream, the sweep and SNS.
    notify: loadNotifyConfig({ AUTHOR_EMAIL: 'owner@example.com', REPLY_MAIL: 'all' }),
    deliveries: fake.store,
    guards: fake.guards,
    siteMailCaps: createFakeSiteMailCaps({ perHour: 50, perDay: 200, domainPerHour: 20 }).caps,
    ownerMailHours: ownerHours.store,
    ownerDigestMail: async (digest) => void digests.push(digest),
    confirmations: fake.confirmations,
    readComments: fake.readComments,
    outbox,
    channels: {
      owner: record,
      parent: async (notice) => {
        if (parentFails || notice.to === 'unavailable@example.com') throw new Error('mailbox unavailable');
        await record(notice);
      },
    },
    now: () => start,
    formerHashAddress: createFormerAddressHasher(testConfig().IP_HASH_SALT),
    hashAddress: addressHash,
  };
  return {
    fake,
    sent,
    outbox,
    ownerHours,
    digests,
    handler: createNotifyFunction(dependencies),
    failParent: () => (parentFails = true),
  };
}

/** An approved reply to a root by another reader, stored with its event (pending). */
function reply(fake: ReturnType<typeof createFakeNotifyStore>, id: string): OutboxEvent {
  const rootId = `${id}R`;
  fake.comments.set(rootId, notifiedComment({ id: rootId, mail: 'parent@example.com' }));
  fake.comments.set(id, notifiedComment({ id, rid: rootId, pid: rootId }));
  const event: OutboxEvent = {
    id,
    cause: 'comment.submitted',
    at: start,
    subject: { url: '/post', id, rid: rootId, pid: rootId, status: 'approved', byAdmin: false },
  };
  fake.addEvent(event);
  return event;
}

describe('createNotifyFunction', () => {
  afterEach(() => vi.restoreAllMocks());

  it('processes the outbox records of a stream batch and answers none failed for a failed delivery: it has its own retry', async () => {
    const { fake, sent, handler } = setUp();
    const ok = reply(fake, '01KAZ00000000000000000000A');
    const failing = reply(fake, '01KAZ00000000000000000000B');
    fake.comments.set(
      `${failing.id}R`,
      notifiedComment({ id: `${failing.id}R`, mail: 'unavailable@example.com' }),
    );
    const delivery = {
      ...keys.delivery(ok.id, 'owner'),
      entity: 'delivery',
      eventId: ok.id,
      state: 'failed',
    };
    const finished = { ...outboxEventItem(ok), state: 'sent' };
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    const answer = await handler(
      streamEvent(
        streamRecord(outboxEventItem(ok), '100'),
        streamRecord(outboxEventItem(failing), '200'),
        streamRecord(delivery, '300', 'MODIFY'),
        streamRecord(finished, '400', 'MODIFY'),
      ),
    );

    // A failed delivery does not hold the record in the stream's retries (and every record behind it).
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(sent.map((notice) => [notice.eventId, notice.recipient]).sort()).toEqual([
      [ok.id, 'owner'],
      [ok.id, 'parent'],
      [failing.id, 'owner'],
    ]);
    expect(fake.events.get(ok.id)).toMatchObject({ state: 'sent', attempts: 1 });
    expect(fake.events.get(failing.id)).toMatchObject({
      state: 'failed',
      lastError: 'parent: mailbox unavailable',
      retryAt: expect.any(Number),
    });
    expect(log).not.toHaveBeenCalled();
  });

  it('answers a record whose processing threw as failed, logging the event id', async () => {
    const { fake, handler } = setUp();
    const event = reply(fake, '01KAZ00000000000000000000C');
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(fake.store, 'getEvent').mockRejectedValueOnce(new Error('ProvisionedThroughputExceeded'));

    const answer = await handler(streamEvent(streamRecord(outboxEventItem(event), '7')));

    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '7' }] });
    expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toMatchObject({
      message: 'An outbox event could not be processed',
      eventId: event.id,
      error: 'ProvisionedThroughputExceeded',
    });
  });

  it('processes a re-driven event (set back to pending) and ignores records the filter would drop', async () => {
    const { fake, sent, handler } = setUp();
    const event = reply(fake, '01KAZ00000000000000000000D');

    const ignored = await handler(
      streamEvent(
        streamRecord({ ...outboxEventItem(event), state: 'failed' }, '1', 'MODIFY'),
        streamRecord(outboxEventItem(event), '2', 'REMOVE'),
        streamRecord({ ...outboxEventItem(event), entity: 'comment' }, '3'),
      ),
    );
    const redriven = await handler(
      streamEvent(streamRecord({ ...outboxEventItem(event), updatedAt: start }, '4', 'MODIFY')),
    );

    expect(ignored).toEqual({ batchItemFailures: [] });
    expect(redriven).toEqual({ batchItemFailures: [] });
    expect(sent.map((notice) => notice.recipient)).toEqual(['owner', 'parent']);
  });

  it('answers an empty batch with no failures', async () => {
    const { handler } = setUp();
    expect(await handler(streamEvent())).toEqual({ batchItemFailures: [] });
  });

  it('sweeps on the schedule: a pending event the stream missed goes back to the stream, which sends it', async () => {
    const { fake, sent, handler } = setUp();
    const event = reply(fake, '01KAZ00000000000000000000E');
    fake.events.set(event.id, { ...fake.events.get(event.id)!, at: start - 10 * 60_000 });

    const answer = await handler(scheduledEvent, { getRemainingTimeInMillis: () => 60_000 });

    // Set back to pending, its sweep counted; nothing is processed beside the stream.
    expect(answer).toBeUndefined();
    expect(sent).toEqual([]);
    expect(fake.deliveries.size).toBe(0);
    expect(fake.events.get(event.id)).toMatchObject({ state: 'pending', updatedAt: start, sweeps: 1 });

    // The write is a MODIFY into pending: the stream's filter passes it, and the stream sends it.
    const item = { ...outboxEventItem(event), ...fake.events.get(event.id) };
    expect(await handler(streamEvent(streamRecord(item, '1', 'MODIFY')))).toEqual({ batchItemFailures: [] });
    expect(sent.map((notice) => notice.recipient)).toEqual(['owner', 'parent']);
    expect(fake.events.get(event.id)).toMatchObject({ state: 'sent', sweeps: 1 });
  });

  it("sends the owner's digest of the past hour on a schedule, after the sweep", async () => {
    const { ownerHours, digests, handler } = setUp();
    for (let mail = 0; mail < 13; mail += 1) await ownerHours.store.take(start - 30 * 60_000);

    await handler(scheduledEvent, { getRemainingTimeInMillis: () => 60_000 });

    expect(digests).toEqual([{ hour: '2026-11-25T16', count: 3 }]);
    expect(ownerHours.hours.get('2026-11-25T16')).toMatchObject({ sentAt: start });
  });

  it('gives the sweep the invocation’s time left: short of 25 s it sets nothing back, and logs what it left', async () => {
    const { fake, handler } = setUp();
    const event = reply(fake, '01KAZ00000000000000000000F');
    fake.events.set(event.id, { ...fake.events.get(event.id)!, state: 'failed' });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    await handler(scheduledEvent, { getRemainingTimeInMillis: () => 20_000 });

    expect(fake.events.get(event.id)).toMatchObject({ state: 'failed' });
    expect(fake.events.get(event.id)).not.toHaveProperty('sweeps');
    expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toMatchObject({
      message: 'The sweep ran short of time; the next run takes the rest',
      redriven: 0,
      deferred: 1,
    });
  });

  it('turns SES feedback from SNS into suppressions', async () => {
    const { outbox, handler } = setUp();
    const message = {
      eventType: 'Bounce',
      bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: 'gone@example.com' }] },
    };

    const answer = await handler(snsEvent(message));

    expect(answer).toBeUndefined();
    expect(outbox.suppress).toHaveBeenCalledWith(
      addressHash('gone@example.com'),
      { kind: 'site' },
      'bounce',
      start,
    );
  });

  it('refuses an event it does not know', async () => {
    const { handler } = setUp();
    await expect(handler({ source: 'aws.s3' } as never)).rejects.toThrow('does not know');
  });
});
