import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../functions/shared/auth/password.js';
import { createAdminRepository } from '../../../functions/shared/storage/admin-repository.js';
import { createDocumentClient } from '../../../functions/shared/storage/client.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

/** Runs `npm run admin -- ...args` as a user would, with `input` piped as the password. */
function runAdmin(args: string[], input: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(input);
  });
}

describe('npm run admin', () => {
  let table: TestTable;
  let target: string[];

  beforeAll(async () => {
    table = await createTestTable();
    target = ['--endpoint', table.endpoint, '--table', table.tableName];
  });
  afterAll(() => table.drop());

  it('creates an administrator with a scrypt hash and never prints the password', async () => {
    const password = 'a very long secret phrase';

    const { code, output } = await runAdmin(
      ['add', 'Boss@Example.com', '--name', 'Boss', ...target],
      `${password}\n`,
    );

    expect(code).toBe(0);
    expect(output).toContain('Administrator boss@example.com saved');
    expect(output).not.toContain(password);
    const account = await createAdminRepository(
      createDocumentClient({ endpoint: table.endpoint }),
      table.tableName,
    ).find('boss@example.com');
    expect(account).toMatchObject({ email: 'boss@example.com', displayName: 'Boss' });
    expect(await verifyPassword(password, account?.passwordHash ?? '')).toBe(true);
  });

  it('refuses to replace an existing administrator unless asked, and refuses short passwords', async () => {
    const again = await runAdmin(['add', 'boss@example.com', ...target], 'another long password\n');
    const short = await runAdmin(['add', 'new@example.com', ...target], 'short\n');
    const notEmail = await runAdmin(['add', 'not-an-email', ...target], 'a long enough password\n');

    expect(again.code).toBe(1);
    expect(again.output).toContain('already an administrator');
    expect(short.code).toBe(1);
    expect(short.output).toContain('at least 12 characters');
    expect(notEmail.code).toBe(1);
    expect(notEmail.output).toContain('not an email address');
  });
});
