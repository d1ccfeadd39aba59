import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAddressHasher } from '../../../../functions/shared/notify/address-hash.js';
import { createModerationRepository } from '../../../../functions/shared/table/moderation-repository.js';
import { createTestTable, type TestTable } from '../../../support/test-table.js';
import { streamEvent } from '../../../unit/functions/notify/lambda-events.js';
import { createNotifier, newId } from './notify-fixture.js';

/** The keyed address hash under the test configuration's salt (test/support/test-config.ts). */
const addressHash = createAddressHasher('test-salt-0123456789abcdef');

describe('the notifier on DynamoDB Local', () => {
  let table: TestTable;
  let notifier: ReturnType<typeof createNotifier>;

  beforeAll(async () => {
    table = await createTestTable();
  });
  // Each test its own channels (and clock) over the one table: nothing one test fails leaks into another.
  beforeEach(() => {
    notifier = createNotifier(table, { NOTIFY_CAP_PER_HOUR: '2', NOTIFY_CAP_PER_DAY: '10' });
  });
  afterAll(() => table.drop());

  it('sends an event once to each recipient, even when the stream delivers it twice or at once', async () => {
    const { replyId, eventId } = await notifier.rootAndReply('twice@example.com', 'zh-CN');

    const [first, concurrent] = await Promise.all([notifier.deliver(eventId), notifier.deliver(eventId)]);
    const again = await notifier.deliver(eventId);

    expect([first, concurrent, again]).toEqual([
      { batchItemFailures: [] },
      { batchItemFailures: [] },
      { batchItemFailures: [] },
    ]);
    const mine = notifier.sent.filter((notice) => notice.eventId === eventId);
    expect(mine.map((notice) => notice.recipient).sort()).toEqual(['owner', 'parent', 'webhook']);
    expect(mine.find((notice) => notice.recipient === 'parent')).toMatchObject({
      template: 'reply',
      lang: 'zh-CN',
      to: 'twice@example.com',
      self: { id: replyId },
    });
    expect(await notifier.deliveryItem(eventId, 'parent')).toMatchObject({
      entity: 'delivery',
      state: 'sent',
      attempts: 1,
    });
    expect(await notifier.eventItem(eventId)).toMatchObject({ state: 'sent', attempts: 1 });
  });

  it('never sends again after a recorded send, though the event was left pending (a sender died before finishing it)', async () => {
    const { eventId } = await notifier.rootAndReply('crash@example.com');
    await notifier.deliver(eventId);
    const sentBefore = notifier.sent.length;

    expect(await notifier.dependencies.outbox.redrive(eventId, Date.now())).toBe(false);
    // As if the sender had died after recording its sends, before recording the event.
    await notifier.dependencies.deliveries.finishEvent(
      eventId,
      { state: 'failed', lastError: 'died' },
      Date.now(),
    );
    expect(await notifier.dependencies.outbox.redrive(eventId, Date.now())).toBe(true);
    const answer = await notifier.deliver(eventId, 'MODIFY');

    expect(answer).toEqual({ batchItemFailures: [] });
    expect(notifier.sent.length).toBe(sentBefore);
    expect(await notifier.eventItem(eventId)).toMatchObject({ state: 'sent' });
  });

  it('records a failing channel failed with its next try, completes the stream record, and sends it once re-driven by hand', async () => {
    const { eventId } = await notifier.rootAndReply('flaky@example.com');
    notifier.failing.set('parent', '421 flaky@example.com: try again later');

    // Lambda may hand over the record it was given again: the event as written, pending.
    const record = await notifier.recordOf(eventId);
    const failed = await notifier.handler(streamEvent(record));
    const again = await notifier.handler(streamEvent(record));
    const fromNowOn = await notifier.deliver(eventId, 'MODIFY');

    // The failure is the delivery's own (it waits for its retry): the stream's record is done.
    expect(failed.batchItemFailures).toEqual([]);
    expect(again.batchItemFailures).toEqual([]);
    // The sender's own write (failed) passes no filter: it wakes nobody.
    expect(fromNowOn).toEqual({ batchItemFailures: [] });
    const delivery = await notifier.deliveryItem(eventId, 'parent');
    // The second hand-over found the delivery not yet due: one attempt.
    expect(delivery).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: '421 <address>: try again later',
      retryAt: expect.any(Number),
    });
    expect(delivery).not.toHaveProperty('leaseUntil');
    expect(await notifier.eventItem(eventId)).toMatchObject({
      state: 'failed',
      attempts: 2,
      lastError: 'parent: 421 <address>: try again later',
      retryAt: delivery?.retryAt,
    });

    notifier.failing.clear();
    expect(await notifier.dependencies.outbox.redrive(eventId, Date.now())).toBe(true);
    expect(await notifier.eventItem(eventId)).toMatchObject({ state: 'pending', byHand: true });
    const redriven = await notifier.deliver(eventId, 'MODIFY');

    expect(redriven).toEqual({ batchItemFailures: [] });
    expect(notifier.to('parent').filter((notice) => notice.eventId === eventId)).toHaveLength(1);
    expect(notifier.to('owner').filter((notice) => notice.eventId === eventId)).toHaveLength(1);
    expect(await notifier.deliveryItem(eventId, 'parent')).toMatchObject({ state: 'sent', attempts: 2 });
    const event = await notifier.eventItem(eventId);
    expect(event).toMatchObject({ state: 'sent', attempts: 3 });
    for (const gone of ['lastError', 'retryAt', 'byHand']) expect(event).not.toHaveProperty(gone);
  });

  it('stops the reply mail past the cap of one address, and tells the owner still', async () => {
    const parentId = newId();
    await notifier.store({ id: parentId, mail: 'Popular@example.com' });
    const events: string[] = [];
    for (let reply = 0; reply < 3; reply += 1) {
      events.push(
        await notifier.store({ id: newId(), rid: parentId, pid: parentId, mail: `fan${reply}@example.com` }),
      );
    }

    for (const eventId of events) await notifier.deliver(eventId);

    const toParent = notifier.to('parent').filter((notice) => events.includes(notice.eventId));
    expect(toParent.map((notice) => notice.eventId)).toEqual(events.slice(0, 2));
    expect(await notifier.deliveryItem(events[2]!, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'capped (2 an hour, 10 a day)',
    });
    expect(notifier.to('owner').filter((notice) => events.includes(notice.eventId))).toHaveLength(3);
  });

  it('sends nothing to an address suppressed from the site, or from the thread', async () => {
    await notifier.dependencies.outbox.suppress(
      addressHash('left@example.com'),
      { kind: 'site' },
      'unsubscribe',
      1,
    );
    const siteWide = await notifier.rootAndReply('Left@example.com');
    const thread = await notifier.rootAndReply('muted@example.com');
    await notifier.dependencies.outbox.suppress(
      addressHash('muted@example.com'),
      { kind: 'thread', rootId: thread.rootId },
      'unsubscribe',
      1,
    );
    const otherThread = await notifier.rootAndReply('muted@example.com');

    for (const { eventId } of [siteWide, thread, otherThread]) await notifier.deliver(eventId);

    const reached = notifier.to('parent').map((notice) => notice.eventId);
    expect(reached).not.toContain(siteWide.eventId);
    expect(reached).not.toContain(thread.eventId);
    expect(reached).toContain(otherThread.eventId);
    expect(await notifier.deliveryItem(siteWide.eventId, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'suppressed (the whole site)',
    });
    expect(await notifier.deliveryItem(thread.eventId, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'suppressed (this thread)',
    });
  });

  it('tells the owner of a held reply (read at its held place), and its parent once it is approved', async () => {
    const rootId = newId();
    await notifier.store({ id: rootId, mail: 'asker@example.com' });
    const replyId = newId();
    const submitted = await notifier.store({
      id: replyId,
      rid: rootId,
      pid: rootId,
      status: 'waiting',
      mail: 'held@example.com',
    });
    await notifier.deliver(submitted);

    const moderation = createModerationRepository(notifier.client, table.tableName);
    const held = await moderation.get({ url: '/post', id: replyId, rid: rootId });
    expect(await moderation.moderate(held!, { status: 'approved' })).toBe(true);
    const log = await notifier.dependencies.outbox.log({ now: Date.now(), days: 1, limit: 50 });
    const approval = log.find((entry) => entry.cause === 'comment.approved' && entry.subject?.id === replyId);
    await notifier.deliver(approval!.eventId);

    expect(
      notifier.sent
        .filter((notice) => notice.eventId === submitted)
        .map((notice) => [notice.recipient, notice.template]),
    ).toEqual(
      expect.arrayContaining([
        ['owner', 'owner-waiting'],
        ['webhook', 'owner-waiting'],
      ]),
    );
    expect(notifier.to('parent').filter((notice) => notice.self?.id === replyId)).toEqual([
      expect.objectContaining({ eventId: approval!.eventId, to: 'asker@example.com', template: 'reply' }),
    ]);
  });

  it('tells the parent of a reply once, however often it is approved again after going back to waiting', async () => {
    const rootId = newId();
    await notifier.store({ id: rootId, mail: 'asked-once@example.com' });
    const heldId = newId();
    await notifier.store({
      id: heldId,
      rid: rootId,
      pid: rootId,
      status: 'waiting',
      mail: 'held@example.com',
    });
    const approvedId = newId();
    const approvedEvent = await notifier.store({
      id: approvedId,
      rid: rootId,
      pid: rootId,
      mail: 'approved@example.com',
    });
    const moderation = createModerationRepository(notifier.client, table.tableName);
    /** Reads the reply as moderation does, then changes its status (as /ui or a mail's link does). */
    const setStatus = async (id: string, status: 'approved' | 'waiting') => {
      const current = await moderation.get({ url: '/post', id, rid: rootId });
      expect(await moderation.moderate(current!, { status })).toBe(true);
    };

    for (const id of [heldId, approvedId]) {
      if (id === heldId) await setStatus(id, 'approved');
      await setStatus(id, 'waiting');
      await setStatus(id, 'approved');
      await setStatus(id, 'waiting');
      await setStatus(id, 'approved');
    }
    // The table is shared with the other tests: only this test's replies.
    const approvals = (await notifier.outboxItems()).filter(
      (item) =>
        item.cause === 'comment.approved' &&
        [heldId, approvedId].includes((item.subject as { id: string }).id),
    );
    for (const item of approvals) await notifier.deliver(String(item.eventId));
    await notifier.deliver(approvedEvent);

    expect(approvals.map((item) => (item.subject as { id: string }).id)).toEqual([heldId]);
    expect(notifier.to('parent').map((notice) => [notice.self?.id, notice.to])).toEqual(
      expect.arrayContaining([
        [heldId, 'asked-once@example.com'],
        [approvedId, 'asked-once@example.com'],
      ]),
    );
    expect(notifier.to('parent')).toHaveLength(2);
  });

  it('skips the event of a comment deleted before it was sent', async () => {
    const rootId = newId();
    const eventId = await notifier.store({ id: rootId });
    const moderation = createModerationRepository(notifier.client, table.tableName);
    expect(await moderation.remove({ url: '/post', id: rootId })).toBe(1);

    await notifier.deliver(eventId);

    expect(notifier.sent.filter((notice) => notice.eventId === eventId)).toEqual([]);
    expect(await notifier.eventItem(eventId)).toMatchObject({
      state: 'skipped',
      lastError: 'the comment was deleted',
    });
  });

  it('keeps no address in any outbox item: sent, failed with an error naming it, or skipped', async () => {
    const sent = await notifier.rootAndReply('kept@example.com');
    const failed = await notifier.rootAndReply('bounced@example.com');
    const own = await notifier.rootAndReply('self@example.com');
    const ownReply = await notifier.store({
      id: newId(),
      rid: own.rootId,
      pid: own.rootId,
      mail: 'SELF@example.com',
    });
    await notifier.deliver(sent.eventId);
    await notifier.deliver(ownReply);
    notifier.failing.set('parent', 'mailbox bounced@example.com is full (bounced%40example.com)');
    await notifier.deliver(failed.eventId);

    const items = await notifier.outboxItems();
    const mine = items.filter((item) =>
      [sent.eventId, failed.eventId, ownReply].includes(String(item.eventId)),
    );

    expect(mine.map((item) => item.state)).toEqual(expect.arrayContaining(['sent', 'failed', 'skipped']));
    expect(JSON.stringify(items)).not.toContain('@');
    expect(JSON.stringify(items)).not.toContain('%40');
  });
});
