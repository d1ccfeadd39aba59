import type { Account, AccountState, AccountType } from '../domain/account.js';

/**
 * The contract of the account store (issue 27); the implementation, `createAccountRepository(client,
 * tableName)`, lives beside it. Items: `keys.account(id)` and the address claim `keys.accountEmail(address)`
 * (table/keys.ts), written together in one transaction.
 */

/** What {@link AccountRepository.update} changes; a field left out stays as it is. */
export interface AccountChanges {
  readonly displayName?: string;
  /** `''` removes it. */
  readonly link?: string;
  /** `''` removes it. */
  readonly avatar?: string;
  /** `''` removes it. Administrators only: the routes enforce who may set it. */
  readonly label?: string;
  /** A new address: its claim is taken and the old one released in the same transaction. */
  readonly email?: string;
  readonly type?: AccountType;
  readonly state?: AccountState;
  readonly passwordHash?: string;
  /** Increments `sessionVersion`: every token issued before stops working. */
  readonly revokeTokens?: true;
}

/** How an update ended: the account as changed, or why nothing was written. */
export type AccountUpdate =
  | { readonly status: 'updated'; readonly account: Account }
  /** No account of that id, or its `sessionVersion` is no longer the expected one. */
  | { readonly status: 'stale' }
  /** The new address already has an account. */
  | { readonly status: 'address-taken' };

/** Accounts, administrators' and visitors'. */
export interface AccountRepository {
  /** The account of `id`, read consistently. */
  findById(id: string): Promise<Account | undefined>;
  /** The account whose address normalises (shared/notify/normalize-address.ts) like `email`. */
  findByEmail(email: string): Promise<Account | undefined>;
  /** Stores a new account with its address claim; `exists` (nothing written) when the address has one. */
  create(account: Account): Promise<'created' | 'exists'>;
  /**
   * Changes the account of `id`, only while its `sessionVersion` is `expectedVersion` when one is given (the
   * version the caller's token carried).
   */
  update(id: string, changes: AccountChanges, expectedVersion?: number): Promise<AccountUpdate>;
  /** Deletes the account and its address claim; false when there was none. */
  remove(id: string): Promise<boolean>;
  /**
   * One page of accounts for administrators, newest first: a bounded read of an index (never a Scan), with
   * the number of accounts for Waline's `totalPages`.
   */
  listPage(page: number, pageSize: number): Promise<{ readonly accounts: Account[]; readonly total: number }>;
  /** Every account, for the CLI and the export only (a Scan). */
  listAll(): Promise<Account[]>;
}
