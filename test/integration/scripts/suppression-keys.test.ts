import { createHash } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAddressHasher } from '../../../functions/shared/notify/address-hash.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { keys, type SuppressionScope } from '../../../functions/shared/table/keys.js';
import { createMailGuards } from '../../../functions/shared/table/mail-guards.js';
import { createOutboxRepository } from '../../../functions/shared/table/outbox-repository.js';
import { migrateSuppressionKeys, runSuppressionStep } from '../../../scripts/migrate/suppression-keys.js';
import { scanTable } from '../../../scripts/shared/storage/table-export.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const salt = 'suppression-salt-0123456789abcdef';
const hash = createAddressHasher(salt);
/** The hash suppressions were kept under before: SHA-256 of the trimmed, lower-cased address. */
const unkeyed = (address: string) => createHash('sha256').update(address.trim().toLowerCase()).digest('hex');

describe('moving suppressions to the keyed address hash, on DynamoDB Local', () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;

  /** Puts a suppression as the notifier did before, under the unkeyed hash. */
  const putOld = (address: string, scope: SuppressionScope, reason: string, at: number) =>
    client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...keys.suppression(unkeyed(address), scope),
          entity: 'suppression',
          ...(scope.kind === 'thread' ? { rootId: scope.rootId } : {}),
          reason,
          at,
        },
      }),
    );
  const itemAt = async (addressHash: string, scope: SuppressionScope) =>
    (
      await client.send(
        new GetCommand({
          TableName: table.tableName,
          Key: keys.suppression(addressHash, scope),
          ConsistentRead: true,
        }),
      )
    ).Item;
  const muteKeys = async () => {
    const found: string[] = [];
    for await (const item of scanTable(client, table.tableName)) {
      if (String(item.pk).startsWith('MUTE#')) found.push(`${String(item.pk)} ${String(item.sk)}`);
    }
    return found.sort();
  };

  // Each test its own table (tests run in any order): three suppressions under the unkeyed hash, and a
  // keyed one recorded since the upgrade.
  beforeEach(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
    await putOld('Ann@Example.com', { kind: 'site' }, 'unsubscribe', 1);
    await putOld('bob@example.com', { kind: 'thread', rootId: '01ROOT' }, 'unsubscribe', 2);
    await putOld('cy@example.com', { kind: 'site' }, 'bounce', 3);
    // Cy unsubscribed again after the upgrade: the keyed suppression is newer and is kept.
    await createOutboxRepository(client, table.tableName).suppress(
      hash('cy@example.com'),
      { kind: 'site' },
      'unsubscribe',
      9,
    );
  });
  afterEach(async () => {
    client.destroy();
    await table.drop();
  });

  it('counts on a dry run, and writes nothing', async () => {
    const before = await muteKeys();

    const outcome = await migrateSuppressionKeys(client, table.tableName, salt, { dryRun: true });

    expect(outcome).toEqual({ dryRun: true, moved: 3, merged: 0, already: 1, errors: [] });
    expect(await muteKeys()).toEqual(before);
  });

  it('says what is left without the salt, and writes nothing', async () => {
    const before = await muteKeys();

    const step = await runSuppressionStep(client, table.tableName, undefined, { dryRun: false });

    expect(step.complete).toBe(false);
    expect(step.report).toContain('to move to the keyed hash: 3');
    expect(step.report).toContain('--ip-hash-salt');
    expect(await muteKeys()).toEqual(before);
  });

  it('moves each to the keyed hash with what it held, keeps a newer keyed one, and leaves no unkeyed hash', async () => {
    const outcome = await migrateSuppressionKeys(client, table.tableName, salt, { dryRun: false });

    expect(outcome).toEqual({ dryRun: false, moved: 3, merged: 1, already: 1, errors: [] });
    expect(await itemAt(hash('ann@example.com'), { kind: 'site' })).toMatchObject({
      reason: 'unsubscribe',
      at: 1,
    });
    expect(await itemAt(hash('bob@example.com'), { kind: 'thread', rootId: '01ROOT' })).toMatchObject({
      rootId: '01ROOT',
      at: 2,
    });
    expect(await itemAt(hash('cy@example.com'), { kind: 'site' })).toMatchObject({
      reason: 'unsubscribe',
      at: 9,
    });
    const stored = await muteKeys();
    expect(stored).toHaveLength(3);
    for (const address of ['ann@example.com', 'bob@example.com', 'cy@example.com']) {
      expect(stored.join()).not.toContain(unkeyed(address));
    }
  });

  it('is what the notifier checks: the moved suppressions stop mail again', async () => {
    await migrateSuppressionKeys(client, table.tableName, salt, { dryRun: false });
    const guards = createMailGuards(client, table.tableName);

    expect(await guards.suppression(hash(' ANN@example.com'))).toBe('site');
    expect(await guards.suppression(hash('bob@example.com'), '01ROOT')).toBe('thread');
    expect(await guards.suppression(hash('bob@example.com'), '01OTHER')).toBeUndefined();
  });

  it('finds nothing to move when run again', async () => {
    await migrateSuppressionKeys(client, table.tableName, salt, { dryRun: false });
    const before = await muteKeys();

    const step = await runSuppressionStep(client, table.tableName, salt, { dryRun: false });

    expect(step.complete).toBe(true);
    expect(step.report).toContain('moved to the keyed hash: 0');
    expect(step.report).toContain('keyed already: 3');
    expect(await muteKeys()).toEqual(before);
  });
});
