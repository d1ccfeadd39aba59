/**
 * Brings the planned accounts into the table before the comments that name them, through the account
 * store (its `create` writes the account, its address claim and the account count together), and says
 * which account each source user became. Idempotent: an account already there (same derived id, from an
 * earlier run) or an address that already has an account (an administrator created by `npm run admin`, a
 * visitor who registered meanwhile) is not written again: the source user maps to that account.
 */
import type { AccountRepository } from '../../functions/shared/table/account-repository.js';
import type { PlannedAccount } from './plan-accounts.js';

/** What the import needs of the account store. */
export type ImportAccounts = Pick<
  AccountRepository,
  'findById' | 'findByEmail' | 'create' | 'findByIdentity' | 'createWithIdentity'
>;

/** How the accounts of an import ended. */
export interface AccountsOutcome {
  /** Accounts written by this run. */
  readonly created: number;
  /** Accounts an earlier run wrote (same id, or for an identity's account, the same identity). */
  readonly alreadyThere: number;
  /** Source users whose address already had another account: their comments go to that account. */
  readonly matchedByAddress: number;
}

/** The account id each source user's comments get (by source id), and the counts. */
export interface AccountsRun {
  readonly accountIds: Map<string, string>;
  readonly outcome: AccountsOutcome;
  readonly skipped: { ref: string; reason: string }[];
}

/** Accounts created at once: each is one small transaction. */
const concurrentCreates = 4;

/** Writes `planned` through `store`; without a store (a dry run) every account counts as created. */
export async function runAccounts(
  planned: readonly PlannedAccount[],
  store: ImportAccounts | undefined,
): Promise<AccountsRun> {
  const accountIds = new Map<string, string>();
  const skipped: { ref: string; reason: string }[] = [];
  if (!store) {
    for (const { sourceId, account } of planned) accountIds.set(sourceId, account.id);
    return {
      accountIds,
      outcome: { created: planned.length, alreadyThere: 0, matchedByAddress: 0 },
      skipped,
    };
  }
  let created = 0;
  let alreadyThere = 0;
  let matchedByAddress = 0;
  let next = 0;
  const work = async () => {
    while (next < planned.length) {
      const { ref, sourceId, account } = planned[next++] as PlannedAccount;
      const { identity } = account;
      if (await store.findById(account.id)) {
        alreadyThere++;
        accountIds.set(sourceId, account.id);
      } else if (identity) {
        // An identity's account: linked to its identity again, never claiming its address.
        if ((await store.createWithIdentity({ ...account, identity })) === 'created') {
          created++;
          accountIds.set(sourceId, account.id);
        } else {
          const linked = await store.findByIdentity(identity.provider, identity.subject);
          if (linked) {
            alreadyThere++;
            accountIds.set(sourceId, linked.id);
          } else
            skipped.push({ ref, reason: 'its identity changed hands while the import ran; run it again' });
        }
      } else if ((await store.create(account)) === 'created') {
        created++;
        accountIds.set(sourceId, account.id);
      } else {
        const owner = await store.findByEmail(account.email);
        if (owner) {
          matchedByAddress++;
          accountIds.set(sourceId, owner.id);
        } else {
          // The claim was there at create and gone at the read: an account deleted meanwhile.
          skipped.push({ ref, reason: 'its address changed hands while the import ran; run it again' });
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrentCreates, planned.length) }, work));
  return { accountIds, outcome: { created, alreadyThere, matchedByAddress }, skipped };
}
