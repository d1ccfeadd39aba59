import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { passesOutboxFilter } from '../../../../functions/notify/stream-settings.js';
import { createTestTable, type TestTable } from '../../../support/test-table.js';
import { scheduledEvent } from '../../../unit/functions/notify/lambda-events.js';
import { createNotifier } from './notify-fixture.js';

describe('the sweep on DynamoDB Local', () => {
  let table: TestTable;
  let notifier: ReturnType<typeof createNotifier>;

  // A table per test: the sweep takes every event of the table it finds.
  beforeEach(async () => {
    table = await createTestTable();
    notifier = createNotifier(table);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await table.drop();
  });

  it('leaves a pending event to the stream for five minutes, then hands it back to the stream, which sends it', async () => {
    const missed = await notifier.rootAndReply('missed@example.com');
    notifier.clock.offsetMs = 4 * 60_000;

    const early = await notifier.handler(scheduledEvent);
    const leftAlone = await notifier.eventItem(missed.eventId);
    notifier.clock.offsetMs = 6 * 60_000;
    const sweptAt = Date.now() + notifier.clock.offsetMs;
    await notifier.handler(scheduledEvent);
    const swept = await notifier.eventItem(missed.eventId);

    expect(early).toBeUndefined();
    expect(leftAlone).toMatchObject({ state: 'pending', attempts: 0 });
    expect(leftAlone).not.toHaveProperty('sweeps');
    // The sweep processed nothing itself (the stream would have run it at the same time): it set the event back
    // to pending, which the stream's filter passes, and counted the sweep.
    expect(notifier.sent).toEqual([]);
    expect(await notifier.deliveryItem(missed.eventId, 'owner')).toBeUndefined();
    expect(swept).toMatchObject({ state: 'pending', attempts: 0, sweeps: 1 });
    expect(swept?.updatedAt).toBeGreaterThanOrEqual(sweptAt);
    expect(passesOutboxFilter(await notifier.recordOf(missed.eventId, 'MODIFY'))).toBe(true);

    await notifier.deliver(missed.eventId, 'MODIFY');

    const ofReply = notifier.sent.filter((notice) => notice.eventId === missed.eventId);
    expect(ofReply.map((notice) => notice.recipient).sort()).toEqual(['owner', 'parent', 'webhook']);
    expect(await notifier.eventItem(missed.eventId)).toMatchObject({ state: 'sent', attempts: 1, sweeps: 1 });
  });

  it('re-drives a failed event once its delivery is due, and the stream sends only what had failed', async () => {
    const broken = await notifier.rootAndReply('broken@example.com');
    notifier.failing.set('parent', 'refused');
    await notifier.deliver(broken.eventId);
    notifier.failing.clear();

    await notifier.handler(scheduledEvent);
    const early = await notifier.eventItem(broken.eventId);
    notifier.clock.offsetMs = 2 * 60_000;
    await notifier.handler(scheduledEvent);
    await notifier.deliver(broken.eventId, 'MODIFY');
    await notifier.handler(scheduledEvent);

    expect(early).toMatchObject({ state: 'failed', retryAt: expect.any(Number) });
    expect(early).not.toHaveProperty('sweeps');
    expect(notifier.to('parent').map((notice) => notice.eventId)).toEqual([broken.eventId]);
    expect(notifier.to('owner').map((notice) => notice.eventId)).toEqual([broken.eventId]);
    expect(await notifier.eventItem(broken.eventId)).toMatchObject({ state: 'sent', attempts: 2, sweeps: 1 });
  });

  it('gives a delivery that keeps failing up after six attempts over its schedule, and sweeps it no more', async () => {
    const { eventId } = await notifier.rootAndReply('never@example.com');
    notifier.failing.set('parent', 'refused');
    await notifier.deliver(eventId);

    // Each sweep as the next retry comes due (2, 10, 30, 60 and 120 minutes apart), then the stream's record
    // of what it wrote; then sweeps long after.
    for (const minutes of [2, 12, 42, 102, 222, 600, 900]) {
      notifier.clock.offsetMs = minutes * 60_000;
      await notifier.handler(scheduledEvent);
      await notifier.deliver(eventId, 'MODIFY');
    }

    expect(await notifier.deliveryItem(eventId, 'parent')).toMatchObject({
      state: 'failed',
      attempts: 6,
      gaveUp: true,
    });
    expect(await notifier.eventItem(eventId)).toMatchObject({ state: 'failed', sweeps: 5, gaveUp: true });
    expect(await notifier.eventItem(eventId)).not.toHaveProperty('retryAt');
  });

  it('sets back no event once less than 25 s is left of its invocation', async () => {
    const { eventId } = await notifier.rootAndReply('late@example.com');
    notifier.failing.set('parent', 'refused');
    await notifier.deliver(eventId);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    notifier.clock.offsetMs = 2 * 60_000;

    await notifier.handler(scheduledEvent, { getRemainingTimeInMillis: () => 24_000 });

    expect(await notifier.eventItem(eventId)).toMatchObject({ state: 'failed', attempts: 1 });
    expect(await notifier.eventItem(eventId)).not.toHaveProperty('sweeps');
  });
});
