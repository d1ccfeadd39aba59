import { describe, expect, it } from 'vitest';
import { createNotificationLinks } from '../../../../functions/notify/links.js';
import { createAddressHasher, unkeyedAddressHash } from '../../../../functions/shared/notify/address-hash.js';
import { readLinkToken } from '../../../../functions/shared/notify/link-token.js';
import { now, secretOf, linkKey } from './channels/notice-fixtures.js';

/** The keyed address hash under the test configuration's salt (test/support/test-config.ts). */
const addressHash = createAddressHasher('test-salt-0123456789abcdef');

const links = (serverUrl: string | undefined, { key }: { key: string | undefined } = { key: linkKey }) =>
  createNotificationLinks({
    serverUrl,
    linkKey: secretOf(key),
    hashAddress: addressHash,
    moderationLinkHours: 24,
    now: () => now,
  });

const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? undefined;

describe('createNotificationLinks', () => {
  it('builds the unsubscribe link under SERVER_URL’s base path, with the address only as its keyed hash', async () => {
    const link = await links('https://api.example/prod').unsubscribe('Reader@Example.com', 'ROOT1');
    expect(link).toMatch(/^https:\/\/api\.example\/prod\/api\/notification\/unsubscribe\?token=[\w.-]+$/);
    expect(link.toLowerCase()).not.toContain('reader');
    const payload = Buffer.from(tokenOf(link)?.split('.')[1] ?? '', 'base64url').toString();
    expect(payload).not.toContain(unkeyedAddressHash('reader@example.com'));
    expect(await readLinkToken(linkKey, tokenOf(link), 'unsubscribe', now)).toEqual({
      purpose: 'unsubscribe',
      addressHash: addressHash('reader@example.com'),
      rootId: 'ROOT1',
    });
  });

  it('builds the confirmation link of an address and the waiting event, by its normalised hash, for 30 days', async () => {
    const link = await links('https://api.example/prod').confirm('Re.ader+x@Gmail.com', '01EVENT');
    expect(link).toMatch(/^https:\/\/api\.example\/prod\/api\/notification\/confirm\?token=[\w.-]+$/);
    expect(link.toLowerCase()).not.toContain('reader');
    const claims = { purpose: 'confirm', addressHash: addressHash('reader@gmail.com'), eventId: '01EVENT' };
    expect(await readLinkToken(linkKey, tokenOf(link), 'confirm', now + 30 * 86_400_000 - 1000)).toEqual(
      claims,
    );
    expect(
      await readLinkToken(linkKey, tokenOf(link), 'confirm', now + 30 * 86_400_000 + 1000),
    ).toBeUndefined();
    await expect(links(undefined).confirm('r@example.com', '01E')).rejects.toThrow('SERVER_URL is not set');
    await expect(
      links('https://api.example', { key: undefined }).confirm('r@example.com', '01E'),
    ).rejects.toThrow('LINK_SECRET');
  });

  it('keeps SERVER_URL’s trailing slash from doubling', async () => {
    const link = await links('https://api.example/').unsubscribe('r@example.com', undefined);
    expect(link.startsWith('https://api.example/api/notification/unsubscribe?token=')).toBe(true);
  });

  it('signs one link per moderation action for the status the mail shows, each expiring after MODERATION_LINK_HOURS', async () => {
    const moderation = await links('https://api.example').moderation('C1', 'waiting');
    expect(moderation.expiresAt).toBe(now + 24 * 3_600_000);
    for (const action of ['approve', 'spam', 'delete'] as const) {
      const token = tokenOf(moderation[action]);
      expect(moderation[action]).toContain('https://api.example/api/notification/moderate?token=');
      expect(await readLinkToken(linkKey, token, 'moderate', now)).toEqual({
        purpose: 'moderate',
        action,
        commentId: 'C1',
        status: 'waiting',
      });
      expect(await readLinkToken(linkKey, token, 'moderate', moderation.expiresAt + 1000)).toBeUndefined();
    }
  });

  it('says whether links can be built, and refuses to build one without SERVER_URL or the key', async () => {
    expect(links(undefined).available).toBe(false);
    expect(links('https://api.example').available).toBe(true);
    await expect(links(undefined).moderation('C1', 'waiting')).rejects.toThrow('SERVER_URL is not set');
    await expect(
      links('https://api.example', { key: undefined }).unsubscribe('r@example.com', 'R'),
    ).rejects.toThrow('the link key (LINK_SECRET or LINK_SECRET_PARAMETER) is not set');
  });
});
