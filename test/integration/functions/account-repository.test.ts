import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../../functions/shared/domain/account.js';
import {
  type AccountRepository,
  createAccountRepository,
} from '../../../functions/shared/table/account-repository.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

/** The account store (table/account-repository.ts) on DynamoDB Local. */
describe('the account store', () => {
  let table: TestTable;
  let accounts: AccountRepository;
  let client: ReturnType<typeof createDocumentClient>;
  let serial = 0;
  const account = (email: string, over: Partial<Account> = {}): Account => ({
    // ULID-like ids in creation order: the list reads them newest first.
    id: `01K${String(++serial).padStart(23, '0')}`,
    email,
    displayName: email.split('@')[0] ?? '',
    type: 'guest',
    state: 'active',
    passwordHash: 'scrypt$not-a-real-hash',
    sessionVersion: 0,
    createdAt: 1_700_000_000_000,
    ...over,
  });
  const item = async (pk: string, sk: string) =>
    (await client.send(new GetCommand({ TableName: table.tableName, Key: { pk, sk }, ConsistentRead: true })))
      .Item;

  beforeAll(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
    accounts = createAccountRepository(client, table.tableName, () => 1_800_000_000_000);
  });
  afterAll(() => table.drop());

  it('creates an account with its address claim, and gives an address one account only', async () => {
    const first = account('Jo.Doe+blog@Gmail.com', { link: 'https://jo.example' });
    const other = account('jodoe@gmail.com');

    expect(await accounts.create(first)).toBe('created');
    expect(await accounts.create(other)).toBe('exists');
    expect(await accounts.create(first)).toBe('exists');

    expect(await accounts.findById(first.id)).toEqual(first);
    expect(await accounts.findByEmail('JODOE@gmail.com')).toEqual(first);
    expect(await accounts.findById(other.id)).toBeUndefined();
    expect(await item('EMAIL#jodoe@gmail.com', 'USER')).toMatchObject({ id: first.id, type: 'guest' });
    // In the accounts' partition of the held-by-time index, by id.
    expect(await item(`USER#${first.id}`, 'USER')).toMatchObject({ heldPk: 'ACCOUNTS', heldSk: first.id });
  });

  it('keeps an account made from an external identity by its link, with no address claim, through changes and removal', async () => {
    const identity = { provider: 'oidc:https://issuer.example', subject: 'sub#1' };
    const holder = account('shared@example.com');
    const linked = { ...account('shared@example.com', { passwordHash: '', emailVerified: false }), identity };
    await accounts.create(holder);

    expect(await accounts.createWithIdentity(linked)).toBe('created');
    // A second first sign-in of the identity writes nothing, whatever its id.
    expect(await accounts.createWithIdentity({ ...linked, id: account('x@example.com').id })).toBe('exists');
    expect(await accounts.findByIdentity(identity.provider, identity.subject)).toEqual(linked);
    // The address stays the password account's: an identity never takes it.
    expect(await accounts.findByEmail('shared@example.com')).toEqual(holder);
    expect(await item(`IDENTITY#${identity.provider}#${identity.subject}`, 'USER')).toMatchObject({
      id: linked.id,
    });

    // A ban and an address change touch the linked account alone, never the password account's claim.
    const banned = await accounts.update(linked.id, { type: 'banned', email: 'new@example.com' });
    expect(banned).toMatchObject({
      status: 'updated',
      account: { type: 'banned', email: 'new@example.com' },
    });
    expect(await item('EMAIL#shared@example.com', 'USER')).toMatchObject({ id: holder.id, type: 'guest' });
    expect(await item('EMAIL#new@example.com', 'USER')).toBeUndefined();
    // Its address is a contact, which moved with it.
    expect(await item('CONTACT#shared@example.com', `USER#${linked.id}`)).toBeUndefined();
    expect(await item('CONTACT#new@example.com', `USER#${linked.id}`)).toMatchObject({ id: linked.id });
    // The new address was proven by its link: the provider's doubt about the former one does not stay.
    expect(banned.status === 'updated' && banned.account).not.toHaveProperty('emailVerified');

    expect(await accounts.remove(linked.id)).toBe(true);
    expect(await accounts.findByIdentity(identity.provider, identity.subject)).toBeUndefined();
    expect(await accounts.findByEmail('shared@example.com')).toEqual(holder);
    expect(await item('CONTACT#new@example.com', `USER#${linked.id}`)).toBeUndefined();
  });

  it('finds the identities that carry an address, and takes it off them, a few at a time, for an erase', async () => {
    const identityOf = (subject: string) => ({ provider: 'github', subject });
    const holder = account('carried@example.com');
    const first = {
      ...account('Carried+blog@Example.com', { passwordHash: '', emailVerified: true }),
      identity: identityOf('101'),
    };
    const second = { ...account('carried@example.com', { passwordHash: '' }), identity: identityOf('102') };
    const subject = { ...account('carried@example.com', { passwordHash: '' }), identity: identityOf('105') };
    const elsewhere = { ...account('other@example.com', { passwordHash: '' }), identity: identityOf('103') };
    const moved = { ...account('carried@example.com', { passwordHash: '' }), identity: identityOf('104') };
    await accounts.create(holder);
    for (const made of [first, second, subject, elsewhere, moved]) {
      expect(await accounts.createWithIdentity(made)).toBe('created');
    }
    await accounts.update(moved.id, { email: 'moved@example.com' });

    const carrying = await accounts.findByContact('CARRIED@example.com', 10);
    expect(carrying.map((found) => found.id).sort()).toEqual([first.id, second.id, subject.id].sort());

    // One at a time, the erase's own subject kept as it is.
    expect(await accounts.forgetContact('carried@example.com', 1, subject.id)).toEqual({
      forgotten: 1,
      more: true,
    });
    expect(await accounts.forgetContact('carried@example.com', 1, subject.id)).toEqual({
      forgotten: 1,
      more: true,
    });
    expect(await accounts.forgetContact('carried@example.com', 1, subject.id)).toEqual({
      forgotten: 0,
      more: false,
    });
    for (const { id } of [first, second]) {
      const after = await accounts.findById(id);
      expect(after).toMatchObject({ email: '' });
      expect(after).not.toHaveProperty('emailVerified');
      expect(after?.identity).toBeDefined();
      expect(await item('CONTACT#carried@example.com', `USER#${id}`)).toBeUndefined();
    }
    expect(await accounts.findByIdentity('github', '101')).toMatchObject({ id: first.id });
    expect(await accounts.findByContact('carried@example.com', 10)).toEqual([subject]);
    // The password account that claims the address, and the identities elsewhere, are not touched.
    expect(await accounts.findByEmail('carried@example.com')).toEqual(holder);
    expect(await accounts.findById(elsewhere.id)).toEqual(elsewhere);
    expect(await accounts.findById(moved.id)).toMatchObject({ email: 'moved@example.com' });
    expect(await accounts.forgetContact('carried@example.com', 10)).toEqual({ forgotten: 1, more: false });
    expect(await accounts.findByContact('carried@example.com', 10)).toEqual([]);
  });

  it('updates only while the session version is the expected one; revoking adds 1', async () => {
    const created = account('version@example.com');
    await accounts.create(created);

    const revoked = await accounts.update(created.id, { passwordHash: 'scrypt$new', revokeTokens: true }, 0);
    const stale = await accounts.update(created.id, { displayName: 'Late' }, 0);
    const renamed = await accounts.update(created.id, { displayName: 'Renamed', link: 'https://v.example' });
    const unlinked = await accounts.update(created.id, { link: '' }, 1);
    const missing = await accounts.update('01NOSUCHACCOUNT', { displayName: 'Ghost' });

    expect(revoked).toMatchObject({
      status: 'updated',
      account: { sessionVersion: 1, passwordHash: 'scrypt$new' },
    });
    expect(stale).toEqual({ status: 'stale' });
    expect(renamed).toMatchObject({
      status: 'updated',
      account: { displayName: 'Renamed', link: 'https://v.example' },
    });
    expect(unlinked.status === 'updated' && unlinked.account).not.toHaveProperty('link');
    expect(unlinked).toMatchObject({ account: { updatedAt: 1_800_000_000_000 } });
    expect(missing).toEqual({ status: 'stale' });
    // An update on a missing key never creates an account.
    expect(await item('USER#01NOSUCHACCOUNT', 'USER')).toBeUndefined();
  });

  it('moves the address claim with a change of address, and refuses an address another account has', async () => {
    const mover = account('mover@example.com');
    const holder = account('holder@example.com');
    await accounts.create(mover);
    await accounts.create(holder);

    const taken = await accounts.update(mover.id, { email: 'Holder@example.com' });
    const moved = await accounts.update(mover.id, { email: 'moved@example.com' });

    expect(taken).toEqual({ status: 'address-taken' });
    expect(moved).toMatchObject({ status: 'updated', account: { email: 'moved@example.com' } });
    expect(await item('EMAIL#mover@example.com', 'USER')).toBeUndefined();
    expect(await item('EMAIL#moved@example.com', 'USER')).toMatchObject({ id: mover.id });
    expect(await item('EMAIL#holder@example.com', 'USER')).toMatchObject({ id: holder.id });
    expect((await accounts.findByEmail('moved@example.com'))?.id).toBe(mover.id);
  });

  it('keeps the type on the address claim as it changes', async () => {
    const promoted = account('promoted@example.com');
    await accounts.create(promoted);

    expect(await accounts.update(promoted.id, { type: 'administrator' })).toMatchObject({
      status: 'updated',
    });
    expect(await item('EMAIL#promoted@example.com', 'USER')).toMatchObject({ type: 'administrator' });
    expect(await accounts.update(promoted.id, { type: 'banned', revokeTokens: true }, 1)).toEqual({
      status: 'stale',
    });
    expect(await item('EMAIL#promoted@example.com', 'USER')).toMatchObject({ type: 'administrator' });
  });

  it('removes an account with its claim, once', async () => {
    const gone = account('gone@example.com');
    await accounts.create(gone);

    expect(await accounts.remove(gone.id)).toBe(true);
    expect(await accounts.remove(gone.id)).toBe(false);
    expect(await accounts.findById(gone.id)).toBeUndefined();
    expect(await item('EMAIL#gone@example.com', 'USER')).toBeUndefined();
    // The address is free again.
    expect(await accounts.create(account('gone@example.com'))).toBe('created');
  });
});

