import { describe, expect, it } from 'vitest';
import type { AuthorProfile } from '../../../../../functions/shared/domain/account.js';
import { cacheAuthorProfiles } from '../../../../../functions/shared/caches/cached-author-profiles.js';

const profileOf = (id: string, displayName = `Name ${id}`): AuthorProfile => ({
  id,
  displayName,
  email: `${id}@mail.example`,
  type: 'guest',
});

/** A reader over `names` (id to display name) that records the ids of each call. */
function reader(names: Record<string, string>) {
  const calls: string[][] = [];
  const read = async (ids: readonly string[]) => {
    calls.push([...ids]);
    return new Map(ids.flatMap((id) => (names[id] ? [[id, profileOf(id, names[id])] as const] : [])));
  };
  return { read, calls };
}

describe('cacheAuthorProfiles', () => {
  it('reads only the ids it has no fresh copy of, a missing account included, in one call', async () => {
    let clock = 0;
    const source = reader({ a: 'A', b: 'B' });
    const { read } = cacheAuthorProfiles(source.read, { ttlMs: 1000, now: () => clock });

    await read(['a', 'gone']);
    const second = await read(['a', 'b', 'gone', 'b']);

    expect(source.calls).toEqual([['a', 'gone'], ['b']]);
    expect([...second.keys()]).toEqual(['a', 'b']);
    clock = 999;
    await read(['a']);
    expect(source.calls).toHaveLength(2);
  });

  it("shows a profile's change once the copy is older than the lifetime, or at once once forgotten", async () => {
    let clock = 0;
    const names = { a: 'Before' };
    const source = reader(names);
    const cached = cacheAuthorProfiles(source.read, { ttlMs: 1000, now: () => clock });

    await cached.read(['a']);
    names.a = 'After';
    expect((await cached.read(['a'])).get('a')?.displayName).toBe('Before');
    clock = 1000;
    expect((await cached.read(['a'])).get('a')?.displayName).toBe('After');
    names.a = 'Again';
    cached.forget('a');
    expect((await cached.read(['a'])).get('a')?.displayName).toBe('Again');
  });

  it('shares one read between concurrent requests for the same ids, and reads every time when off', async () => {
    const source = reader({ a: 'A' });
    const { read } = cacheAuthorProfiles(source.read, { ttlMs: 1000 });
    await Promise.all([read(['a']), read(['a'])]);
    expect(source.calls).toEqual([['a']]);

    const off = reader({ a: 'A' });
    const uncached = cacheAuthorProfiles(off.read, { ttlMs: 0 });
    await uncached.read(['a']);
    await uncached.read(['a']);
    expect(off.calls).toHaveLength(2);
  });

  it('fails the requests of a failed read, and reads again after it', async () => {
    let fail = true;
    const { read } = cacheAuthorProfiles(
      async (ids) => {
        if (fail) throw new Error('throttled');
        return new Map(ids.map((id) => [id, profileOf(id)]));
      },
      { ttlMs: 1000 },
    );

    await expect(read(['a'])).rejects.toThrow('throttled');
    fail = false;
    expect((await read(['a'])).get('a')?.id).toBe('a');
  });
});
