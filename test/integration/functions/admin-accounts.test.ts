import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminAccount,
  type AdminRepository,
  createAdminRepository,
} from '../../../functions/shared/storage/admin-repository.js';
import { createDocumentClient } from '../../../functions/shared/storage/client.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

/** What `npm run admin` does to accounts (scripts/admin.ts), on DynamoDB Local. */
describe('administrator accounts', () => {
  let table: TestTable;
  let admins: AdminRepository;
  const account = (email: string, over: Partial<AdminAccount> = {}): AdminAccount => ({
    id: `01${email.slice(0, 6).toUpperCase()}`,
    email,
    displayName: email.split('@')[0] ?? '',
    passwordHash: 'scrypt$not-a-real-hash',
    createdAt: 1_700_000_000_000,
    ...over,
  });

  beforeAll(async () => {
    table = await createTestTable();
    admins = createAdminRepository(createDocumentClient({ endpoint: table.endpoint }), table.tableName);
  });
  afterAll(() => table.drop());

  it('adds an account once, and replaces it only when asked to', async () => {
    expect(await admins.save(account('once@example.com'))).toBe(true);
    expect(await admins.save(account('once@example.com', { displayName: 'Intruder' }))).toBe(false);
    expect((await admins.find('once@example.com'))?.displayName).toBe('once');

    expect(
      await admins.save(account('once@example.com', { displayName: 'Renamed' }), { replace: true }),
    ).toBe(true);
    expect((await admins.find('ONCE@example.com'))?.displayName).toBe('Renamed');
  });

  it('lists the accounts by email, without their password hashes', async () => {
    await admins.save(account('zed@example.com'));
    await admins.save(account('amy@example.com', { displayName: '' }));

    const listed = await admins.list();

    const mine = listed.filter((a) => ['amy@example.com', 'zed@example.com'].includes(a.email));
    expect(mine).toEqual([
      { id: '01AMY@EX', email: 'amy@example.com', displayName: '', createdAt: 1_700_000_000_000 },
      { id: '01ZED@EX', email: 'zed@example.com', displayName: 'zed', createdAt: 1_700_000_000_000 },
    ]);
    expect(listed.map((a) => a.email)).toEqual([...listed.map((a) => a.email)].sort());
    expect(JSON.stringify(listed)).not.toContain('scrypt');
  });

  it('removes an account, and says when there was none', async () => {
    await admins.save(account('gone@example.com'));

    expect(await admins.remove('gone@example.com')).toBe(true);
    expect(await admins.find('gone@example.com')).toBeUndefined();
    expect(await admins.remove('gone@example.com')).toBe(false);
  });
});
