import { describe, expect, it } from 'vitest';
import {
  admitAttempt,
  clientNetwork,
  lockAfter,
  signInLimits,
} from '../../../../../functions/shared/auth/sign-in-guard.js';

const minute = 60_000;

describe('lockAfter', () => {
  it('locks nothing for the first four attempts, then 30 s doubling up to 15 minutes', () => {
    expect([1, 2, 3, 4].map(lockAfter)).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9, 10, 11, 500].map(lockAfter)).toEqual([
      0.5 * minute,
      minute,
      2 * minute,
      4 * minute,
      8 * minute,
      15 * minute,
      15 * minute,
      15 * minute,
    ]);
  });
});

describe('admitAttempt', () => {
  const now = 1_800_000_000_000;

  it('counts a first attempt without a lock', () => {
    expect(admitAttempt(undefined, now)).toEqual({
      admitted: true,
      next: { failures: 1, lastAt: now, lockedUntil: 0 },
    });
  });

  it('locks the account when the fifth attempt is counted', () => {
    expect(admitAttempt({ failures: 4, lastAt: now - 1000, lockedUntil: 0 }, now)).toEqual({
      admitted: true,
      next: { failures: 5, lastAt: now, lockedUntil: now + 30_000 },
    });
  });

  it('refuses an attempt during a lock without extending it', () => {
    const locked = { failures: 7, lastAt: now - minute, lockedUntil: now + minute };

    expect(admitAttempt(locked, now)).toEqual({ admitted: false, retryAt: now + minute });
  });

  it('admits the next attempt once the lock is over, and locks again for longer', () => {
    const expired = { failures: 7, lastAt: now - 2 * minute, lockedUntil: now };

    expect(admitAttempt(expired, now)).toEqual({
      admitted: true,
      next: { failures: 8, lastAt: now, lockedUntil: now + 4 * minute },
    });
  });

  it('forgets failures a day after the last one, however many there were', () => {
    const old = { failures: 40, lastAt: now - signInLimits.memoryMs, lockedUntil: now + minute };

    expect(admitAttempt(old, now)).toEqual({
      admitted: true,
      next: { failures: 1, lastAt: now, lockedUntil: 0 },
    });
  });
});

describe('clientNetwork', () => {
  it('keeps an IPv4 address, and the IPv4 address of an IPv4-mapped one', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('reduces an IPv6 address to its /64, however it is written', () => {
    const network = '2001:db8:85a3:8d3::/64';

    expect(clientNetwork('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe(network);
    expect(clientNetwork('2001:0DB8:85A3:08D3:0000:0000:0000:0001')).toBe(network);
    expect(clientNetwork('2001:db8:85a3:8d3::1')).toBe(network);
    expect(clientNetwork('2001:db8:85a3:8d4::1')).not.toBe(network);
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });
});
