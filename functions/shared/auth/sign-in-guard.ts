import { isIPv6 } from 'node:net';
import type { AccountFailures } from '../domain/account-failures.js';

/**
 * The per-account limit, beside the per-IP one. Many addresses give many guesses per IP window, so each
 * email also gets a budget: `freeFailures` attempts, then a lock that doubles with each further attempt
 * from `firstLockMs` up to `maxLockMs`. That caps guessing at about 4 an hour per account however many
 * addresses an attacker has.
 *
 * Bounds on locking the real administrator out:
 * - a lock lasts at most `maxLockMs` after the attempt that set it, and attempts refused during a lock
 *   neither reach the password check nor extend it: an attacker must keep sending, once per lock;
 * - an address (an IPv6 /64) the administrator signed in from within `knownNetworkMs` is exempt from the
 *   account's lock (only the per-IP limit applies there): where they usually sign in they always can;
 * - failures are forgotten `memoryMs` after the last one, and a success clears them.
 */
export const signInLimits = {
  freeFailures: 5,
  firstLockMs: 30_000,
  maxLockMs: 15 * 60_000,
  memoryMs: 24 * 60 * 60_000,
  knownNetworkMs: 30 * 24 * 60 * 60_000,
} as const;

/** How long the account is locked once `failures` attempts are counted. */
export function lockAfter(failures: number): number {
  const beyond = failures - signInLimits.freeFailures;
  if (beyond < 0) return 0;
  return Math.min(signInLimits.maxLockMs, signInLimits.firstLockMs * 2 ** Math.min(beyond, 30));
}

/**
 * Whether an attempt at `now` may check a password. Admitted, it is counted before the password is
 * checked (a success clears the count): concurrent attempts cannot slip through one gap in the lock.
 */
export function admitAttempt(
  previous: AccountFailures | undefined,
  now: number,
): { admitted: false; retryAt: number } | { admitted: true; next: AccountFailures } {
  const remembered = previous && now - previous.lastAt < signInLimits.memoryMs ? previous : undefined;
  if (remembered && now < remembered.lockedUntil) return { admitted: false, retryAt: remembered.lockedUntil };
  const failures = (remembered?.failures ?? 0) + 1;
  const lock = lockAfter(failures);
  return { admitted: true, next: { failures, lastAt: now, lockedUntil: lock > 0 ? now + lock : 0 } };
}

/**
 * The network a client address stands for in sign-in limits: an IPv4 address itself, an IPv6 address
 * its /64 (one customer's allocation: one host can use any address in it), an IPv4-mapped IPv6 address
 * the IPv4 one.
 */
export function clientNetwork(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  // A trailing dotted IPv4 part stands for two groups; it is past the /64 either way.
  const [head = '', tail] = ip.replace(/\d{1,3}(?:\.\d{1,3}){3}$/, '0:0').split('::');
  const before = groupsOf(head);
  const after = tail === undefined ? [] : groupsOf(tail);
  const groups = [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
