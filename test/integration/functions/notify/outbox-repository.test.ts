import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../../functions/shared/dynamodb-client/client.js';
import { createDeliveryStore } from '../../../../functions/shared/table/delivery-store.js';
import { keys } from '../../../../functions/shared/table/keys.js';
import { createOutboxRepository } from '../../../../functions/shared/table/outbox-repository.js';
import { createTestTable, type TestTable } from '../../../support/test-table.js';

describe('createOutboxRepository on DynamoDB Local', () => {
  let table: TestTable;
  let client: ReturnType<typeof createDocumentClient>;
  let outbox: ReturnType<typeof createOutboxRepository>;
  let deliveries: ReturnType<typeof createDeliveryStore>;
  const now = Date.parse('2026-11-25T12:00:00Z');
  const day = 86_400_000;

  beforeAll(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
    outbox = createOutboxRepository(client, table.tableName);
    deliveries = createDeliveryStore(client, table.tableName);
  });
  afterAll(() => table.drop());

  it('logs the newest events first, each with its deliveries, across days and within the limit', async () => {
    // Days no other test of this file writes to: the log reads whole day partitions.
    const now = Date.parse('2026-06-01T12:00:00Z');
    const older = ulid(now - day - 60_000);
    const sent = ulid(now - 120_000);
    const failed = ulid(now - 60_000);
    const future = ulid(now + 2 * day);
    for (const [id, at] of [
      [older, now - day - 60_000],
      [sent, now - 120_000],
      [failed, now - 60_000],
      [future, now + 2 * day],
    ] as const) {
      await outbox.enqueueTest(id, at);
    }
    await deliveries.claim(sent, 'owner', { at: now, leaseMs: 1000 });
    await deliveries.record(sent, 'owner', { state: 'sent' }, now + 1);
    await deliveries.record(
      sent,
      'webhook',
      { state: 'skipped', lastError: 'suppressed (the whole site)' },
      now + 2,
    );
    await deliveries.finishEvent(sent, { state: 'sent' }, now + 3);
    await deliveries.claim(failed, 'telegram', { at: now, leaseMs: 1000 });
    await deliveries.record(
      failed,
      'telegram',
      { state: 'failed', lastError: 'x'.repeat(600), retryAt: now + 120_000 },
      now + 4,
    );
    await deliveries.finishEvent(
      failed,
      { state: 'failed', lastError: 'telegram: 502', retryAt: now + 120_000 },
      now + 5,
    );

    const log = await outbox.log({ now, days: 2, limit: 10 });
    const limited = await outbox.log({ now, days: 2, limit: 2 });
    const today = await outbox.log({ now, days: 1, limit: 10 });

    expect(log).toEqual([
      {
        eventId: failed,
        cause: 'test',
        at: now - 60_000,
        state: 'failed',
        attempts: 1,
        lastError: 'telegram: 502',
        retryAt: now + 120_000,
        deliveries: [
          {
            recipient: 'telegram',
            state: 'failed',
            attempts: 1,
            lastError: 'x'.repeat(500),
            retryAt: now + 120_000,
            updatedAt: now + 4,
          },
        ],
      },
      {
        eventId: sent,
        cause: 'test',
        at: now - 120_000,
        state: 'sent',
        attempts: 1,
        deliveries: [
          { recipient: 'owner', state: 'sent', attempts: 1, updatedAt: now + 1 },
          {
            recipient: 'webhook',
            state: 'skipped',
            attempts: 0,
            lastError: 'suppressed (the whole site)',
            updatedAt: now + 2,
          },
        ],
      },
      {
        eventId: older,
        cause: 'test',
        at: now - day - 60_000,
        state: 'pending',
        attempts: 0,
        deliveries: [],
      },
    ]);
    expect(limited.map((entry) => entry.eventId)).toEqual([failed, sent]);
    expect(today.map((entry) => entry.eventId)).toEqual([failed, sent]);
  });

  it('writes a test event once, pending, with a TTL', async () => {
    const id = ulid(now);

    await outbox.enqueueTest(id, now);

    const item = (
      await client.send(new GetCommand({ TableName: table.tableName, Key: keys.outboxEvent(id) }))
    ).Item;
    expect(item).toMatchObject({
      entity: 'outbox',
      eventId: id,
      cause: 'test',
      state: 'pending',
      attempts: 0,
    });
    expect(item?.expiresAt).toBe(Math.ceil(now / 1000) + 30 * 86_400);
    await expect(outbox.enqueueTest(id, now)).rejects.toThrow();
  });

  it('re-drives a failed or pending event (back to pending, sweeps reset), never a sent or missing one', async () => {
    const failed = ulid(now);
    const sent = ulid(now);
    await outbox.enqueueTest(failed, now);
    await outbox.enqueueTest(sent, now);
    await deliveries.finishEvent(failed, { state: 'failed', lastError: 'down' }, now);
    await deliveries.redriveBySweep(failed, now);
    await deliveries.finishEvent(sent, { state: 'sent' }, now);

    const results = [
      await outbox.redrive(failed, now + 10),
      await outbox.redrive(failed, now + 20),
      await outbox.redrive(sent, now + 10),
      await outbox.redrive(ulid(now), now + 10),
    ];

    expect(results).toEqual([true, true, false, false]);
    const item = (
      await client.send(new GetCommand({ TableName: table.tableName, Key: keys.outboxEvent(failed) }))
    ).Item;
    expect(item).toMatchObject({ state: 'pending', updatedAt: now + 20, lastError: 'down', attempts: 1 });
    expect(item).not.toHaveProperty('sweeps');
  });

  it('keeps a suppression by hash and scope, with its reason and time, for good', async () => {
    const hash = 'a'.repeat(64);

    await outbox.suppress(hash, { kind: 'site' }, 'bounce', 5);
    await outbox.suppress(hash, { kind: 'thread', rootId: 'ROOT1' }, 'unsubscribe', 6);

    const read = async (scope: Parameters<typeof keys.suppression>[1]) =>
      (await client.send(new GetCommand({ TableName: table.tableName, Key: keys.suppression(hash, scope) })))
        .Item;
    expect(await read({ kind: 'site' })).toEqual({
      ...keys.suppression(hash, { kind: 'site' }),
      entity: 'suppression',
      reason: 'bounce',
      at: 5,
    });
    expect(await read({ kind: 'thread', rootId: 'ROOT1' })).toEqual({
      ...keys.suppression(hash, { kind: 'thread', rootId: 'ROOT1' }),
      entity: 'suppression',
      rootId: 'ROOT1',
      reason: 'unsubscribe',
      at: 6,
    });
  });
});
