import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../../functions/shared/dynamodb-client/client.js';
import { keys } from '../../../../functions/shared/table/keys.js';
import { createOwnerMailHours } from '../../../../functions/shared/table/owner-mail-hours.js';
import { createSiteMailCaps } from '../../../../functions/shared/table/site-mail-caps.js';
import { createTestTable, type TestTable } from '../../../support/test-table.js';

describe('the site-wide mail caps and the owner mail hours on DynamoDB Local', () => {
  let table: TestTable;
  let client: ReturnType<typeof createDocumentClient>;
  const hour = 3_600_000;
  const start = Date.parse('2026-11-25T10:15:00Z');

  beforeAll(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
  });
  afterAll(() => table.drop());

  const item = async (key: { pk: string; sk: string }) =>
    (await client.send(new GetCommand({ TableName: table.tableName, Key: key }))).Item;

  it("counts the site's hour and day and the domain's hour together, and none when one is full", async () => {
    const caps = createSiteMailCaps(client, table.tableName, { perHour: 3, perDay: 4, domainPerHour: 2 });

    const taken = [];
    for (const [domain, at] of [
      ['one', start],
      ['one', start + 1],
      ['one', start + 2],
      ['two', start + 3],
      ['two', start + 4],
      ['three', start + hour],
      ['three', start + hour + 1],
    ] as const) {
      taken.push(await caps.take(domain, at));
    }

    expect(taken).toEqual([
      undefined,
      undefined,
      'domain-hour',
      undefined,
      'site-hour',
      undefined,
      'site-day',
    ]);
    expect(await item(keys.siteMailCap('H#2026-11-25T10'))).toMatchObject({
      entity: 'site-mail-cap',
      count: 3,
    });
    expect(await item(keys.siteMailCap('D#2026-11-25'))).toMatchObject({ count: 4 });
    // The refusals left the other windows of the same mail as they were.
    expect(await item(keys.domainMailCap('one', 'H#2026-11-25T10'))).toMatchObject({
      entity: 'domain-mail-cap',
      count: 2,
    });
    expect(await item(keys.domainMailCap('two', 'H#2026-11-25T10'))).toMatchObject({ count: 1 });
    expect(await item(keys.siteMailCap('H#2026-11-25T11'))).toMatchObject({ count: 1 });
  });

  it('lets as many mails through as the cap, no more, when senders race', async () => {
    const caps = createSiteMailCaps(client, table.tableName, { perHour: 5, perDay: 100, domainPerHour: 100 });
    const at = Date.parse('2026-11-26T08:00:00Z');

    const taken = await Promise.all(Array.from({ length: 12 }, (_, index) => caps.take(`race${index}`, at)));

    expect(taken.filter((refused) => refused === undefined)).toHaveLength(5);
    expect(await item(keys.siteMailCap('H#2026-11-26T08'))).toMatchObject({ count: 5 });
  });

  it("counts owner mails past the cap into the hour's digest, which is claimed once, then sent once", async () => {
    const hours = createOwnerMailHours(client, table.tableName, 2);
    const slots = [];
    for (let mail = 0; mail < 5; mail += 1) slots.push(await hours.take(start));

    expect(slots).toEqual(['send', 'send', 'digest', 'digest', 'digest']);
    expect(await hours.pendingDigests(start)).toEqual([]);
    const later = start + hour;
    expect(await hours.pendingDigests(later)).toEqual([{ hour: '2026-11-25T10', overflow: 3 }]);

    const claims = await Promise.all([
      hours.claimDigest('2026-11-25T10', later, 60_000),
      hours.claimDigest('2026-11-25T10', later, 60_000),
    ]);
    expect(claims.filter(Boolean)).toEqual([{ count: 3, attempts: 1 }]);
    expect(await hours.pendingDigests(later)).toEqual([]);
    // Claimed: a mail still counted in that hour goes by itself, and the digest's count stays.
    expect(await hours.take(start)).toBe('send');

    await hours.recordDigest('2026-11-25T10', { state: 'failed', error: 'down', gaveUp: false }, later);
    expect(await hours.pendingDigests(later + 1)).toEqual([{ hour: '2026-11-25T10', overflow: 3 }]);
    expect(await hours.claimDigest('2026-11-25T10', later + 1, 60_000)).toEqual({ count: 3, attempts: 2 });
    await hours.recordDigest('2026-11-25T10', { state: 'sent' }, later + 2);

    expect(await hours.pendingDigests(later + 3)).toEqual([]);
    expect(await hours.claimDigest('2026-11-25T10', later + 3 + 120_000, 60_000)).toBeUndefined();
    expect(await item(keys.ownerMailHour('2026-11-25T10'))).toMatchObject({
      entity: 'owner-mail-hour',
      // The mail sent by itself after the claim is not counted: the hour is over for the cap.
      sent: 2,
      overflow: 3,
      closed: true,
      attempts: 2,
      sentAt: later + 2,
    });
  });
});
