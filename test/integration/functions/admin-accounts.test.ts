import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminAccount,
  type AdminRepository,
  createAdminRepository,
} from '../../../functions/shared/table/admin-repository.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
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

  it('reads an account saved without a link as having none, and sets, keeps and removes one', async () => {
    await admins.save(account('linked@example.com'));
    const { id } = account('linked@example.com');
    expect(await admins.find('linked@example.com')).not.toHaveProperty('link');

    const linked = await admins.update('linked@example.com', id, { link: 'https://linked.example' });
    const renamed = await admins.update('linked@example.com', id, { displayName: 'Linked' });
    const unlinked = await admins.update('linked@example.com', id, { link: '' });

    expect(linked?.link).toBe('https://linked.example');
    expect(renamed).toMatchObject({ displayName: 'Linked', link: 'https://linked.example' });
    expect(unlinked).not.toHaveProperty('link');
    expect(await admins.find('linked@example.com')).toEqual(unlinked);
  });

  it('changes the password and the id together, and only of the account with the id given', async () => {
    await admins.save(account('rotate@example.com'));
    const { id } = account('rotate@example.com');
    const password = { passwordHash: 'scrypt$new-hash', id: '01ROTATED' };

    expect(await admins.update('rotate@example.com', 'not-its-id', { password })).toBeUndefined();
    expect((await admins.find('rotate@example.com'))?.id).toBe(id);

    const rotated = await admins.update('rotate@example.com', id, { password });
    expect(rotated).toMatchObject({ id: '01ROTATED', passwordHash: 'scrypt$new-hash' });
    // The old id no longer names it: a second change with it is refused.
    expect(await admins.update('rotate@example.com', id, { displayName: 'Late' })).toBeUndefined();
    expect(await admins.update('rotate@example.com', id, {})).toBeUndefined();
    expect((await admins.find('rotate@example.com'))?.displayName).toBe('rotate');
  });

  it('never recreates an account removed before its update', async () => {
    await admins.save(account('ghost@example.com'));
    const { id } = account('ghost@example.com');
    await admins.remove('ghost@example.com');

    expect(await admins.update('ghost@example.com', id, { displayName: 'Ghost' })).toBeUndefined();
    expect(await admins.find('ghost@example.com')).toBeUndefined();
  });

  it('removes an account, and says when there was none', async () => {
    await admins.save(account('gone@example.com'));

    expect(await admins.remove('gone@example.com')).toBe(true);
    expect(await admins.find('gone@example.com')).toBeUndefined();
    expect(await admins.remove('gone@example.com')).toBe(false);
  });
});
