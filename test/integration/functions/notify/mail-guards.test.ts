import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../../functions/shared/dynamodb-client/client.js';
import { keys } from '../../../../functions/shared/table/keys.js';
import { createMailGuards } from '../../../../functions/shared/table/mail-guards.js';
import { createOutboxRepository } from '../../../../functions/shared/table/outbox-repository.js';
import { createTestTable, type TestTable } from '../../../support/test-table.js';

describe('createMailGuards on DynamoDB Local', () => {
  let table: TestTable;
  let client: ReturnType<typeof createDocumentClient>;
  let guards: ReturnType<typeof createMailGuards>;
  const hour = 3_600_000;
  const start = Date.parse('2026-11-25T10:15:00Z');

  beforeAll(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
    guards = createMailGuards(client, table.tableName);
  });
  afterAll(() => table.drop());

  it('takes a slot of the hour and of the day together, or neither once either is full', async () => {
    const caps = { perHour: 2, perDay: 3 };
    const hash = 'c'.repeat(64);
    const taken = [];
    for (const at of [start, start + 1, start + 2, start + hour, start + hour + 1]) {
      taken.push(await guards.takeCapSlot(hash, at, caps));
    }

    expect(taken).toEqual([true, true, false, true, false]);
    const count = async (window: string) =>
      (await client.send(new GetCommand({ TableName: table.tableName, Key: keys.notifyCap(hash, window) })))
        .Item;
    expect(await count('H#2026-11-25T10')).toMatchObject({ entity: 'notify-cap', count: 2 });
    // The refusal by the day left the second hour's count as it was; the last slot taken set the expiry.
    expect(await count('H#2026-11-25T11')).toMatchObject({ count: 1 });
    expect(await count('D#2026-11-25')).toMatchObject({
      count: 3,
      expiresAt: Math.ceil((start + hour + 48 * hour) / 1000),
    });
  });

  it('finds the site suppression first, then the thread one, and none for another thread', async () => {
    const outbox = createOutboxRepository(client, table.tableName);
    const both = 'd'.repeat(64);
    const threadOnly = 'e'.repeat(64);
    await outbox.suppress(both, { kind: 'site' }, 'complaint', 1);
    await outbox.suppress(both, { kind: 'thread', rootId: 'ROOT1' }, 'unsubscribe', 1);
    await outbox.suppress(threadOnly, { kind: 'thread', rootId: 'ROOT1' }, 'unsubscribe', 1);

    expect(await guards.suppression(both, 'ROOT1')).toBe('site');
    expect(await guards.suppression(both)).toBe('site');
    expect(await guards.suppression(threadOnly, 'ROOT1')).toBe('thread');
    expect(await guards.suppression(threadOnly, 'ROOT2')).toBeUndefined();
    expect(await guards.suppression(threadOnly)).toBeUndefined();
  });
});
