import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const root = join(import.meta.dirname, '..', '..', '..');
const fixture = (name: string) => join(root, 'test', 'fixtures', 'import', name);

/** Runs a CLI through tsx, as `npm run` does, and returns its exit code and output. */
function run(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      join(root, 'node_modules', '.bin', 'tsx'),
      [join(root, script), ...args],
      { cwd: root, env: { ...process.env, IP_HASH_SALT: 'cli-test-salt-0123456789' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run import and npm run export', () => {
  const tables: TestTable[] = [];
  let dir: string;
  const at = (t: TestTable) => ['--endpoint', t.endpoint, '--table', t.tableName];
  /** An empty table for one test: each test imports what it reads. */
  const freshTable = async () => {
    const table = await createTestTable();
    tables.push(table);
    return table;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'marginalia-cli-'));
  });
  afterAll(async () => {
    await Promise.all([...tables.map((table) => table.drop()), rm(dir, { recursive: true, force: true })]);
  });

  it('prints the report and writes nothing when run with --dry-run', async () => {
    const { code, stdout } = await run('scripts/import/cli.ts', [fixture('artalk.artrans'), '--dry-run']);

    expect(code).toBe(0);
    expect(stdout).toContain('Dry run (nothing written) from artalk');
    expect(stdout).toContain('comments to import: 6 (approved 5, waiting 1, spam 0)');
  });

  it('reads a gzipped Disqus export as the plain one when given forum.xml.gz', async () => {
    const file = join(dir, 'forum.xml.gz');
    await writeFile(file, gzipSync(await readFile(fixture('disqus.xml'))));

    const { code, stdout } = await run('scripts/import/cli.ts', [file, '--dry-run']);

    expect(code).toBe(0);
    expect(stdout).toContain('Dry run (nothing written) from disqus');
    expect(stdout).toContain('comments to import: 6 (approved 5, waiting 0, spam 1)');
  });

  it('imports, then skips everything when run twice on the same file', async () => {
    const table = await freshTable();
    const first = await run('scripts/import/cli.ts', [fixture('disqus.xml'), ...at(table)]);
    const second = await run('scripts/import/cli.ts', [
      fixture('disqus.xml'),
      '--from',
      'disqus',
      ...at(table),
    ]);

    expect(first.code).toBe(0);
    expect(first.stdout).toContain('comments imported: 6 (approved 5, waiting 0, spam 1)');
    expect(first.stderr).toContain('Writing: 12/12');
    // The approved comments count for their authors (the levels and the user wall).
    expect(first.stdout).toMatch(/Author level counters[\s\S]*approved comments: 5 /);
    expect(first.stdout).toMatch(/counters set: [1-9]/);
    expect(second.stdout).toContain('comments imported: 0');
    expect(second.stdout).toContain('comments already in the table (skipped): 6');
  });

  it('exits 1 naming the line and the rule when a JSON Lines file is malformed', async () => {
    const bad = join(dir, 'Comment.0.jsonl');
    await writeFile(
      bad,
      '#filetype:JSON-streaming {"type":"Class","class":"Comment"}\n{"objectId":"a"}\n{oops\n',
    );

    const { code, stderr } = await run('scripts/import/cli.ts', [bad, '--dry-run']);

    expect(code).toBe(1);
    expect(stderr).toMatch(/Comment\.0\.jsonl line 3: not valid JSON/);
  });

  it('exports a table that imports into an empty one with the same comments', async () => {
    const [table, copy] = await Promise.all([freshTable(), freshTable()]);
    expect((await run('scripts/import/cli.ts', [fixture('disqus.xml'), ...at(table)])).code).toBe(0);
    const file = join(dir, 'waline.json');
    const exported = await run('scripts/export/cli.ts', [file, ...at(table)]);
    const data = JSON.parse(await readFile(file, 'utf8'));
    const imported = await run('scripts/import/cli.ts', [file, ...at(copy)]);

    expect(exported.code).toBe(0);
    expect(data).toMatchObject({ type: 'waline', version: 1, tables: ['Comment', 'Counter', 'Users'] });
    expect(data.data.Comment).toHaveLength(6);
    expect(imported.stdout).toContain('Import from waline');
    expect(imported.stdout).toContain('comments imported: 6 (approved 5, waiting 0, spam 1)');
  });

  it("imports Waline's Users as accounts and exports them back without secrets", async () => {
    const [table, copy] = await Promise.all([freshTable(), freshTable()]);
    const imported = await run('scripts/import/cli.ts', [
      fixture('waline-users.json'),
      '--source-timezone',
      'UTC',
      ...at(table),
    ]);
    const file = join(dir, 'waline-accounts.json');
    const exported = await run('scripts/export/cli.ts', [file, ...at(table)]);
    const text = await readFile(file, 'utf8');
    const data = JSON.parse(text);
    const back = await run('scripts/import/cli.ts', [file, ...at(copy)]);

    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('accounts created: 5; already in the table: 0');
    expect(imported.stdout).toContain("comments written with their author's account: 4");
    expect(exported.stdout).toContain('and 5 accounts (without passwords)');
    expect(data.data.Users).toHaveLength(5);
    expect(data.data.Comment.filter((row: { user_id: unknown }) => row.user_id !== null)).toHaveLength(4);
    for (const secret of ['$2a$08$', '"password"', '"2fa"', 'passwordHash', 'JBSWY3DPEHPK3PXP']) {
      expect(text).not.toContain(secret);
    }
    expect(back.stdout).toContain('accounts created: 5');
    expect(back.stdout).toContain("comments written with their author's account: 4");
  });
});
