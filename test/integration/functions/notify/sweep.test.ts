import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
  afterEach(() => table.drop());

  it('leaves a pending event to the stream for five minutes, then sends it', async () => {
    const missed = await notifier.rootAndReply('missed@example.com');
    notifier.clock.offsetMs = 4 * 60_000;

    const early = await notifier.handler(scheduledEvent);
    const leftAlone = await notifier.eventItem(missed.eventId);
    notifier.clock.offsetMs = 6 * 60_000;
    await notifier.handler(scheduledEvent);

    expect(early).toBeUndefined();
    expect(leftAlone).toMatchObject({ state: 'pending', attempts: 0 });
    expect(leftAlone).not.toHaveProperty('sweeps');
    const ofReply = notifier.sent.filter((notice) => notice.eventId === missed.eventId);
    expect(ofReply.map((notice) => notice.recipient).sort()).toEqual(['owner', 'parent', 'webhook']);
    expect(await notifier.eventItem(missed.eventId)).toMatchObject({ state: 'sent', attempts: 1, sweeps: 1 });
  });

  it('re-drives a failed event at once, sending only what had failed', async () => {
    const broken = await notifier.rootAndReply('broken@example.com');
    notifier.failing.set('parent', 'refused');
    await notifier.deliver(broken.eventId);
    notifier.failing.clear();

    await notifier.handler(scheduledEvent);
    await notifier.handler(scheduledEvent);

    expect(notifier.to('parent').map((notice) => notice.eventId)).toEqual([broken.eventId]);
    expect(notifier.to('owner').map((notice) => notice.eventId)).toEqual([broken.eventId]);
    expect(await notifier.eventItem(broken.eventId)).toMatchObject({ state: 'sent', attempts: 2, sweeps: 1 });
  });

  it('stops sweeping an event that keeps failing after five sweeps', async () => {
    const { eventId } = await notifier.rootAndReply('never@example.com');
    notifier.failing.set('parent', 'refused');
    await notifier.deliver(eventId);
    notifier.clock.offsetMs = 0;

    for (let sweep = 0; sweep < 7; sweep += 1) await notifier.handler(scheduledEvent);
    notifier.failing.clear();

    expect(await notifier.eventItem(eventId)).toMatchObject({ state: 'failed', sweeps: 5, attempts: 6 });
  });
});