/** The administrators' list of accounts: a table of its own, since tests run in a shuffled order. */
describe('the account list', () => {
  let table: TestTable;
  let accounts: AccountRepository;
  const ids = Array.from({ length: 5 }, (_, n) => `01K${String(n).padStart(23, '0')}`);

  beforeAll(async () => {
    table = await createTestTable();
    accounts = createAccountRepository(createDocumentClient({ endpoint: table.endpoint }), table.tableName);
    for (const id of ids) {
      await accounts.create({
        id,
        email: `${id}@example.com`,
        displayName: id,
        type: 'guest',
        state: 'active',
        passwordHash: 'scrypt$x',
        sessionVersion: 0,
        createdAt: 0,
      });
    }
    // One more, removed: the count follows removals too.
    await accounts.create({
      id: '01K9',
      email: 'removed@example.com',
      displayName: 'removed',
      type: 'guest',
      state: 'active',
      passwordHash: 'scrypt$x',
      sessionVersion: 0,
      createdAt: 0,
    });
    await accounts.remove('01K9');
  });
  afterAll(() => table.drop());

  it('lists pages newest first from the index, with the count kept by create and remove', async () => {
    const newestFirst = [...ids].reverse();

    const first = await accounts.listPage(1, 2);
    const second = await accounts.listPage(2, 2);
    const third = await accounts.listPage(3, 2);
    const beyond = await accounts.listPage(99, 2);

    expect(first).toMatchObject({ total: 5 });
    expect([first, second, third].map((page) => page.accounts.map((listed) => listed.id))).toEqual([
      newestFirst.slice(0, 2),
      newestFirst.slice(2, 4),
      newestFirst.slice(4),
    ]);
    expect(beyond).toEqual({ accounts: [], total: 5 });
    expect(first.accounts[0]).toEqual(await accounts.findById(newestFirst[0] ?? ''));
    expect((await accounts.listAll()).map((listed) => listed.id)).toEqual(newestFirst);
  });

  it('reads page p with at most p * pageSize index keys and one BatchGet, never a Scan', async () => {
    const sent: string[] = [];
    const limits: unknown[] = [];
    const counting = createDocumentClient({ endpoint: table.endpoint });
    counting.middlewareStack.add(
      (next, context) => async (args) => {
        sent.push(String(context.commandName));
        limits.push((args.input as { Limit?: number }).Limit);
        return next(args);
      },
      { step: 'initialize' },
    );

    const page = await createAccountRepository(counting, table.tableName).listPage(2, 2);

    expect(sent).toEqual(['QueryCommand', 'BatchGetItemCommand']);
    expect(limits[0]).toBe(4);
    expect(page.accounts.map((listed) => listed.id)).toEqual([ids[2], ids[1]]);
  });
});
