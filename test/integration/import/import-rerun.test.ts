import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { createImportRepository } from '../../../scripts/shared/storage/import-repository.js';
import { keys } from '../../../functions/shared/table/keys.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { importInto } from './import-support.js';
import { signInTestAdministrator } from '../../support/administrator.js';

/** A Waline export of `comments` (objectId, url, comment and optional fields). */
const walineExport = (comments: Record<string, unknown>[]) =>
  JSON.stringify({
    type: 'waline',
    version: 1,
    tables: ['Comment'],
    data: {
      Comment: comments.map((comment) => ({
        insertedAt: '2026-11-21 20:17:24',
        nick: 'Reader',
        mail: 'reader@example.org',
        status: 'approved',
        like: 0,
        ...comment,
      })),
    },
  });

describe('an import run again after moderation', () => {
  let table: TestTable;
  let folder: string;
  let api: ReturnType<typeof createLocalApi>;
  let authorization: string;
  const list = async (path: string) =>
    (await api.call({ path: '/api/comment', query: `path=${encodeURIComponent(path)}` })).body.data;

  beforeAll(async () => {
    table = await createTestTable();
    folder = await mkdtemp(join(tmpdir(), 'marginalia-rerun-'));
    api = createLocalApi(table, { JWT_TOKEN: 'j'.repeat(40) });
    authorization = await signInTestAdministrator(api);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
    await table.drop();
  });

  it('keeps a comment an administrator deleted deleted, and says so in the report', async () => {
    const file = join(folder, 'rerun.json');
    await writeFile(
      file,
      walineExport([
        { objectId: 1, url: '/import-rerun', comment: 'delete me' },
        { objectId: 2, url: '/import-rerun', comment: 'keep me' },
        { objectId: 3, url: '/import-rerun', comment: 'a reply to delete', pid: 2, rid: 2 },
      ]),
    );
    await importInto(table, [file]);
    const imported = (await list('/import-rerun')).data as {
      objectId: string;
      orig: string;
      children: { objectId: string }[];
    }[];
    const doomed = imported.find((comment) => comment.orig === 'delete me');
    const reply = imported.find((comment) => comment.orig === 'keep me')?.children[0];
    for (const comment of [doomed, reply]) {
      const deleted = await api.call({
        method: 'DELETE',
        path: `/api/comment/${comment?.objectId}`,
        headers: { authorization },
      });
      expect(deleted.status).toBe(200);
    }
    expect((await list('/import-rerun')).count).toBe(1);

    const { outcome } = await importInto(table, [file]);

    expect(outcome.imported).toEqual({ approved: 0, waiting: 0, spam: 0 });
    expect(outcome.alreadyThere).toBe(1);
    expect(outcome.skipped.map((skip) => skip.reason)).toEqual([
      'deleted by an administrator after an earlier import',
      'deleted by an administrator after an earlier import',
    ]);
    const after = await list('/import-rerun');
    expect(after.count).toBe(1);
    expect(after.data.map((comment: { orig: string }) => comment.orig)).toEqual(['keep me']);
    expect(
      (await api.call({ path: '/api/comment', query: 'type=count&url=%2Fimport-rerun' })).body.data,
    ).toEqual([1]);
  });

  it('drops imported links the live rules refuse: control characters, and schemes other than http(s)', async () => {
    const file = join(folder, 'links.json');
    await writeFile(
      file,
      walineExport([
        { objectId: 10, url: '/links', comment: 'control', link: '\u0001javascript:alert(document.domain)' },
        { objectId: 11, url: '/links', comment: 'script', link: 'javascript:alert(1)' },
        { objectId: 12, url: '/links', comment: 'web', link: 'https://reader.example' },
        { objectId: 13, url: '/links', comment: 'bare', link: 'reader.example' },
      ]),
    );

    const { plan } = await importInto(table, [file]);

    const links = Object.fromEntries(
      ((await list('/links')).data as { orig: string; link: string }[]).map((comment) => [
        comment.orig,
        comment.link,
      ]),
    );
    expect(links).toEqual({ control: '', script: '', web: 'https://reader.example', bare: 'reader.example' });
    expect([...plan.repairs.keys()].some((kind) => kind.includes('links'))).toBe(true);
  });

  it('dates each imported article from its oldest approved comment, whatever order the source lists them in, for READONLY_AGE', async () => {
    const file = join(folder, 'dated.json');
    await writeFile(
      file,
      walineExport([
        { objectId: 21, url: '/import-dated', comment: 'the later one', insertedAt: '2025-03-02 10:00:00' },
        { objectId: 22, url: '/import-dated', comment: 'the oldest', insertedAt: '2024-07-01 08:30:00' },
        { objectId: 23, url: '/import-dated', comment: 'a held reply', status: 'waiting', pid: 21, rid: 21 },
        // Held, and older: it dates nothing.
        {
          objectId: 24,
          url: '/import-dated',
          comment: 'held',
          status: 'spam',
          insertedAt: '2024-01-01 00:00:00',
        },
      ]),
    );

    await importInto(table, [file]);

    const client = createDocumentClient({ endpoint: table.endpoint });
    const page = await client.send(
      new GetCommand({
        TableName: table.tableName,
        Key: keys.pageCounters('/import-dated'),
        ConsistentRead: true,
      }),
    );
    client.destroy();
    expect(page.Item?.firstCommentAt).toBe(Date.parse('2024-07-01T08:30:00Z'));
  });

  it('reads whether comments are there already with consistent reads', async () => {
    const client = createDocumentClient({ endpoint: table.endpoint });
    const send = vi.spyOn(client, 'send');
    try {
      await createImportRepository(client, table.tableName).existing([keys.pageCounters('/links')]);

      const input = (send.mock.calls[0]?.[0] as BatchGetCommand).input;
      expect(input.RequestItems?.[table.tableName]?.ConsistentRead).toBe(true);
    } finally {
      client.destroy();
    }
  });
});
