import { decodeTime } from 'ulid';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../../functions/shared/domain/account.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { createAccountRepository } from '../../../functions/shared/table/account-repository.js';
import { entities } from '../../../functions/shared/table/keys.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { authorsByText, fixture, importInto, scanAll, testSalt } from './import-support.js';
import { readInputs } from '../../../scripts/import/read-input.js';
import { readSource } from '../../../scripts/import/detect.js';
import { planImport } from '../../../scripts/import/plan.js';
import { runImport } from '../../../scripts/import/run-import.js';
import { createImportRepository } from '../../../scripts/shared/storage/import-repository.js';

/** The password of Waline's user 1 (admin@example.com) in waline-users.json, hashed there by phpass (bcrypt). */
const adminPassword = 'waline password one';

/** The accounts of `table` by address, read through the account store. */
async function accountsOf(table: TestTable, emails: string[]): Promise<Record<string, Account | undefined>> {
  const client = createDocumentClient({ endpoint: table.endpoint });
  try {
    const repository = createAccountRepository(client, table.tableName);
    return Object.fromEntries(
      await Promise.all(emails.map(async (email) => [email, await repository.findByEmail(email)] as const)),
    );
  } finally {
    client.destroy();
  }
}

describe("import of Waline's Users", () => {
  const tables: TestTable[] = [];
  const freshTable = async () => {
    const table = await createTestTable();
    tables.push(table);
    return table;
  };
  const importUsers = (table: TestTable) =>
    importInto(table, [fixture('waline-users.json')], { sourceTimezone: 'UTC' });
  let table: TestTable;
  let first: Awaited<ReturnType<typeof importUsers>>;

  beforeAll(async () => {
    table = await freshTable();
    first = await importUsers(table);
  });
  afterAll(() => Promise.all(tables.map((each) => each.drop())));

  it('creates one account per address, administrator first, and skips the others with a reason', async () => {
    expect(first.outcome.accounts).toEqual({ created: 5, alreadyThere: 0, matchedByAddress: 0 });
    const skips = first.outcome.skipped.filter((skip) => skip.ref.includes('Users'));
    expect(skips).toEqual([
      {
        ref: 'waline-users.json Users[5]',
        reason:
          'its address is that of waline-users.json Users[0] once normalised (admin@example.com); the first was kept',
      },
      {
        ref: 'waline-users.json Users[4]',
        reason:
          'its address is that of waline-users.json Users[1] once normalised (gwen@gmail.com); the first was kept',
      },
      {
        ref: 'waline-users.json Users[7]',
        reason: 'its email is missing or not one address (its comments keep the name only)',
      },
    ]);
    const accounts = await accountsOf(table, ['admin@example.com', 'g.wen+x@gmail.com', 'tom@example.com']);
    expect(accounts['admin@example.com']).toMatchObject({
      displayName: 'Admin Waline',
      link: 'https://admin.example',
      label: 'Owner',
      type: 'administrator',
      state: 'active',
      walineId: '1',
      createdAt: Date.UTC(2026, 0, 2, 10),
    });
    expect(accounts['admin@example.com']?.passwordHash).toMatch(/^\$2a\$08\$/);
    expect(decodeTime(accounts['admin@example.com']?.id as string)).toBe(Date.UTC(2026, 0, 2, 10));
    // The Gmail address of user 2 is found under any spelling; user 5's spelling did not make a second account.
    expect(accounts['g.wen+x@gmail.com']).toMatchObject({ displayName: 'Gwen', email: 'gwen@gmail.com' });
    expect(accounts['tom@example.com']).toMatchObject({ passwordHash: '', label: 'VIP' });
    expect(accounts['tom@example.com']).not.toHaveProperty('totp');
  });

  it('keeps banned users banned and unconfirmed users unconfirmed when their Waline type says so', async () => {
    const accounts = await accountsOf(table, ['spam@example.net', 'pending@example.org']);

    expect(accounts['spam@example.net']).toMatchObject({ type: 'banned', state: 'active' });
    expect(accounts['pending@example.org']).toMatchObject({ type: 'guest', state: 'unconfirmed' });
  });

  it('stores on each comment the id of its imported author, and the name alone when its user is not imported', async () => {
    const accounts = await accountsOf(table, [
      'admin@example.com',
      'gwen@gmail.com',
      'tom@example.com',
      'spam@example.net',
    ]);
    const idOf = (email: string) => accounts[email]?.id;

    const authors = await authorsByText(table);

    expect(authors).toEqual({
      'Welcome, from the owner': idOf('admin@example.com'),
      'Gwen was here': idOf('gwen@gmail.com'),
      'Second account of Gwen': null,
      'A user without mail': null,
      'A user that was deleted': null,
      'Anonymous visitor': null,
      'Tom answers Gwen': idOf('tom@example.com'),
      'Buy things': idOf('spam@example.net'),
    });
    const comments = (await scanAll(table)).filter((item) => item.entity === entities.comment);
    expect(comments.find((item) => item.orig === 'Second account of Gwen')).toMatchObject({
      nick: 'G Wen',
      mail: 'G.Wen+waline@Gmail.com',
    });
    expect(first.outcome.withAccount).toBe(4);
  });

  it('signs the imported administrator in with the Waline password, which then gets the project hash', async () => {
    // A table of its own: the sign-in replaces the hash the other tests read.
    const own = await freshTable();
    await importUsers(own);
    const api = createLocalApi(own, { JWT_TOKEN: 'j'.repeat(40) });
    const hashOf = async () =>
      (await accountsOf(own, ['admin@example.com']))['admin@example.com']?.passwordHash;
    expect(await hashOf()).toMatch(/^\$2a\$08\$/);

    const signIn = await api.call({
      method: 'POST',
      path: '/api/token',
      body: { email: 'admin@example.com', password: adminPassword },
    });

    expect(signIn.body).toMatchObject({
      errno: 0,
      data: { type: 'administrator', display_name: 'Admin Waline' },
    });
    expect(await hashOf()).toMatch(/^scrypt\$/);
  });

  it('refuses every password of an account whose Waline hash was not kept, until it resets one', async () => {
    const api = createLocalApi(table, { JWT_TOKEN: 'j'.repeat(40) });

    const signIns = await Promise.all(
      ['', 'waline password one', '$P$Babcdefghijklmnopqrstuvwxyz012'].map((password) =>
        api.call({ method: 'POST', path: '/api/token', body: { email: 'tom@example.com', password } }),
      ),
    );

    expect((await accountsOf(table, ['tom@example.com']))['tom@example.com']).toMatchObject({
      state: 'active',
    });
    for (const signIn of signIns) expect(signIn.body.data?.token).toBeUndefined();
  });

  it('changes nothing when it runs a second time', async () => {
    const again = await freshTable();
    await importUsers(again);
    const before = await scanAll(again);

    const { outcome } = await importUsers(again);

    expect(outcome.accounts).toEqual({ created: 0, alreadyThere: 5, matchedByAddress: 0 });
    expect(outcome.imported).toEqual({ approved: 0, waiting: 0, spam: 0 });
    const byKey = (items: Record<string, unknown>[]) =>
      Object.fromEntries(items.map((item) => [`${String(item.pk)} ${String(item.sk)}`, item]));
    expect(byKey(await scanAll(again))).toEqual(byKey(before));
  });

  it('maps a user to the account that already has its address, leaving that account as it was', async () => {
    const live = await freshTable();
    const client = createDocumentClient({ endpoint: live.endpoint });
    const existing: Account = {
      id: '01KEXISTING000000000000000',
      email: 'Gwen@gmail.com',
      displayName: 'Gwen Live',
      type: 'guest',
      state: 'active',
      passwordHash: 'scrypt-live-hash',
      sessionVersion: 2,
      createdAt: 1,
    };
    await createAccountRepository(client, live.tableName).create(existing);
    client.destroy();

    const { outcome } = await importUsers(live);

    expect(outcome.accounts).toEqual({ created: 4, alreadyThere: 0, matchedByAddress: 1 });
    expect((await authorsByText(live))['Gwen was here']).toBe(existing.id);
    expect((await accountsOf(live, ['gwen@gmail.com']))['gwen@gmail.com']).toEqual(existing);
  });
});

