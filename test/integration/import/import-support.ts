import { join } from 'node:path';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { createImportRepository } from '../../../scripts/shared/storage/import-repository.js';
import { readSource } from '../../../scripts/import/detect.js';
import type { MergeRule } from '../../../scripts/import/page-keys.js';
import { planImport } from '../../../scripts/import/plan.js';
import { readInputs } from '../../../scripts/import/read-input.js';
import { runImport } from '../../../scripts/import/run-import.js';
import type { SourceFormat } from '../../../scripts/import/source.js';
import type { TestTable } from '../../support/test-table.js';

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
    const outcome = await runImport(plan, createImportRepository(client, table.tableName), silent);
    return { plan, outcome };
  } finally {
    client.destroy();
  }
}
