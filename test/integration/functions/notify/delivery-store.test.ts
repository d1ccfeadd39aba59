import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passesOutboxFilter } from '../../../../functions/notify/stream-settings.js';
import { createDocumentClient } from '../../../../functions/shared/dynamodb-client/client.js';
import { createDeliveryStore } from '../../../../functions/shared/table/delivery-store.js';
import { keys } from '../../../../functions/shared/table/keys.js';
import { createOutboxRepository } from '../../../../functions/shared/table/outbox-repository.js';
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
      { claimed: false, state: 'skipped', lastError: 'no' },
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
    await store.record(
      eventId,
      'parent',
      { state: 'failed', lastError: 'timeout', counted: true, retryAt: now + 2 },
      now + 1,
    );
    const retry = await store.claim(eventId, 'parent', { at: now + 2, leaseMs: 10 });
    await store.record(eventId, 'parent', { state: 'sent' }, now + 3);
    // A sender whose lease ran out finishes late, with a failure.
    await store.record(eventId, 'parent', { state: 'failed', lastError: 'late' }, now + 4);

    expect(retry).toEqual({ claimed: true, attempts: 2, counted: true });
    expect(await get(keys.delivery(eventId, 'parent'))).toMatchObject({ state: 'sent', updatedAt: now + 3 });
    expect(await get(keys.delivery(eventId, 'parent'))).not.toHaveProperty('lastError');
  });

  it('claims a failed delivery only once its retry is due and never once given up, unless re-driven by hand', async () => {
    const eventId = ulid(now);
    await store.claim(eventId, 'webhook', { at: now, leaseMs: 10 });
    await store.record(
      eventId,
      'webhook',
      { state: 'failed', lastError: '503', retryAt: now + 100 },
      now + 1,
    );
    await store.claim(eventId, 'telegram', { at: now, leaseMs: 10 });
    await store.record(
      eventId,
      'telegram',
      { state: 'failed', lastError: '401 (refused for good)' },
      now + 1,
    );

    const early = await store.claim(eventId, 'webhook', { at: now + 99, leaseMs: 10 });
    const givenUp = await store.claim(eventId, 'telegram', { at: now + 99_999, leaseMs: 10 });
    const due = await store.claim(eventId, 'webhook', { at: now + 100, leaseMs: 10 });
    const byHand = await store.claim(eventId, 'telegram', { at: now + 99_999, leaseMs: 10, byHand: true });
    await store.record(eventId, 'webhook', { state: 'sent' }, now + 101);

    expect([early, givenUp, due, byHand]).toEqual([
      { claimed: false, state: 'failed', retryAt: now + 100, lastError: '503' },
      { claimed: false, state: 'failed', gaveUp: true, lastError: '401 (refused for good)' },
      { claimed: true, attempts: 2, counted: false },
      { claimed: true, attempts: 2, counted: false },
    ]);
    const sent = await get(keys.delivery(eventId, 'webhook'));
    expect(sent).toMatchObject({ state: 'sent' });
    expect(sent).not.toHaveProperty('retryAt');
    expect(await get(keys.delivery(eventId, 'telegram'))).toMatchObject({ gaveUp: true });
  });

  it('chooses failed events whose retry is due however often swept, never one given up or not yet due', async () => {
    // A day of its own: the query reads whole day partitions.
    const at = now + 9 * 86_400_000;
    const day = new Date(at).toISOString().slice(0, 10);
    const [due, later, givenUp, legacy] = [ulid(at), ulid(at + 1), ulid(at + 2), ulid(at + 3)];
    for (const id of [due, later, givenUp, legacy]) await outbox.enqueueTest(id, at);
    await store.finishEvent(due, { state: 'failed', lastError: 'webhook: 503', retryAt: at + 10 }, at);
    for (let sweep = 0; sweep < 6; sweep += 1) await store.redriveBySweep(due, at);
    await store.finishEvent(due, { state: 'failed', lastError: 'webhook: 503', retryAt: at + 10 }, at);
    await store.finishEvent(later, { state: 'failed', lastError: 'webhook: 503', retryAt: at + 11 }, at);
    await store.finishEvent(givenUp, { state: 'failed', lastError: 'telegram: 401', gaveUp: true }, at);
    // Failed before retries were scheduled: neither retryAt nor gaveUp.
    await store.finishEvent(legacy, { state: 'failed', lastError: 'owner: timeout' }, at);

    const chosen = await store.eventsToRedrive({
      days: [day],
      now: at + 10,
      staleBefore: at - 1,
      maxSweeps: 5,
      limit: 10,
    });

    expect(chosen).toEqual([due, legacy]);
    expect(await store.getEvent(givenUp)).toMatchObject({ state: 'failed', gaveUp: true });
    expect(await store.getEvent(due)).toMatchObject({ retryAt: at + 10 });
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

    const two = await store.eventsToRedrive({ days, now, staleBefore: now, maxSweeps: 5, limit: 2 });
    const all = await store.eventsToRedrive({ days, now, staleBefore: now, maxSweeps: 5, limit: 10 });

    expect(two).toEqual(yesterday);
    expect(all).toEqual([...yesterday, today]);
  });
});
