import { describe, expect, it } from 'vitest';
import type { Account } from '../../../../functions/shared/domain/account.js';
import { normalizeAddress } from '../../../../functions/shared/notify/normalize-address.js';
import type { PlannedAccount } from '../../../../scripts/import/plan-accounts.js';
import { type ImportAccounts, runAccounts } from '../../../../scripts/import/run-accounts.js';

const account = (id: string, email: string): Account => ({
  id,
  email,
  displayName: id,
  type: 'guest',
  state: 'active',
  passwordHash: '',
  sessionVersion: 0,
  createdAt: 1,
});
const planned = (sourceId: string, id: string, email: string): PlannedAccount => ({
  ref: `Users[${sourceId}]`,
  sourceId,
  account: account(id, email),
});

/** An account store in memory, one account per normalised address, as the real one keeps them. */
function memoryStore(initial: Account[] = []) {
  const byId = new Map(initial.map((each) => [each.id, each]));
  const created: string[] = [];
  const store: ImportAccounts = {
    findById: async (id) => byId.get(id),
    findByEmail: async (email) =>
      [...byId.values()].find((each) => normalizeAddress(each.email) === normalizeAddress(email)),
    create: async (each) => {
      if (await store.findByEmail(each.email)) return 'exists';
      byId.set(each.id, each);
      created.push(each.id);
      return 'created';
    },
    findByIdentity: async (provider, subject) =>
      [...byId.values()].find(
        (each) => each.identity?.provider === provider && each.identity.subject === subject,
      ),
    // An identity's account claims no address: only its identity is one account's.
    createWithIdentity: async (each) => {
      if (await store.findByIdentity(each.identity.provider, each.identity.subject)) return 'exists';
      byId.set(each.id, each);
      created.push(each.id);
      return 'created';
    },
  };
  return { store, created, byId };
}

describe('runAccounts', () => {
  it('creates the accounts the table lacks and maps each source user to its account', async () => {
    const { store, created } = memoryStore();

    const run = await runAccounts(
      [planned('1', 'A1', 'a@example.com'), planned('2', 'B2', 'b@example.com')],
      store,
    );

    expect(created.sort()).toEqual(['A1', 'B2']);
    expect(Object.fromEntries(run.accountIds)).toEqual({ '1': 'A1', '2': 'B2' });
    expect(run.outcome).toEqual({ created: 2, alreadyThere: 0, matchedByAddress: 0 });
  });

  it('writes nothing and maps to the same accounts when it runs a second time', async () => {
    const { store, created } = memoryStore([account('A1', 'a@example.com')]);

    const run = await runAccounts([planned('1', 'A1', 'a@example.com')], store);

    expect(created).toEqual([]);
    expect(run.accountIds.get('1')).toBe('A1');
    expect(run.outcome).toEqual({ created: 0, alreadyThere: 1, matchedByAddress: 0 });
  });

  it('maps a user to the account that already has its address (another id), writing nothing', async () => {
    const { store, created } = memoryStore([account('ADMIN', 'Admin@Example.com')]);

    const run = await runAccounts([planned('1', 'A1', 'admin@example.com')], store);

    expect(created).toEqual([]);
    expect(run.accountIds.get('1')).toBe('ADMIN');
    expect(run.outcome).toEqual({ created: 0, alreadyThere: 0, matchedByAddress: 1 });
  });

  it('skips a user whose address was claimed at create and released before the read', async () => {
    const store: ImportAccounts = {
      findById: async () => undefined,
      findByEmail: async () => undefined,
      create: async () => 'exists',
      findByIdentity: async () => undefined,
      createWithIdentity: async () => 'exists',
    };

    const run = await runAccounts([planned('1', 'A1', 'a@example.com')], store);

    expect(run.accountIds.size).toBe(0);
    expect(run.skipped).toEqual([
      { ref: 'Users[1]', reason: 'its address changed hands while the import ran; run it again' },
    ]);
  });

  it("links an identity's account to its identity again, beside the password account of its address", async () => {
    const { store, created, byId } = memoryStore([account('PW', 'ann@example.com')]);
    const identity = { provider: 'github', subject: '42' };
    const linked = {
      ...planned('1', 'ID1', 'ann@example.com'),
      account: { ...account('ID1', 'ann@example.com'), identity, emailVerified: false },
    };

    const first = await runAccounts([linked], store);
    const again = await runAccounts([{ ...linked, account: { ...linked.account, id: 'ID2' } }], store);

    expect(created).toEqual(['ID1']);
    expect(byId.get('ID1')).toMatchObject({ identity, emailVerified: false });
    expect(first.outcome).toEqual({ created: 1, alreadyThere: 0, matchedByAddress: 0 });
    // Another id for the same identity: the account that identity has.
    expect(again.accountIds.get('1')).toBe('ID1');
    expect(again.outcome).toEqual({ created: 0, alreadyThere: 1, matchedByAddress: 0 });
  });

  it('reads nothing and counts every account as to create when it is a dry run', async () => {
    const run = await runAccounts([planned('1', 'A1', 'a@example.com')], undefined);

    expect(run.outcome.created).toBe(1);
    expect(run.accountIds.get('1')).toBe('A1');
  });
});
