import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../functions/shared/auth/password.js';
import { createAccountRepository } from '../../../functions/shared/table/account-repository.js';
import { createAccountTotpStore } from '../../../functions/shared/table/account-totp.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { createLocalApi } from '../../support/local-services.js';
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

  // A table for each test: tests add administrators and one lists them all.
  beforeEach(async () => {
    table = await createTestTable();
    target = ['--endpoint', table.endpoint, '--table', table.tableName];
  });
  afterEach(() => table.drop());

  it('creates an administrator with a scrypt hash and never prints the password', async () => {
    const password = 'a very long secret phrase';

    const { code, output } = await runAdmin(
      ['add', 'Boss@Example.com', '--name', 'Boss', ...target],
      `${password}\n`,
    );

    expect(code).toBe(0);
    expect(output).toContain('Administrator boss@example.com saved');
    expect(output).not.toContain(password);
    const account = await createAccountRepository(
      createDocumentClient({ endpoint: table.endpoint }),
      table.tableName,
    ).findByEmail('boss@example.com');
    expect(account).toMatchObject({
      email: 'boss@example.com',
      displayName: 'Boss',
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
    });
    expect(await verifyPassword(password, account?.passwordHash ?? '')).toBe(true);
  });

  it('refuses to replace an existing administrator unless asked, and refuses short passwords', async () => {
    expect((await runAdmin(['add', 'boss@example.com', ...target], 'a very long secret phrase\n')).code).toBe(
      0,
    );

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

  it('with --replace, sets a new password, revokes the tokens and keeps the profile: name, link, when added', async () => {
    expect(
      (
        await runAdmin(
          ['add', 'boss@example.com', '--name', 'Boss', ...target],
          'a very long secret phrase\n',
        )
      ).code,
    ).toBe(0);
    const accounts = createAccountRepository(
      createDocumentClient({ endpoint: table.endpoint }),
      table.tableName,
    );
    const before = await accounts.findByEmail('boss@example.com');
    await accounts.update(before?.id ?? '', { link: 'https://boss.example.com' });

    const replaced = await runAdmin(
      ['add', 'boss@example.com', '--replace', ...target],
      'a brand new long phrase\n',
    );

    expect(replaced.code).toBe(0);
    expect(replaced.output).toContain('given a new password');
    const after = await accounts.findByEmail('boss@example.com');
    expect(after).toMatchObject({
      displayName: 'Boss',
      link: 'https://boss.example.com',
      createdAt: before?.createdAt,
    });
    // The same account, one session version on: the tokens issued before stop working.
    expect(after?.id).toBe(before?.id);
    expect(after?.sessionVersion).toBe(1);
    expect(await verifyPassword('a brand new long phrase', after?.passwordHash ?? '')).toBe(true);
    expect(await verifyPassword('a very long secret phrase', after?.passwordHash ?? '')).toBe(false);
  });

  it('lists the administrators by email, without their password hashes', async () => {
    await runAdmin(['add', 'boss@example.com', '--name', 'Boss', ...target], 'a very long secret phrase\n');
    await runAdmin(['add', 'alice@example.com', '--name', 'Alice', ...target], 'alice has a long password\n');

    const { code, output } = await runAdmin(['list', ...target], '');

    expect(code).toBe(0);
    const lines = output.split('\n').filter((line) => line.includes('@'));
    expect(lines.map((line) => line.split('\t').slice(0, 2))).toEqual([
      ['alice@example.com', 'Alice'],
      ['boss@example.com', 'Boss'],
    ]);
    expect(output).not.toContain('scrypt');
  });

  it('removes an administrator, whose token then stops working, and says when there is none', async () => {
    const password = 'carol has a long password';
    await runAdmin(['add', 'carol@example.com', ...target], `${password}\n`);
    const api = createLocalApi(table, { JWT_TOKEN: 'j'.repeat(40) });
    const signIn = await api.call({
      method: 'POST',
      path: '/api/token',
      body: { email: 'carol@example.com', password },
    });
    const authorization = `Bearer ${signIn.body.data.token}`;
    expect((await api.call({ path: '/api/token', headers: { authorization } })).body.data).toMatchObject({
      email: 'carol@example.com',
    });

    const removed = await runAdmin(['remove', 'Carol@Example.com', ...target], '');
    const again = await runAdmin(['remove', 'carol@example.com', ...target], '');
    const listed = await runAdmin(['list', ...target], '');

    expect(removed.code).toBe(0);
    expect(removed.output).toContain('Administrator carol@example.com removed');
    expect((await api.call({ path: '/api/token', headers: { authorization } })).body.data).toEqual({});
    expect(again.code).toBe(1);
    expect(again.output).toContain('carol@example.com is not an administrator');
    expect(listed.output).not.toContain('carol@example.com');
  });

  it("turns an account's two-factor sign-in off, so the password alone signs in again (a rotated key, a lost phone)", async () => {
    const password = 'dave has a long password';
    await runAdmin(['add', 'dave@example.com', ...target], `${password}\n`);
    const client = createDocumentClient({ endpoint: table.endpoint });
    const account = await createAccountRepository(client, table.tableName).findByEmail('dave@example.com');
    // Enrolled under a token key since rotated: its sealed secret opens with no key the server has.
    const totp = createAccountTotpStore(client, table.tableName);
    await totp.startEnrolment(account!.id, 'sealed-under-a-former-key', Date.now() + 60_000);
    await totp.confirmEnrolment(account!.id, 'sealed-under-a-former-key', 1, ['h'], Date.now());
    const api = createLocalApi(table, { JWT_TOKEN: 'j'.repeat(40) });
    const signIn = () =>
      api.call({ method: 'POST', path: '/api/token', body: { email: 'dave@example.com', password } });
    expect((await signIn()).body.details).toEqual({ code: 'required' });

    const reset = await runAdmin(['reset-2fa', 'Dave@Example.com', ...target], '');
    const again = await runAdmin(['reset-2fa', 'dave@example.com', ...target], '');
    const nobody = await runAdmin(['reset-2fa', 'nobody@example.com', ...target], '');

    expect(reset.code).toBe(0);
    expect(reset.output).toContain('Two-factor sign-in of dave@example.com turned off');
    expect((await signIn()).status).toBe(200);
    expect(again.output).toContain('has no two-factor sign-in');
    expect(nobody.code).toBe(1);
    expect(nobody.output).toContain('nobody@example.com has no account');
  });

  it('prints the usage when a command is unknown or lacks its email', async () => {
    const unknown = await runAdmin(['delete', 'boss@example.com', ...target], '');
    const bare = await runAdmin(['remove', ...target], '');

    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('npm run admin -- remove <email>');
    expect(bare.code).toBe(1);
    expect(bare.output).toContain('usage:');
  });
});
