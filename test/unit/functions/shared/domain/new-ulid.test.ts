import { decodeTime, isValid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newUlid } from '../../../../../functions/shared/domain/new-ulid.js';

describe('newUlid', () => {
  it('gives a valid ULID of the time it is asked for', () => {
    const id = newUlid(1_800_000_000_123);

    expect(isValid(id)).toBe(true);
    expect(decodeTime(id)).toBe(1_800_000_000_123);
  });

  it('draws new randomness for every id, past the pool refills, each character uniform', () => {
    const ids = Array.from({ length: 5000 }, () => newUlid(1_800_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);

    // 5,000 ids x 16 random characters: each of the 32 characters about 2,500 times.
    const counts = new Map<string, number>();
    for (const id of ids)
      for (const character of id.slice(10)) counts.set(character, (counts.get(character) ?? 0) + 1);
    expect(counts.size).toBe(32);
    for (const count of counts.values()) expect(count).toBeGreaterThan(2000);
    for (const count of counts.values()) expect(count).toBeLessThan(3000);
  });
});
