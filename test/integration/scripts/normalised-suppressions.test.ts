import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import {
  createAddressHasher,
  createFormerAddressHasher,
} from '../../../functions/shared/notify/address-hash.js';
import { keys, type SuppressionScope } from '../../../functions/shared/table/keys.js';
import {
  copySuppressionsToNormalisedHash,
  runNormalisedSuppressionStep,
} from '../../../scripts/migrate/normalised-suppressions.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const salt = 'normalised-salt-0123456789abcdef';
const hash = createAddressHasher(salt);
const former = createFormerAddressHasher(salt);

describe('copying suppressions to the normalised address hash, on DynamoDB Local', () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;

  const put = (item: Record<string, unknown>) =>
    client.send(new PutCommand({ TableName: table.tableName, Item: item }));
  const comment = (id: string, mail: string) =>
    put({ pk: 'ARTICLE#/post', sk: `C#${id}`, entity: 'comment', id, mail });
  const suppression = (addressHash: string, scope: SuppressionScope, reason: string, at: number) =>
    put({
      ...keys.suppression(addressHash, scope),
      entity: 'suppression',
      ...(scope.kind === 'thread' ? { rootId: scope.rootId } : {}),
      reason,
      at,
    });
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

  // Three respelt addresses with suppressions under their former hash (one also under the new one), and
  // a plain address, whose hash never changed.
  beforeEach(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
    await comment('01A', 'Ann+blog@Example.com');
    await comment('01B', 'b.o.b@gmail.com');
    await comment('01C', 'Cy+x@googlemail.com');
    await comment('01D', 'dee@example.com');
    await suppression(former('ann+blog@example.com'), { kind: 'site' }, 'unsubscribe', 1);
    await suppression(former('b.o.b@gmail.com'), { kind: 'thread', rootId: '01ROOT' }, 'unsubscribe', 2);
    await suppression(former('cy+x@googlemail.com'), { kind: 'site' }, 'bounce', 3);
    await suppression(hash('cy@googlemail.com'), { kind: 'site' }, 'unsubscribe', 9);
    await suppression(hash('dee@example.com'), { kind: 'site' }, 'unsubscribe', 4);
  });
  afterEach(() => table.drop());

  it('copies each to the normalised hash, keeping the old item and a newer one, and a rerun copies nothing', async () => {
    const first = await copySuppressionsToNormalisedHash(client, table.tableName, salt, { dryRun: false });
    const second = await copySuppressionsToNormalisedHash(client, table.tableName, salt, { dryRun: false });

    expect(first).toEqual({ dryRun: false, respelt: 3, copied: 2, already: 1, errors: [] });
    expect(second).toEqual({ dryRun: false, respelt: 3, copied: 0, already: 3, errors: [] });
    expect(await itemAt(hash('ann@example.com'), { kind: 'site' })).toMatchObject({
      reason: 'unsubscribe',
      at: 1,
    });
    expect(await itemAt(hash('bob@gmail.com'), { kind: 'thread', rootId: '01ROOT' })).toMatchObject({
      rootId: '01ROOT',
      at: 2,
    });
    expect(await itemAt(hash('cy@googlemail.com'), { kind: 'site' })).toMatchObject({ at: 9 });
    expect(await itemAt(former('ann+blog@example.com'), { kind: 'site' })).toMatchObject({ at: 1 });
  });

  it('writes nothing on a dry run, and says what it would copy', async () => {
    const dry = await copySuppressionsToNormalisedHash(client, table.tableName, salt, { dryRun: true });

    expect(dry).toEqual({ dryRun: true, respelt: 3, copied: 2, already: 1, errors: [] });
    expect(await itemAt(hash('ann@example.com'), { kind: 'site' })).toBeUndefined();
  });

  it('reports without the salt how many addresses wait for it, copying nothing', async () => {
    const step = await runNormalisedSuppressionStep(client, table.tableName, undefined, { dryRun: false });

    expect(step.complete).toBe(true);
    expect(step.report).toContain('3 such comment addresses');
    expect(await itemAt(hash('ann@example.com'), { kind: 'site' })).toBeUndefined();
  });
});
