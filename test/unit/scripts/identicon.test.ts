import { describe, expect, it } from 'vitest';
import { renderIdenticon } from '../../../scripts/identicon.js';

const cells = (svg: string) =>
  [...svg.matchAll(/<rect x="(\d+)" y="(\d+)" width="10" height="10"\/>/g)].map(([, x, y]) => [
    (Number(x) - 10) / 10,
    (Number(y) - 10) / 10,
  ]);

describe('renderIdenticon', () => {
  it('draws the same picture for the same hash and another for another hash', () => {
    const empty = 'd41d8cd98f00b204e9800998ecf8427e';

    expect(renderIdenticon(empty)).toBe(renderIdenticon(empty));
    expect(renderIdenticon(empty)).not.toBe(renderIdenticon('0cc175b9c0f1b6a831c399e269772661'));
  });

  it('mirrors the left columns onto the right when it fills the grid', () => {
    const drawn = cells(renderIdenticon('0123456789abcdef0123456789abcdef'));

    expect(drawn.length).toBeGreaterThan(0);
    for (const [column, row] of drawn) {
      expect(drawn).toContainEqual([4 - (column ?? 0), row]);
    }
  });

  it('accepts sha256 hashes and refuses anything that is not lower-case hex when given a name', () => {
    expect(renderIdenticon('a'.repeat(64))).toMatch(/^<svg /);
    for (const bad of ['', 'A'.repeat(32), 'a'.repeat(31), '../etc/passwd', `${'a'.repeat(32)}"/><script>`]) {
      expect(() => renderIdenticon(bad)).toThrow(/hex/);
    }
  });
});
