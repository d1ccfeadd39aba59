import { describe, expect, it } from 'vitest';
import { fitsInOneItem } from '../../../../../functions/shared/domain/item-size.js';
import { limits } from '../../../../../functions/shared/domain/limits.js';

describe('fitsInOneItem', () => {
  const half = limits.storedCommentBytes / 2;

  it('accepts text and HTML that together take exactly the stored limit', () => {
    expect(fitsInOneItem('a'.repeat(half), 'b'.repeat(half))).toBe(true);
  });

  it('refuses them one byte over, however it is shared between the text and the HTML', () => {
    expect(fitsInOneItem('a'.repeat(half + 1), 'b'.repeat(half))).toBe(false);
    expect(fitsInOneItem('a'.repeat(half), 'b'.repeat(half + 1))).toBe(false);
  });

  it('counts UTF-8 bytes, not characters', () => {
    // "é" is two bytes: a third of the limit in characters is two thirds of it in bytes, twice over.
    const accents = 'é'.repeat(Math.ceil(limits.storedCommentBytes / 3));

    expect(accents.length * 2).toBeLessThan(limits.storedCommentBytes);
    expect(fitsInOneItem(accents, accents)).toBe(false);
  });
});
