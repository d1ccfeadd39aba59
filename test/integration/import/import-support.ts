import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { createAccountRepository } from '../../../functions/shared/table/account-repository.js';
import { createImportRepository } from '../../../scripts/shared/storage/import-repository.js';
import { readSource } from '../../../scripts/import/detect.js';
import type { MergeRule } from '../../../scripts/import/page-keys.js';
import { planImport } from '../../../scripts/import/plan.js';
import { readInputs } from '../../../scripts/import/read-input.js';
import { runImport } from '../../../scripts/import/run-import.js';
import type { SourceFormat } from '../../../scripts/import/source.js';
import type { TestTable } from '../../support/test-table.js';
import { entities } from '../../../functions/shared/table/keys.js';

/** The salt of test/support/test-config.ts, so imported hashes match live ones. */
export const testSalt = 'test-salt-0123456789abcdef';

/** A fixture of test/fixtures/import. */
export const fixture = (name: string) => join(import.meta.dirname, '..', '..', 'fixtures', 'import', name);

const silent = () => ({ update: () => {}, finish: () => {} });

/** Imports `paths` into `table` as the CLI does, with no output. */
export async function importInto(
  table: TestTable,
  paths: string[],
  options: { from?: SourceFormat; sourceTimezone?: string; mergePaths?: MergeRule } = {},
) {
  const { mergePaths, ...reading } = options;
  const { files } = await readInputs(paths);
  const source = await readSource(files, { sourceTimezone: reading.sourceTimezone ?? 'UTC', ...reading });
  const plan = planImport(source, { ipHashSalt: testSalt, ...(mergePaths ? { mergePaths } : {}) });
  const client = createDocumentClient({ endpoint: table.endpoint });
  try {
    const outcome = await runImport(
      plan,
      createImportRepository(client, table.tableName),
      silent,
      createAccountRepository(client, table.tableName),
    );
    return { plan, outcome };
  } finally {
    client.destroy();
  }
}

/** Every item of `table`, read consistently. */
export async function scanAll(table: TestTable): Promise<Record<string, unknown>[]> {
  const client = createDocumentClient({ endpoint: table.endpoint });
  try {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({ TableName: table.tableName, ConsistentRead: true, ExclusiveStartKey: start }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  } finally {
    client.destroy();
  }
}

/** The author's account id (`userId`) of each comment of `table`, by its text; null for none. */
export async function authorsByText(table: TestTable): Promise<Record<string, unknown>> {
  const comments = (await scanAll(table)).filter((item) => item.entity === entities.comment);
  return Object.fromEntries(comments.map((item) => [item.orig, item.userId ?? null]));
}
