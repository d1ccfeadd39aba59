import type { Account } from '../../functions/shared/domain/account.js';
import { normalizeAddress } from '../../functions/shared/notify/normalize-address.js';
import type {
  AccountChanges,
  AccountRepository,
  AccountUpdate,
} from '../../functions/shared/table/account-repository.js';

/** An in-memory AccountRepository for unit tests, with the contract's rules (one account per normalised address, versions). */
export interface FakeAccountRepository extends AccountRepository {
  /** The accounts as stored, by id (tests read and arrange them directly). */
  readonly byId: Map<string, Account>;
}

/** A fake account store holding `accounts`. */
export function createFakeAccountRepository(accounts: readonly Account[] = []): FakeAccountRepository {
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const claimOf = (email: string) => normalizeAddress(email);
  // Only password accounts claim their address; one made from an external identity holds no claim.
  const idOfAddress = (email: string) =>
    [...byId.values()].find((account) => !account.identity && claimOf(account.email) === claimOf(email))?.id;

  const apply = (account: Account, changes: AccountChanges): Account => {
    const { revokeTokens, link, avatar, label, ...plain } = changes;
    const next: Record<string, unknown> = { ...account, ...plain, updatedAt: Date.now() };
    for (const [name, value] of [
      ['link', link],
      ['avatar', avatar],
      ['label', label],
    ] as const) {
      if (value === '') delete next[name];
      else if (value !== undefined) next[name] = value;
    }
    if (revokeTokens) next.sessionVersion = account.sessionVersion + 1;
    // A new address was proven by its link: no provider's flag stays.
    if (changes.email !== undefined) delete next.emailVerified;
    return next as unknown as Account;
  };

  return {
    byId,
    async findById(id) {
      return byId.get(id);
    },
    async findByEmail(email) {
      const id = idOfAddress(email);
      return id === undefined ? undefined : byId.get(id);
    },
    async create(account) {
      if (byId.has(account.id) || idOfAddress(account.email) !== undefined) return 'exists';
      byId.set(account.id, account);
      return 'created';
    },
    async findByIdentity(provider, subject) {
      return [...byId.values()].find(
        (account) => account.identity?.provider === provider && account.identity.subject === subject,
      );
    },
    async createWithIdentity(account) {
      const { provider, subject } = account.identity;
      if (byId.has(account.id) || (await this.findByIdentity(provider, subject))) return 'exists';
      byId.set(account.id, account);
      return 'created';
    },
    async update(id, changes, expectedVersion): Promise<AccountUpdate> {
      const account = byId.get(id);
      if (!account || (expectedVersion !== undefined && account.sessionVersion !== expectedVersion)) {
        return { status: 'stale' };
      }
      if (changes.email !== undefined && !account.identity) {
        const holder = idOfAddress(changes.email);
        if (holder !== undefined && holder !== id) return { status: 'address-taken' };
      }
      const updated = apply(account, changes);
      byId.set(id, updated);
      return { status: 'updated', account: updated };
    },
    async remove(id) {
      return byId.delete(id);
    },
    async findByContact(address, limit) {
      return [...byId.values()]
        .filter(
          (account) =>
            account.identity && account.email !== '' && claimOf(account.email) === claimOf(address),
        )
        .slice(0, limit);
    },
    async forgetContact(address, limit, keep) {
      const carrying = (await this.findByContact(address, limit + 1))
        .filter((account) => account.id !== keep)
        .slice(0, limit);
      for (const account of carrying) {
        const { emailVerified: _verified, ...rest } = account;
        byId.set(account.id, { ...rest, email: '' });
      }
      return { forgotten: carrying.length, more: carrying.length === limit };
    },
    async listPage(page, pageSize) {
      const all = [...byId.values()].sort((a, b) => b.createdAt - a.createdAt);
      return { accounts: all.slice((page - 1) * pageSize, page * pageSize), total: all.length };
    },
    async listAll() {
      return [...byId.values()];
    },
  };
}
