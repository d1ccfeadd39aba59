import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpgradeRequiredError } from '../../../functions/shared/domain/errors.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { seedV1 } from '../../support/layout-v1.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { fixture, importInto } from './import-support.js';

describe('import into a table of the previous layout', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await createTestTable();
  });
  afterAll(() => table.drop());

  it('refuses before writing anything, naming the migration, when the table was written by 0.1.0', async () => {
    const client = createDocumentClient({ endpoint: table.endpoint });
    const scan = async () =>
      (await client.send(new ScanCommand({ TableName: table.tableName, ConsistentRead: true }))).Items ?? [];
    try {
      await seedV1(client, table.tableName);
      const before = await scan();

      await expect(importInto(table, [fixture('waline.json')])).rejects.toBeInstanceOf(UpgradeRequiredError);

      expect(await scan()).toEqual(before);
    } finally {
      client.destroy();
    }
  });
});
