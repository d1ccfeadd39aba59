import { describe, expect, it } from 'vitest';
import { limits } from '../../../../../functions/shared/domain/limits.js';
import {
  budgetLeft,
  readsLeft,
  spend,
  unspentBudget,
} from '../../../../../functions/shared/table/read-budget.js';

describe('spend', () => {
  it("counts the characters of each item's text and HTML, and the largest item", () => {
    const budget = spend(unspentBudget, [
      { orig: 'abc', html: '<p>abc</p>' },
      { orig: 'hi' },
      { sk: 'C#01A' },
    ]);

    expect(spend(budget, [{ html: 'x'.repeat(5) }])).toEqual({ chars: 20, largest: 13 });
  });
});

describe('budgetLeft', () => {
  it('leaves room until listReadChars are read', () => {
    expect(budgetLeft({ chars: limits.listReadChars - 1, largest: 1 })).toBe(true);
    expect(budgetLeft({ chars: limits.listReadChars, largest: 1 })).toBe(false);
  });
});

describe('readsLeft', () => {
  it('allows a first wave of listFirstWaveReads before any comment was read', () => {
    expect(readsLeft(unspentBudget, 11)).toBe(limits.listFirstWaveReads);
  });

  it('allows as many reads of `items` comments as the rest holds, each judged by the largest read', () => {
    const quarter = limits.listReadChars / 4;

    // Three quarters left, reads of 3 comments of an eighth of a quarter: 8 of them.
    expect(readsLeft({ chars: quarter, largest: quarter / 8 }, 3)).toBe(8);
    // A quarter left, reads of 2 comments of a quarter: none.
    expect(readsLeft({ chars: 3 * quarter, largest: quarter }, 2)).toBe(0);
  });
});
