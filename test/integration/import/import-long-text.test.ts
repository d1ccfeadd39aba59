import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../functions/shared/domain/limits.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { importInto } from './import-support.js';

describe('import of a text longer than visitors may post', () => {
  let table: TestTable;
  let folder: string;

  beforeAll(async () => {
    table = await createTestTable();
    folder = await mkdtemp(join(tmpdir(), 'marginalia-long-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
    await table.drop();
  });

  it('keeps the whole text when it fits one item, though a visitor could not post it', async () => {
    const text = `${'A long essay. '.repeat(8_000)}The end.`;
    expect(text.length).toBeGreaterThan(limits.commentChars);
    const file = join(folder, 'waline.json');
    await writeFile(
      file,
      JSON.stringify({
        type: 'waline',
        version: 1,
        tables: ['Comment'],
        data: {
          Comment: [
            {
              objectId: 1,
              comment: text,
              insertedAt: '2026-11-21 20:17:24',
              nick: 'Essayist',
              mail: 'essay@example.org',
              status: 'approved',
              url: '/long',
              like: 0,
            },
          ],
        },
      }),
    );

    const { outcome } = await importInto(table, [file]);

    expect(outcome.skipped).toEqual([]);
    const api = createLocalApi(table);
    const { body } = await api.call({ path: '/api/comment', query: 'path=%2Flong' });
    expect(body.data.data).toHaveLength(1);
    expect(body.data.data[0].orig).toBe(text);
    expect(body.data.data[0].textOmitted).toBeUndefined();
  });
});
