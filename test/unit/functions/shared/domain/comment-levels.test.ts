import { describe, expect, it, vi } from 'vitest';
import { createLevelsOf } from '../../../../../functions/shared/domain/comment-levels.js';
import { createAuthorKeyOf } from '../../../../../functions/shared/domain/author-tally.js';

const authorKeyOf = createAuthorKeyOf((address) => `hash(${address.trim().toLowerCase()})`);

describe('createLevelsOf', () => {
  it('is undefined without LEVELS, so nothing is read', () => {
    const counts = vi.fn();
    expect(createLevelsOf({ thresholds: undefined, authorKeyOf, counts })).toBeUndefined();
    expect(counts).not.toHaveBeenCalled();
  });

  it("reads the page's distinct authors once, accounts by id and others by address, and gives 0 to nobody's", async () => {
    const counts = vi.fn(
      async (keys: readonly string[]) =>
        new Map(
          keys.map((key) => [key, key === 'user:01A' ? 12 : key === 'mail:hash(a@example.com)' ? 5 : 0]),
        ),
    );
    const levelsOf = createLevelsOf({ thresholds: [0, 5, 10], authorKeyOf, counts });

    const levels = await levelsOf?.([
      { userId: '01A', mail: 'a@example.com' },
      { mail: 'a@example.com' },
      { mail: 'A@example.com ' },
      { mail: '' },
      { mail: 'not an address' },
      { userId: '01A', mail: '' },
    ]);

    expect(levels).toEqual([2, 1, 1, 0, 0, 2]);
    expect(counts).toHaveBeenCalledTimes(1);
    expect(counts).toHaveBeenCalledWith(['user:01A', 'mail:hash(a@example.com)']);
  });

  it('reads nothing for a page of comments that count for nobody', async () => {
    const counts = vi.fn();
    const levelsOf = createLevelsOf({ thresholds: [0, 1], authorKeyOf, counts });
    expect(await levelsOf?.([{ mail: '' }])).toEqual([0]);
    expect(counts).not.toHaveBeenCalled();
  });
});
