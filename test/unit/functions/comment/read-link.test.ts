import { describe, expect, it } from 'vitest';
import { createLinkReader } from '../../../../functions/comment/read-link.js';
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { createAddressHasher, unkeyedAddressHash } from '../../../../functions/shared/notify/address-hash.js';
import { signLinkToken } from '../../../../functions/shared/notify/link-token.js';

const now = 1_800_000_000_000;
const claims = { purpose: 'moderate', action: 'spam', commentId: '01C', status: 'waiting' } as const;

/** A key source that answers `first`, then `refreshed` when asked to refresh; it counts the refreshes. */
function keySource(first: string | undefined, refreshed = first) {
  let refreshes = 0;
  const source = async (options?: { refresh?: boolean }) => {
    if (options?.refresh) refreshes += 1;
    return options?.refresh ? refreshed : first;
  };
  return { source, refreshes: () => refreshes };
}

describe('createLinkReader', () => {
  it('reads a link signed with the key, without asking for the key again', async () => {
    const key = keySource('a'.repeat(40));
    const read = createLinkReader({ linkSecret: key.source, now: () => now });

    const token = await signLinkToken('a'.repeat(40), claims, now + 1000);

    expect(await read(token, 'moderate')).toEqual(claims);
    expect(key.refreshes()).toBe(0);
  });

  it('reads a link signed with a rotated key once the key is read again', async () => {
    const key = keySource('old'.repeat(12), 'new'.repeat(12));
    const read = createLinkReader({ linkSecret: key.source, now: () => now });

    const token = await signLinkToken('new'.repeat(12), claims, now + 1000);

    expect(await read(token, 'moderate')).toEqual(claims);
    expect(key.refreshes()).toBe(1);
  });

  it('refuses a link of another purpose, an expired one, and every link when there is no link key', async () => {
    const token = await signLinkToken('a'.repeat(40), claims, now + 1000);
    const expired = await signLinkToken('a'.repeat(40), claims, now - 1000);
    const read = createLinkReader({ linkSecret: keySource('a'.repeat(40)).source, now: () => now });
    const keyless = createLinkReader({ linkSecret: keySource(undefined).source, now: () => now });

    expect(await read(token, 'unsubscribe')).toBeUndefined();
    expect(await read(expired, 'moderate')).toBeUndefined();
    expect(await read(undefined, 'moderate')).toBeUndefined();
    expect(await keyless(token, 'moderate')).toBeUndefined();
  });

  describe('links mailed before the link key', () => {
    const signIn = 's'.repeat(40);
    const salt = 'test-salt-0123456789abcdef';
    /** A token as the notifier signed them then: with a key derived from the sign-in key. */
    const oldToken = (payload: Record<string, unknown>, expiresAt = now + 1000) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setAudience('marginalia-link')
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(createHmac('sha256', signIn).update('marginalia link tokens v1').digest());
    const reader = (unkeyedEra = true) =>
      createLinkReader({
        linkSecret: keySource('a'.repeat(40)).source,
        now: () => now,
        ...(unkeyedEra ? { unkeyedEra: { tokenSecret: keySource(signIn).source, salt } } : {}),
      });

    it('reads an old unsubscribe link until it expires, its address hash keyed as suppressions are now', async () => {
      const token = await oldToken({
        purpose: 'unsubscribe',
        addressHash: unkeyedAddressHash('Ann@example.com'),
        rootId: '01ROOT',
      });

      expect(await reader()(token, 'unsubscribe')).toEqual({
        purpose: 'unsubscribe',
        addressHash: createAddressHasher(salt)('ann@example.com'),
        rootId: '01ROOT',
      });
      expect(await reader(false)(token, 'unsubscribe')).toBeUndefined();
      const expired = await oldToken(
        { purpose: 'unsubscribe', addressHash: unkeyedAddressHash('a@b.c') },
        now - 1000,
      );
      expect(await reader()(expired, 'unsubscribe')).toBeUndefined();
    });

    it('refuses an old moderation link, even read as an unsubscribe one', async () => {
      const token = await oldToken({ purpose: 'moderate', action: 'approve', commentId: '01C' });

      expect(await reader()(token, 'moderate')).toBeUndefined();
      expect(await reader()(token, 'unsubscribe')).toBeUndefined();
    });

    it('never takes an old token that carries a keyed hash: its hash is keyed once, never twice', async () => {
      const token = await oldToken({
        purpose: 'unsubscribe',
        addressHash: createAddressHasher(salt)('ann@example.com'),
      });

      expect(await reader()(token, 'unsubscribe')).toBeUndefined();
    });
  });
});
