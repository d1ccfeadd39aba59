import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { scanTable } from '../../../scripts/shared/storage/table-export.js';
import { seedV1 } from '../../support/layout-v1.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const root = join(import.meta.dirname, '..', '..', '..');

/** Runs `npm run migrate -- <args>` as npm does (through tsx), and returns its exit code and output. */
function migrate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      join(root, 'node_modules', '.bin', 'tsx'),
      [join(root, 'scripts', 'migrate', 'cli.ts'), ...args],
      { cwd: root },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function itemsOf(client: DynamoDBDocumentClient, tableName: string) {
  const items: Record<string, unknown>[] = [];
  for await (const item of scanTable(client, tableName)) items.push(item);
  return items;
}

describe('npm run migrate', () => {
  let damaged: TestTable;
  /** Tables as 0.1.0 left them, one per test that reads one: a migration changes its table for good. */
  const seeded: TestTable[] = [];
  let client: DynamoDBDocumentClient;
  const at = (t: TestTable) => ['--endpoint', t.endpoint, '--table', t.tableName];
  const seededTable = async () => {
    const table = await createTestTable();
    seeded.push(table);
    await seedV1(client, table.tableName);
    return table;
  };

  beforeAll(async () => {
    damaged = await createTestTable();
    client = createDocumentClient({ endpoint: damaged.endpoint });
    await seedV1(client, damaged.tableName);
    // A comment whose url does not name its partition: the migration cannot tell where it belongs.
    await client.send(
      new PutCommand({
        TableName: damaged.tableName,
        Item: {
          pk: 'URL#/posts/a',
          sk: 'C#01JD0000000000000000000099',
          entity: 'comment',
          commentId: '01JD0000000000000000000099',
          url: '/elsewhere',
          rid: '01JD0000000000000000000001',
          status: 'approved',
        },
      }),
    );
  });
  afterAll(async () => {
    client?.destroy();
    await Promise.all([...seeded, damaged].map((table) => table?.drop()));
  });

  it('prints what it would do on --dry-run, exits 0 and writes nothing', async () => {
    const table = await seededTable();
    const before = await itemsOf(client, table.tableName);

    const { code, stdout } = await migrate([...at(table), '--dry-run']);

    expect(code).toBe(0);
    expect(stdout).toContain(
      `Dry run (nothing written) of the migration of table ${table.tableName} at ${table.endpoint}`,
    );
    expect(stdout).toContain('replies to move: 7');
    expect(stdout).toContain('roots to index: 9');
    expect(stdout).toContain('pages to recount: 2');
    expect(stdout).toContain('the table would then be marked as layout 3');
    expect(await itemsOf(client, table.tableName)).toEqual(before);
  });

  it('migrates with a progress and a report, exits 0, then finds everything done when run again', async () => {
    const table = await seededTable();
    const first = await migrate(at(table));
    const second = await migrate(at(table));

    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/Scanning: \d+\/\d+/);
    expect(first.stderr).toContain('Recounting pages: 3/3');
    expect(first.stdout).toContain('replies moved: 7');
    expect(first.stdout).toContain('roots indexed: 9');
    expect(first.stdout).toContain('replies indexed: 0');
    expect(first.stdout).toContain('pages recounted: 2');
    expect(first.stdout).toContain('errors: 0');
    expect(first.stdout).toContain('table marked as layout 3: the functions accept comment writes again');
    // Then each article's first-comment time, for READONLY_AGE: the seeded articles have comments.
    expect(first.stdout).toMatch(/First-comment times of articles, for READONLY_AGE\n {2}set: [1-9]/);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('replies moved: 0');
    expect(second.stdout).toContain('already in layout 3: 19 (7 replies, 9 roots, 3 pages)');
    expect(second.stdout).toContain('table already marked as layout 3');
    expect(second.stdout).toMatch(
      /First-comment times of articles, for READONLY_AGE\n {2}set: 0\n {2}corrected \(newer than the oldest approved comment\): 0\n {2}right already: [1-9]/,
    );
  });

  // Independent of the rest and of each other: these two run side by side.
  it.concurrent(
    'exits 2 with the items it could not migrate listed, and leaves the table unmarked',
    async () => {
      const { code, stdout } = await migrate(at(damaged));

      expect(code).toBe(2);
      expect(stdout).toContain('errors: 1');
      expect(stdout).toContain(
        'URL#/posts/a C#01JD0000000000000000000099: its url /elsewhere does not name its partition',
      );
      expect(stdout).toContain('table left unmarked because of the errors above');
      const site = (await itemsOf(client, damaged.tableName)).find((item) => item.pk === 'SITE');
      expect(site).not.toHaveProperty('layout');
    },
  );

  it.concurrent('exits 1 with the usage on an argument it does not take', async () => {
    const { code, stderr } = await migrate(['cdk-outputs.json']);

    expect(code).toBe(1);
    expect(stderr).toContain('usage: npm run migrate -- [--dry-run]');
  });
});
