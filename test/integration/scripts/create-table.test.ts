import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  byIdIndexAttributes,
  cardAttributes,
  tableDefinition,
} from '../../../functions/shared/table/table-definition.js';
import { ensureTable } from '../../../scripts/create-table.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

describe('ensureTable', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await createTestTable();
  });

  afterAll(async () => {
    await table?.drop();
  });

  async function describeTable() {
    const { Table } = await table.client.send(new DescribeTableCommand({ TableName: table.tableName }));
    if (!Table) throw new Error('DescribeTable returned no table');
    return Table;
  }

  it('creates the key schema and on-demand billing when the table is new', async () => {
    const description = await describeTable();

    expect(description.TableStatus).toBe('ACTIVE');
    expect(description.KeySchema).toEqual([
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
    ]);
    expect(description.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('creates the card and by-id indexes with their INCLUDE projections, and the keys-only roots indexes, when the table is new', async () => {
    const description = await describeTable();
    const indexes = Object.fromEntries(
      (description.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index]),
    );

    for (const [name, keys] of [
      [tableDefinition.indexes.recent.name, ['approvedPk', 'approvedSk']],
      [tableDefinition.indexes.held.name, ['heldPk', 'heldSk']],
    ] as const) {
      const cards = indexes[name];
      expect(cards?.KeySchema).toEqual([
        { AttributeName: keys[0], KeyType: 'HASH' },
        { AttributeName: keys[1], KeyType: 'RANGE' },
      ]);
      expect(cards?.Projection?.ProjectionType).toBe('INCLUDE');
      expect([...(cards?.Projection?.NonKeyAttributes ?? [])].sort()).toEqual([...cardAttributes].sort());
    }

    const byId = indexes[tableDefinition.indexes.byId.name];
    expect(byId?.KeySchema).toEqual([{ AttributeName: 'commentId', KeyType: 'HASH' }]);
    expect(byId?.Projection?.ProjectionType).toBe('INCLUDE');
    expect([...(byId?.Projection?.NonKeyAttributes ?? [])].sort()).toEqual([...byIdIndexAttributes].sort());

    const byTime = indexes[tableDefinition.indexes.rootsByTime.name];
    expect(byTime?.KeySchema).toEqual([
      { AttributeName: 'rootsPk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(byTime?.Projection?.ProjectionType).toBe('KEYS_ONLY');
    const byLike = indexes[tableDefinition.indexes.rootsByLike.name];
    expect(byLike?.KeySchema).toEqual([
      { AttributeName: 'rootsPk', KeyType: 'HASH' },
      { AttributeName: 'likeSort', KeyType: 'RANGE' },
    ]);
    expect(byLike?.Projection?.ProjectionType).toBe('KEYS_ONLY');
    expect(Object.keys(indexes)).toHaveLength(5);
  });

  it('enables time to live on the expiry attribute when the table is new', async () => {
    const { TimeToLiveDescription } = await table.client.send(
      new DescribeTimeToLiveCommand({ TableName: table.tableName }),
    );

    expect(TimeToLiveDescription?.TimeToLiveStatus).toBe('ENABLED');
    expect(TimeToLiveDescription?.AttributeName).toBe(tableDefinition.timeToLiveAttribute);
  });

  it('changes nothing when the table already exists', async () => {
    const before = await describeTable();

    await ensureTable(table.client, table.tableName);

    const after = await describeTable();
    expect(after.CreationDateTime).toEqual(before.CreationDateTime);
    expect(after.TableArn).toBe(before.TableArn);
    expect(after.GlobalSecondaryIndexes).toEqual(before.GlobalSecondaryIndexes);
  });
});
