import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { checkToken, signToken } from '../../../../../functions/shared/auth/token.js';
import {
  createAddressHasher,
  unkeyedAddressHash,
} from '../../../../../functions/shared/notify/address-hash.js';
import {
  readLinkToken,
  readUnkeyedUnsubscribeToken,
  signLinkToken,
} from '../../../../../functions/shared/notify/link-token.js';

const secret = 'k'.repeat(32);
const now = Date.parse('2026-11-25T12:00:00Z');
const hour = 3_600_000;
const unsubscribe = {
  purpose: 'unsubscribe',
  addressHash: createAddressHasher('test-salt-0123456789')('Ann@Example.com'),
  rootId: '01ROOT',
} as const;
const approve = { purpose: 'moderate', action: 'approve', commentId: '01REPLY', status: 'waiting' } as const;

/** The key link tokens are signed with, derived from the link key as link-token.ts does. */
const signingKey = (key: string) => createHmac('sha256', key).update('marginalia link tokens v2').digest();

/** A token signed with the right key whose payload is exactly `payload` (expiring in an hour). */
const rawToken = (payload: Record<string, unknown>) =>
  new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setAudience('marginalia-link')
    .setExpirationTime(Math.floor((now + hour) / 1000))
    .sign(signingKey(secret));

/** Decodes a token's payload, unverified. */
const payloadOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

