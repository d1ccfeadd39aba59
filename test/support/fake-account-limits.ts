import type { AccountLimits } from '../../functions/shared/table/account-limits.js';

/** An in-memory AccountLimits with the contract's rules (counters, capped slots, marks claimed once), for route tests. */
export interface FakeAccountLimits extends AccountLimits {
  /** Mail slots taken, by address hash and window. */
  readonly slots: Map<string, number>;
  /** The actions counted, in order. */
  readonly counted: string[];
}

/** A fresh fake of the account limits. */
export function createFakeAccountLimits(): FakeAccountLimits {
  const counts = new Map<string, number>();
  const slots = new Map<string, number>();
  const used = new Set<string>();
  const counted: string[] = [];
  return {
    slots,
    counted,
    async countAttempt(action, ipHash, window) {
      const key = `${action} ${ipHash} ${window}`;
      counted.push(action);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return counts.get(key) ?? 0;
    },
    async takeMailSlot(addressHash, window, max) {
      const key = `${addressHash} ${window}`;
      if ((slots.get(key) ?? 0) >= max) return false;
      slots.set(key, (slots.get(key) ?? 0) + 1);
      return true;
    },
    async claimLink(tokenHash) {
      if (used.has(tokenHash)) return false;
      used.add(tokenHash);
      return true;
    },
  };
}
