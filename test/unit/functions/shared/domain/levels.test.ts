import { describe, expect, it } from 'vitest';
import { levelOf, parseLevels } from '../../../../../functions/shared/domain/levels.js';

describe('levelOf', () => {
  const waline = [0, 10, 20, 50, 100, 200];

  it('gives the last index whose threshold the count reaches, as Waline does', () => {
    expect(levelOf(0, waline)).toBe(0);
    expect(levelOf(9, waline)).toBe(0);
    expect(levelOf(10, waline)).toBe(1);
    expect(levelOf(49, waline)).toBe(2);
    expect(levelOf(50, waline)).toBe(3);
    expect(levelOf(200, waline)).toBe(5);
    expect(levelOf(10_000, waline)).toBe(5);
  });

  it('gives 0 when the count reaches no threshold', () => {
    expect(levelOf(3, [5, 10])).toBe(0);
    expect(levelOf(7, [5, 10])).toBe(0);
    expect(levelOf(10, [5, 10])).toBe(1);
  });

  it('takes the last of equal thresholds', () => {
    expect(levelOf(10, [0, 10, 10, 20])).toBe(2);
  });
});

describe('parseLevels', () => {
  it('reads a trimmed comma list', () => {
    expect(parseLevels('0, 10 ,20')).toEqual([0, 10, 20]);
  });

  it('is undefined when unset or blank', () => {
    expect(parseLevels(undefined)).toBeUndefined();
    expect(parseLevels(' ')).toBeUndefined();
  });

  it('refuses a negative, a fraction, an empty part and a decrease', () => {
    expect(() => parseLevels('-1,2')).toThrow(/whole numbers/);
    expect(() => parseLevels('1.5')).toThrow(/whole numbers/);
    expect(() => parseLevels('1,,2')).toThrow(/whole numbers/);
    expect(() => parseLevels('5,4')).toThrow(/must not decrease/);
  });
});