describe('link tokens', () => {
  it('carry their purpose and claims back, and nothing else', async () => {
    expect(
      await readLinkToken(secret, await signLinkToken(secret, unsubscribe, now + hour), 'unsubscribe', now),
    ).toEqual(unsubscribe);
    expect(
      await readLinkToken(secret, await signLinkToken(secret, approve, now + hour), 'moderate', now),
    ).toEqual(approve);
  });

  it('make account links act for one purpose each, and refuse a malformed account id or version', async () => {
    const confirm = { purpose: 'account-confirm', accountId: '01ACCOUNT' } as const;
    const reset = { purpose: 'account-reset', accountId: '01ACCOUNT', version: 4 } as const;
    const confirmToken = await signLinkToken(secret, confirm, now + hour);
    const resetToken = await signLinkToken(secret, reset, now + hour);

    expect(await readLinkToken(secret, confirmToken, 'account-confirm', now)).toEqual(confirm);
    expect(await readLinkToken(secret, resetToken, 'account-reset', now)).toEqual(reset);
    expect(await readLinkToken(secret, confirmToken, 'account-reset', now)).toBeUndefined();
    expect(await readLinkToken(secret, resetToken, 'account-confirm', now)).toBeUndefined();
    for (const payload of [
      { purpose: 'account-reset', accountId: '01ACCOUNT', version: -1 },
      { purpose: 'account-reset', accountId: '01ACCOUNT', version: '4' },
      { purpose: 'account-reset', accountId: '01ACCOUNT' },
      { purpose: 'account-confirm', accountId: 'not/an/id' },
    ]) {
      const purpose = payload.purpose as 'account-reset' | 'account-confirm';
      expect(
        await readLinkToken(secret, await rawToken(payload), purpose, now),
        JSON.stringify(payload),
      ).toBeUndefined();
    }
  });

  it('read each account and data claim only as its own type: a well-spelled value in an array, a fraction or a loose sealed address is refused', async () => {
    const id = '01ACCOUNT';
    const hash = 'A'.repeat(43);
    const sealed = `${'s'.repeat(16)}.${'b'.repeat(40)}.${'t'.repeat(22)}`;
    const good = [
      { purpose: 'account-reset', accountId: id, version: 0 },
      { purpose: 'account-address', accountId: id, version: 0, sealedAddress: sealed },
      { purpose: 'my-data', addressHash: hash, sealedAddress: sealed },
      { purpose: 'confirm', addressHash: hash, eventId: '01EVENT' },
    ] as const;
    for (const payload of good) {
      expect(
        await readLinkToken(secret, await rawToken(payload), payload.purpose, now),
        payload.purpose,
      ).toEqual(payload);
    }
    const bad = [
      { purpose: 'account-confirm', accountId: [id] },
      { purpose: 'account-reset', accountId: [id], version: 0 },
      { purpose: 'account-reset', accountId: 'not/an/id', version: 0 },
      { purpose: 'account-reset', accountId: id, version: 1.5 },
      { purpose: 'account-reset', accountId: id, version: [4] },
      { purpose: 'account-address', accountId: id, version: 0, sealedAddress: [sealed] },
      { purpose: 'account-address', accountId: id, version: 0, sealedAddress: `x${sealed}` },
      { purpose: 'account-address', accountId: id, version: 0, sealedAddress: `${sealed}x.y` },
      { purpose: 'account-address', accountId: [id], version: 0, sealedAddress: sealed },
      { purpose: 'my-data', addressHash: [hash], sealedAddress: sealed },
      { purpose: 'my-data', addressHash: hash, sealedAddress: [sealed] },
      { purpose: 'confirm', addressHash: [hash], eventId: '01EVENT' },
    ];
    for (const payload of bad) {
      const purpose = payload.purpose as (typeof good)[number]['purpose'] | 'account-confirm';
      expect(
        await readLinkToken(secret, await rawToken(payload), purpose, now),
        JSON.stringify(payload),
      ).toBeUndefined();
    }
  });

  it('carry the status a moderation link was issued for, and refuse one without a known status', async () => {
    const spamSeen = { ...approve, status: 'spam' } as const;
    expect(
      await readLinkToken(secret, await signLinkToken(secret, spamSeen, now + hour), 'moderate', now),
    ).toMatchObject({ status: 'spam' });

    const { status: _status, ...withoutStatus } = approve;
    expect(await readLinkToken(secret, await rawToken(withoutStatus), 'moderate', now)).toBeUndefined();
    expect(
      await readLinkToken(secret, await rawToken({ ...approve, status: 'deleted' }), 'moderate', now),
    ).toBeUndefined();
  });

  it('open only what they were signed for: an unsubscribe link cannot moderate, nor the reverse', async () => {
    expect(
      await readLinkToken(secret, await signLinkToken(secret, unsubscribe, now + hour), 'moderate', now),
    ).toBeUndefined();
    expect(
      await readLinkToken(secret, await signLinkToken(secret, approve, now + hour), 'unsubscribe', now),
    ).toBeUndefined();
  });

  it('make a confirmation link confirm only: an unsubscribe link cannot confirm, nor a confirmation unsubscribe', async () => {
    const confirm = { purpose: 'confirm', addressHash: unsubscribe.addressHash, eventId: '01EVENT' } as const;
    const confirmToken = await signLinkToken(secret, confirm, now + hour);
    expect(await readLinkToken(secret, confirmToken, 'confirm', now)).toEqual(confirm);
    expect(await readLinkToken(secret, confirmToken, 'unsubscribe', now)).toBeUndefined();
    expect(await readLinkToken(secret, confirmToken, 'moderate', now)).toBeUndefined();
    // An unsubscribe token given the confirmation's fields too is still no confirmation.
    expect(
      await readLinkToken(secret, await rawToken({ ...unsubscribe, eventId: '01EVENT' }), 'confirm', now),
    ).toBeUndefined();
    expect(
      await readLinkToken(secret, await signLinkToken(secret, unsubscribe, now + hour), 'confirm', now),
    ).toBeUndefined();
    // Expired, or without its event, it confirms nothing.
    expect(await readLinkToken(secret, confirmToken, 'confirm', now + 2 * hour)).toBeUndefined();
    const { eventId: _eventId, ...withoutEvent } = confirm;
    expect(await readLinkToken(secret, await rawToken(withoutEvent), 'confirm', now)).toBeUndefined();
  });

  it('never pass as another purpose, though signed with the right key and carrying its every field', async () => {
    // A payload that fits both readers' fields: only its signed purpose tells them apart.
    const fields = {
      addressHash: unsubscribe.addressHash,
      rootId: '01ROOT',
      action: 'delete',
      commentId: '01REPLY',
      status: 'waiting',
    };
    const mixedUnsubscribe = await rawToken({ ...fields, purpose: 'unsubscribe' });
    const mixedModerate = await rawToken({ ...fields, purpose: 'moderate' });

    // Each is read by its own purpose's reader, which takes its own fields only...
    expect(await readLinkToken(secret, mixedUnsubscribe, 'unsubscribe', now)).toEqual(unsubscribe);
    expect(await readLinkToken(secret, mixedModerate, 'moderate', now)).toEqual({
      purpose: 'moderate',
      action: 'delete',
      commentId: '01REPLY',
      status: 'waiting',
    });
    // ...and refused by the other's.
    expect(await readLinkToken(secret, mixedUnsubscribe, 'moderate', now)).toBeUndefined();
    expect(await readLinkToken(secret, mixedModerate, 'unsubscribe', now)).toBeUndefined();
    // Nor does a token with no purpose, or one not known, pass as either.
    for (const purpose of [undefined, 'sign-in', ['moderate']]) {
      const token = await rawToken({ ...fields, ...(purpose === undefined ? {} : { purpose }) });
      expect(await readLinkToken(secret, token, 'moderate', now)).toBeUndefined();
      expect(await readLinkToken(secret, token, 'unsubscribe', now)).toBeUndefined();
    }
  });

  it('expire, and a token without an expiry is refused even with the right key', async () => {
    const token = await signLinkToken(secret, approve, now + hour);
    expect(await readLinkToken(secret, token, 'moderate', now + hour - 1000)).toEqual(approve);
    expect(await readLinkToken(secret, token, 'moderate', now + hour + 1000)).toBeUndefined();

    const endless = await new SignJWT({ ...approve })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience('marginalia-link')
      .sign(signingKey(secret));
    expect(await readLinkToken(secret, endless, 'moderate', now)).toBeUndefined();
  });

  it('never pass for sign-in tokens, nor sign-in tokens for them, even were the two keys one value', async () => {
    const signIn = await signToken(secret, { sub: 'admin', email: 'a@example.com', exp: now / 1000 + 3600 });
    expect(await readLinkToken(secret, signIn, 'moderate', now)).toBeUndefined();

    const link = await signLinkToken(secret, approve, now + hour);
    expect(await checkToken(secret, link, now)).toMatchObject({ ok: false });
  });

  it('refuse a token signed with a key derived from the sign-in key, as links were before', async () => {
    const signInDerived = createHmac('sha256', secret).update('marginalia link tokens v1').digest();
    const old = await new SignJWT({ ...approve })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience('marginalia-link')
      .setExpirationTime(Math.floor((now + hour) / 1000))
      .sign(signInDerived);
    expect(await readLinkToken(secret, old, 'moderate', now)).toBeUndefined();
  });

  it('read an unsubscribe link mailed before the link key, with its unkeyed hash, and nothing else of that time', async () => {
    const signInDerived = createHmac('sha256', secret).update('marginalia link tokens v1').digest();
    const old = (payload: Record<string, unknown>, expiresAt = now + hour) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setAudience('marginalia-link')
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(signInDerived);
    const unkeyed = unkeyedAddressHash('ann@example.com');

    expect(
      await readUnkeyedUnsubscribeToken(
        secret,
        await old({ purpose: 'unsubscribe', addressHash: unkeyed }),
        now,
      ),
    ).toEqual({ purpose: 'unsubscribe', addressHash: unkeyed });
    // Not a moderation link of that time, not an expired one, not one signed with the link key.
    const { status: _status, ...oldApprove } = approve;
    expect(await readUnkeyedUnsubscribeToken(secret, await old(oldApprove), now)).toBeUndefined();
    expect(
      await readUnkeyedUnsubscribeToken(
        secret,
        await old({ purpose: 'unsubscribe', addressHash: unkeyed }, now - 1000),
        now,
      ),
    ).toBeUndefined();
    expect(
      await readUnkeyedUnsubscribeToken(secret, await signLinkToken(secret, unsubscribe, now + hour), now),
    ).toBeUndefined();
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

  it('refuse claims of the wrong shape, though signed: an address hash that is not a keyed one, an action not known', async () => {
    for (const addressHash of ['ann@example.com', unkeyedAddressHash('ann@example.com')]) {
      const badHash = await signLinkToken(secret, { ...unsubscribe, addressHash }, now + hour);
      expect(await readLinkToken(secret, badHash, 'unsubscribe', now)).toBeUndefined();
    }
    const badAction = await signLinkToken(secret, { ...approve, action: 'edit' as 'approve' }, now + hour);
    expect(await readLinkToken(secret, badAction, 'moderate', now)).toBeUndefined();
  });

  it('carry no address, and no plain SHA-256 of one', async () => {
    const payload = payloadOf(await signLinkToken(secret, unsubscribe, now + hour));
    const text = JSON.stringify(payload);
    expect(text).not.toContain(unkeyedAddressHash('ann@example.com'));
    expect(text.toLowerCase()).not.toContain('ann@example.com');
  });

  it('are signed for the link audience with the key derived from the link key and its label: one token for one claim set', async () => {
    // Computed once: HS256 under HMAC(link key, 'marginalia link tokens v2'), audience marginalia-link. A
    // change of label, audience or header would make every link already mailed a dead one.
    expect(await signLinkToken(secret, approve, now + hour)).toBe(
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
        '.eyJwdXJwb3NlIjoibW9kZXJhdGUiLCJhY3Rpb24iOiJhcHByb3ZlIiwiY29tbWVudElkIjoiMDFSRVBMWSIsInN0YXR1cyI6IndhaXRpbmciLCJhdWQiOiJtYXJnaW5hbGlhLWxpbmsiLCJleHAiOjE3OTU2MTE2MDB9' +
        '.RL_cSeLXbFbeGssFEndwHwanc3rTwoZ19Xs7-RHLu7o',
    );
  });

  it('carry every action on every status a comment can be in', async () => {
    for (const action of ['approve', 'spam', 'delete'] as const) {
      for (const status of ['approved', 'waiting', 'spam'] as const) {
        const claims = { ...approve, action, status };
        expect(
          await readLinkToken(secret, await signLinkToken(secret, claims, now + hour), 'moderate', now),
        ).toEqual(claims);
      }
    }
  });

  it('carry an unsubscribe link without a thread as exactly that: no rootId at all', async () => {
    const { rootId: _rootId, ...siteOnly } = unsubscribe;
    expect(
      await readLinkToken(secret, await signLinkToken(secret, siteOnly, now + hour), 'unsubscribe', now),
    ).toStrictEqual(siteOnly);
  });

  it('refuse, though signed, an id or address hash that is not a string of its form', async () => {
    const badIds = ['', '01/ROOT', '/01ROOT', '01ROOT/', 'x'.repeat(65), 12345, ['01ROOT'], null];
    for (const rootId of badIds) {
      expect(
        await readLinkToken(secret, await rawToken({ ...unsubscribe, rootId }), 'unsubscribe', now),
      ).toBeUndefined();
    }
    for (const commentId of [...badIds, undefined]) {
      expect(
        await readLinkToken(secret, await rawToken({ ...approve, commentId }), 'moderate', now),
      ).toBeUndefined();
    }
    // An array holding a good hash reads as that hash when made a string: it is still not a string.
    for (const addressHash of [[unsubscribe.addressHash], undefined, 42]) {
      expect(
        await readLinkToken(secret, await rawToken({ ...unsubscribe, addressHash }), 'unsubscribe', now),
      ).toBeUndefined();
    }
    // The longest id is still read.
    const longId = 'x'.repeat(64);
    expect(
      await readLinkToken(secret, await rawToken({ ...approve, commentId: longId }), 'moderate', now),
    ).toEqual({ ...approve, commentId: longId });
  });

  it('read a token of up to 2,048 characters and refuse a longer one, and no token at all', async () => {
    /** A token signed with the right key, padded to exactly `chars` characters. */
    const tokenOf = async (chars: number) => {
      const bare = (await rawToken({ ...approve, pad: '' })).length;
      // Each character of padding adds 4/3 of a character to the token: one of these pads hits `chars`.
      const estimate = Math.floor(((chars - bare) * 3) / 4);
      for (let pad = estimate - 2; pad <= estimate + 2; pad++) {
        const token = await rawToken({ ...approve, pad: 'x'.repeat(pad) });
        if (token.length === chars) return token;
      }
      throw new Error(`no token of ${chars} characters`);
    };
    expect(await readLinkToken(secret, await tokenOf(2048), 'moderate', now)).toEqual(approve);
    expect(await readLinkToken(secret, await tokenOf(2049), 'moderate', now)).toBeUndefined();
    for (const none of [undefined, '']) {
      expect(await readLinkToken(secret, none, 'moderate', now)).toBeUndefined();
      expect(await readUnkeyedUnsubscribeToken(secret, none, now)).toBeUndefined();
    }
  });

  it('read, in a link of before the link key, only an unkeyed hash: neither a keyed one nor a malformed one', async () => {
    const signInDerived = createHmac('sha256', secret).update('marginalia link tokens v1').digest();
    const old = (payload: Record<string, unknown>) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setAudience('marginalia-link')
        .setExpirationTime(Math.floor((now + hour) / 1000))
        .sign(signInDerived);
    const unkeyed = unkeyedAddressHash('ann@example.com');
    for (const addressHash of [unsubscribe.addressHash, unkeyed.toUpperCase(), [unkeyed], undefined]) {
      expect(
        await readUnkeyedUnsubscribeToken(secret, await old({ purpose: 'unsubscribe', addressHash }), now),
      ).toBeUndefined();
    }
    expect(
      await readUnkeyedUnsubscribeToken(
        secret,
        await old({ purpose: 'unsubscribe', addressHash: unkeyed, rootId: '01ROOT' }),
        now,
      ),
    ).toEqual({ purpose: 'unsubscribe', addressHash: unkeyed, rootId: '01ROOT' });
  });
});
