import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { checkToken, signToken } from '../../../../../functions/shared/auth/token.js';
import { addressHash } from '../../../../../functions/shared/notify/address-hash.js';
import { readLinkToken, signLinkToken } from '../../../../../functions/shared/notify/link-token.js';

const secret = 'k'.repeat(32);
const now = Date.parse('2026-11-25T12:00:00Z');
const hour = 3_600_000;
const unsubscribe = {
  purpose: 'unsubscribe',
  addressHash: addressHash('Ann@Example.com'),
  rootId: '01ROOT',
} as const;
const approve = { purpose: 'moderate', action: 'approve', commentId: '01REPLY' } as const;

describe('link tokens', () => {
  it('carry their purpose and claims back, and nothing else', async () => {
    expect(
      await readLinkToken(secret, await signLinkToken(secret, unsubscribe, now + hour), 'unsubscribe', now),
    ).toEqual(unsubscribe);
    expect(
      await readLinkToken(secret, await signLinkToken(secret, approve, now + hour), 'moderate', now),
    ).toEqual(approve);
  });

  it('open only what they were signed for: an unsubscribe link cannot moderate, nor the reverse', async () => {
    expect(
      await readLinkToken(secret, await signLinkToken(secret, unsubscribe, now + hour), 'moderate', now),
    ).toBeUndefined();
    expect(
      await readLinkToken(secret, await signLinkToken(secret, approve, now + hour), 'unsubscribe', now),
    ).toBeUndefined();
  });

  it('expire, and a token without an expiry is refused even with the right key', async () => {
    const token = await signLinkToken(secret, approve, now + hour);
    expect(await readLinkToken(secret, token, 'moderate', now + hour + 1000)).toBeUndefined();

    const linkKey = createHmac('sha256', secret).update('marginalia link tokens v1').digest();
    const endless = await new SignJWT({ ...approve })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience('marginalia-link')
      .sign(linkKey);
    expect(await readLinkToken(secret, endless, 'moderate', now)).toBeUndefined();
  });

  it('never pass for sign-in tokens, nor sign-in tokens for them: the keys differ', async () => {
    const signIn = await signToken(secret, { sub: 'admin', email: 'a@example.com', exp: now / 1000 + 3600 });
    expect(await readLinkToken(secret, signIn, 'moderate', now)).toBeUndefined();

    const link = await signLinkToken(secret, approve, now + hour);
    expect(await checkToken(secret, link, now)).toMatchObject({ ok: false });
  });

  it('refuse another key, a forged claim and junk', async () => {
    const token = await signLinkToken(secret, approve, now + hour);
    expect(await readLinkToken('x'.repeat(32), token, 'moderate', now)).toBeUndefined();
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...approve, action: 'delete', exp: now / 1000 + 3600, aud: 'marginalia-link' }),
    ).toString('base64url');
    expect(await readLinkToken(secret, `${header}.${forged}.${signature}`, 'moderate', now)).toBeUndefined();
    for (const junk of [undefined, '', 'a.b.c', 'x'.repeat(5000)]) {
      expect(await readLinkToken(secret, junk, 'moderate', now)).toBeUndefined();
    }
  });

  it('refuse claims of the wrong shape, though signed: an address hash that is not one, an action not known', async () => {
    const badHash = await signLinkToken(
      secret,
      { ...unsubscribe, addressHash: 'ann@example.com' },
      now + hour,
    );
    const badAction = await signLinkToken(secret, { ...approve, action: 'edit' as 'approve' }, now + hour);
    expect(await readLinkToken(secret, badHash, 'unsubscribe', now)).toBeUndefined();
    expect(await readLinkToken(secret, badAction, 'moderate', now)).toBeUndefined();
  });
});
