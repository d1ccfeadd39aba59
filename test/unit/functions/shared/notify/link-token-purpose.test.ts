import { describe, expect, it } from 'vitest';
import { addressHash } from '../../../../../functions/shared/notify/address-hash.js';
import {
  type LinkClaims,
  readLinkToken,
  signLinkToken,
} from '../../../../../functions/shared/notify/link-token.js';

const secret = 'k'.repeat(32);
const now = Date.parse('2026-11-25T12:00:00Z');

describe('a link token’s purpose', () => {
  it('decides alone what the token opens, even when its claims would fit the other purpose', async () => {
    // Both shapes in one signed token: only the signed purpose may be read from it.
    const both = {
      purpose: 'unsubscribe',
      addressHash: addressHash('ann@example.com'),
      action: 'delete',
      commentId: '01REPLY',
    } as unknown as LinkClaims;
    const token = await signLinkToken(secret, both, now + 3_600_000);

    expect(await readLinkToken(secret, token, 'unsubscribe', now)).toEqual({
      purpose: 'unsubscribe',
      addressHash: addressHash('ann@example.com'),
    });
    expect(await readLinkToken(secret, token, 'moderate', now)).toBeUndefined();
  });
});