describe('an import run again on comments an import wrote before accounts', () => {
  let table: TestTable;
  afterAll(() => table.drop());

  it("gives those comments their author's account once, and nothing the next time", async () => {
    table = await createTestTable();
    const { files } = await readInputs([fixture('waline-users.json')]);
    const plan = planImport(await readSource(files, { sourceTimezone: 'UTC' }), { ipHashSalt: testSalt });
    const client = createDocumentClient({ endpoint: table.endpoint });
    const silent = () => ({ update: () => {}, finish: () => {} });
    // What the importer wrote before it read Users: the same comments, no account.
    await runImport({ ...plan, accounts: [] }, createImportRepository(client, table.tableName), silent);
    client.destroy();
    expect(Object.values(await authorsByText(table)).filter(Boolean)).toEqual([]);

    const upgrade = await importInto(table, [fixture('waline-users.json')], { sourceTimezone: 'UTC' });
    const again = await importInto(table, [fixture('waline-users.json')], { sourceTimezone: 'UTC' });

    expect(upgrade.outcome).toMatchObject({ alreadyThere: 8, authorsLinked: 4 });
    expect(again.outcome).toMatchObject({ alreadyThere: 8, authorsLinked: 0 });
    const accounts = await accountsOf(table, ['admin@example.com', 'tom@example.com']);
    const authors = await authorsByText(table);
    expect(authors['Welcome, from the owner']).toBe(accounts['admin@example.com']?.id);
    expect(authors['Tom answers Gwen']).toBe(accounts['tom@example.com']?.id);
    expect(authors['Second account of Gwen']).toBeNull();
  });
});

describe("import of Waline's Users from LeanCloud", () => {
  let table: TestTable;
  afterEach(() => table.drop());

  it('maps string user_ids when the export comes from LeanCloud storage', async () => {
    table = await createTestTable();

    const { outcome } = await importInto(table, [fixture('waline-users-leancloud.json')]);

    expect(outcome.accounts.created).toBe(3);
    const accounts = await accountsOf(table, ['lea@example.com', 'leo@example.com', 'lou@example.com']);
    expect(accounts['lou@example.com']).toMatchObject({
      state: 'unconfirmed',
      walineId: '6a0100000000000000000003',
    });
    expect(await authorsByText(table)).toEqual({
      'Lea speaks': accounts['lea@example.com']?.id,
      'Leo answers': accounts['leo@example.com']?.id,
      'A visitor': null,
    });
  });

  it("reads the Users class file of LeanCloud's console export beside the Comment class", async () => {
    table = await createTestTable();

    const { outcome } = await importInto(table, [fixture('leancloud-users/Comment.0.jsonl')]);

    expect(outcome.accounts.created).toBe(2);
    const accounts = await accountsOf(table, ['cleo@example.com', 'cody@example.com']);
    expect(accounts['cleo@example.com']).toMatchObject({
      type: 'administrator',
      walineId: '6b0000000000000000000001',
    });
    expect(accounts['cody@example.com']).not.toHaveProperty('avatar');
    expect(await authorsByText(table)).toEqual({
      'Cleo writes': accounts['cleo@example.com']?.id,
      'Cody writes': accounts['cody@example.com']?.id,
    });
  });
});
