import type { AccountTotpStore, StoredTotp, TotpProof } from '../../functions/shared/table/account-totp.js';

/** One account's second factor in the fake, with its session version. */
export interface FakeTotpAccount {
  secret?: string;
  lastStep: number;
  recoveryHashes: string[];
  pending?: { secret: string; until: number };
  sessionVersion: number;
}

/**
 * An in-memory AccountTotpStore with the conditions of the real one (table/account-totp.ts), for route tests;
 * `accounts` is open for tests to arrange and inspect.
 */
export function createFakeAccountTotpStore(): AccountTotpStore & {
  readonly accounts: Map<string, FakeTotpAccount>;
} {
  const accounts = new Map<string, FakeTotpAccount>();
  const spendable = (account: FakeTotpAccount | undefined, sealed: string, proof: TotpProof) =>
    account !== undefined &&
    account.secret === sealed &&
    ('step' in proof ? account.lastStep < proof.step : account.recoveryHashes.includes(proof.recoveryHash));

  return {
    accounts,
    async read(id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      const { sessionVersion: _, ...stored } = account;
      return structuredClone(stored) as StoredTotp;
    },
    async startEnrolment(id, sealedSecret, until) {
      const account = accounts.get(id);
      if (!account || account.secret) return false;
      account.pending = { secret: sealedSecret, until };
      return true;
    },
    async confirmEnrolment(id, sealedSecret, step, recoveryHashes, now) {
      const account = accounts.get(id);
      if (!account?.pending || account.secret || account.pending.secret !== sealedSecret) return undefined;
      if (account.pending.until <= now) return undefined;
      Object.assign(account, { secret: sealedSecret, lastStep: step, recoveryHashes: [...recoveryHashes] });
      delete account.pending;
      return (account.sessionVersion += 1);
    },
    async spend(id, sealedSecret, proof) {
      const account = accounts.get(id);
      if (!spendable(account, sealedSecret, proof)) return false;
      if ('step' in proof) account!.lastStep = proof.step;
      else account!.recoveryHashes = account!.recoveryHashes.filter((hash) => hash !== proof.recoveryHash);
      return true;
    },
    async disable(id, sealedSecret, proof) {
      const account = accounts.get(id);
      if (!spendable(account, sealedSecret, proof)) return false;
      accounts.set(id, { lastStep: -1, recoveryHashes: [], sessionVersion: account!.sessionVersion });
      return true;
    },
    async reset(id) {
      const account = accounts.get(id);
      if (!account) return false;
      accounts.set(id, { lastStep: -1, recoveryHashes: [], sessionVersion: account.sessionVersion });
      return true;
    },
  };
}
