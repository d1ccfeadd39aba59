import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passesOutboxFilter } from '../../../../functions/notify/stream-settings.js';
import { createDocumentClient } from '../../../../functions/shared/storage/client.js';
import { createDeliveryStore } from '../../../../functions/shared/storage/delivery-store.js';
import { keys } from '../../../../functions/shared/storage/keys.js';
import { createOutboxRepository } from '../../../../functions/shared/storage/outbox-repository.js';
import { createTestTable, type TestTable } from '../../../support/test-table.js';

describe('createDeliveryStore on DynamoDB Local', () => {
  let table: TestTable;
  let client: ReturnType<typeof createDocumentClient>;
  let store: ReturnType<typeof createDeliveryStore>;
  let outbox: ReturnType<typeof createOutboxRepository>;
  const now = Date.parse('2026-11-25T12:00:00Z');
  const get = async (key: ReturnType<typeof keys.delivery>) =>
    (await client.send(new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }))).Item;

  beforeAll(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
    store = createDeliveryStore(client, table.tableName);
    outbox = createOutboxRepository(client, table.tableName);
  });
  afterAll(() => table.drop());

  it('answers a refused claim with the state that refused it', async () => {
    const eventId = ulid(now);

    const first = await store.claim(eventId, 'owner', { at: now, leaseMs: 1000 });
    const whileHeld = await store.claim(eventId, 'owner', { at: now + 500, leaseMs: 1000 });
    await store.record(eventId, 'owner', { state: 'sent' }, now + 600);
    const afterSend = await store.claim(eventId, 'owner', { at: now + 5000, leaseMs: 1000 });
    await store.record(eventId, 'webhook', { state: 'skipped', lastError: 'no' }, now);
    const afterSkip = await store.claim(eventId, 'webhook', { at: now, leaseMs: 1000 });

    expect([first, whileHeld, afterSend, afterSkip]).toEqual([
      { claimed: true, attempts: 1, counted: false },
      { claimed: false, state: 'sending' },
      { claimed: false, state: 'sent' },
      { claimed: false, state: 'skipped' },
    ]);
    expect(await get(keys.delivery(eventId, 'owner'))).toEqual({
      ...keys.delivery(eventId, 'owner'),
      entity: 'delivery',
      eventId,
      recipient: 'owner',
      state: 'sent',
      attempts: 1,
      updatedAt: now + 600,
      expiresAt: Math.ceil(now / 1000) + 30 * 86_400,
    });
  });

  it('never records a failure over a send, and keeps what a failure took of the caps', async () => {
    const eventId = ulid(now);
    await store.claim(eventId, 'parent', { at: now, leaseMs: 10 });
    await store.record(eventId, 'parent', { state: 'failed', lastError: 'timeout', counted: true }, now + 1);
    const retry = await store.claim(eventId, 'parent', { at: now + 2, leaseMs: 10 });
    await store.record(eventId, 'parent', { state: 'sent' }, now + 3);
    // A sender whose lease ran out finishes late, with a failure.
    await store.record(eventId, 'parent', { state: 'failed', lastError: 'late' }, now + 4);

    expect(retry).toEqual({ claimed: true, attempts: 2, counted: true });
    expect(await get(keys.delivery(eventId, 'parent'))).toMatchObject({ state: 'sent', updatedAt: now + 3 });
    expect(await get(keys.delivery(eventId, 'parent'))).not.toHaveProperty('lastError');
  });

  it('finishes no event that does not exist (expired), making no item', async () => {
    const eventId = ulid(now);

    await store.finishEvent(eventId, { state: 'sent' }, now);

    expect(await store.getEvent(eventId)).toBeUndefined();
    expect(await store.redriveBySweep(eventId, now)).toBe(false);
    expect(await store.getEvent(eventId)).toBeUndefined();
  });

  it("sets a swept event back to pending (the stream's filter passes it), counting the sweep, never a sent one", async () => {
    // Another day than the other tests' events: they read whole day partitions.
    const at = now + 5 * 86_400_000;
    const [failed, sent] = [ulid(at), ulid(at + 1)];
    for (const id of [failed, sent]) await outbox.enqueueTest(id, at);
    await store.finishEvent(failed, { state: 'failed', lastError: 'owner: refused' }, at + 1);
    await store.finishEvent(sent, { state: 'sent' }, at + 1);

    expect(await store.redriveBySweep(failed, at + 2)).toBe(true);
    expect(await store.redriveBySweep(failed, at + 3)).toBe(true);
    expect(await store.redriveBySweep(sent, at + 2)).toBe(false);

    const item = await get(keys.outboxEvent(failed));
    expect(item).toMatchObject({
      entity: 'outbox',
      state: 'pending',
      updatedAt: at + 3,
      sweeps: 2,
      attempts: 1,
    });
    expect(passesOutboxFilter({ eventName: 'MODIFY', dynamodb: { NewImage: marshall(item ?? {}) } })).toBe(
      true,
    );
    expect(await get(keys.outboxEvent(sent))).toMatchObject({ state: 'sent', updatedAt: at + 1 });
    expect(await get(keys.outboxEvent(sent))).not.toHaveProperty('sweeps');
  });

  it('chooses at most `limit` events to re-drive, oldest day first', async () => {
    const yesterday = [ulid(now - 86_400_000), ulid(now - 86_400_000 + 1)];
    const today = ulid(now);
    for (const id of [...yesterday, today]) await outbox.enqueueTest(id, now - 86_400_000);
    const days = ['2026-11-24', '2026-11-25'];

    const two = await store.eventsToRedrive({ days, staleBefore: now, maxSweeps: 5, limit: 2 });
    const all = await store.eventsToRedrive({ days, staleBefore: now, maxSweeps: 5, limit: 10 });

    expect(two).toEqual(yesterday);
    expect(all).toEqual([...yesterday, today]);
  });
});
