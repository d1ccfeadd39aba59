import { describe, expect, it } from 'vitest';
import { storedCount } from '../../../../../functions/shared/table/stored-count.js';

describe('storedCount', () => {
  it('reads a stored count as it is', () => {
    expect([storedCount(0), storedCount(7), storedCount('12'), storedCount(12n)]).toEqual([0, 7, 12, 12]);
  });

  it('reads a missing or unreadable counter as 0', () => {
    expect([undefined, null, '', 'many', Number.NaN, {}].map(storedCount)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('reads a count that went below zero as 0, never negative', () => {
    expect([storedCount(-1), storedCount(-0.5), storedCount('-3')]).toEqual([0, 0, 0]);
    expect(Object.is(storedCount(-0.5), 0)).toBe(true);
  });

  it('reads a fraction or an infinity as a whole, finite count', () => {
    expect([storedCount(2.9), storedCount(Number.POSITIVE_INFINITY), storedCount('1e400')]).toEqual([
      2, 0, 0,
    ]);
  });
});
