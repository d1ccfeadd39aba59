import { describe, expect, it } from 'vitest';
import { createNotificationLinks } from '../../../../functions/notify/links.js';
import { addressHash } from '../../../../functions/shared/notify/address-hash.js';
import { readLinkToken } from '../../../../functions/shared/notify/link-token.js';
import { now, secretOf, signInKey } from './channels/notice-fixtures.js';

const links = (serverUrl: string | undefined, { key }: { key: string | undefined } = { key: signInKey }) =>
  createNotificationLinks({ serverUrl, linkKey: secretOf(key), moderationLinkHours: 24, now: () => now });

const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? undefined;

describe('createNotificationLinks', () => {
  it('builds the unsubscribe link under SERVER_URL’s base path, with the address only as its hash', async () => {
    const link = await links('https://api.example/prod').unsubscribe('Reader@Example.com', 'ROOT1');
    expect(link).toMatch(/^https:\/\/api\.example\/prod\/api\/notification\/unsubscribe\?token=[\w.-]+$/);
    expect(link.toLowerCase()).not.toContain('reader');
    expect(await readLinkToken(signInKey, tokenOf(link), 'unsubscribe', now)).toEqual({
      purpose: 'unsubscribe',
      addressHash: addressHash('reader@example.com'),
      rootId: 'ROOT1',
    });
  });

  it('keeps SERVER_URL’s trailing slash from doubling', async () => {
    const link = await links('https://api.example/').unsubscribe('r@example.com', undefined);
    expect(link.startsWith('https://api.example/api/notification/unsubscribe?token=')).toBe(true);
  });

  it('signs one link per moderation action, each expiring after MODERATION_LINK_HOURS', async () => {
    const moderation = await links('https://api.example').moderation('C1');
    expect(moderation.expiresAt).toBe(now + 24 * 3_600_000);
    for (const action of ['approve', 'spam', 'delete'] as const) {
      const token = tokenOf(moderation[action]);
      expect(moderation[action]).toContain('https://api.example/api/notification/moderate?token=');
      expect(await readLinkToken(signInKey, token, 'moderate', now)).toEqual({
        purpose: 'moderate',
        action,
        commentId: 'C1',
      });
      expect(await readLinkToken(signInKey, token, 'moderate', moderation.expiresAt + 1000)).toBeUndefined();
    }
  });

  it('says whether links can be built, and refuses to build one without SERVER_URL or the key', async () => {
    expect(links(undefined).available).toBe(false);
    expect(links('https://api.example').available).toBe(true);
    await expect(links(undefined).moderation('C1')).rejects.toThrow('SERVER_URL is not set');
    await expect(
      links('https://api.example', { key: undefined }).unsubscribe('r@example.com', 'R'),
    ).rejects.toThrow('the sign-in key (JWT_TOKEN or JWT_SECRET_PARAMETER) is not set');
  });
});
