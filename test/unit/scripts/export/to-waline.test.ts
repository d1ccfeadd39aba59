import { describe, expect, it } from 'vitest';
import { accountAttributes } from '../../../../functions/shared/domain/account.js';
import { entities } from '../../../../functions/shared/table/keys.js';
import { toWalineExport } from '../../../../scripts/export/to-waline.js';
import { readWalineUser } from '../../../../scripts/import/formats/waline-users.js';

/** An account item with every secret an account can hold. */
const accountItem = {
  pk: 'USER#01KACCOUNT0000000000000000',
  sk: 'USER',
  entity: entities.account,
  heldPk: 'ACCOUNTS',
  heldSk: '01KACCOUNT0000000000000000',
  [accountAttributes.id]: '01KACCOUNT0000000000000000',
  [accountAttributes.email]: 'tom@example.com',
  [accountAttributes.displayName]: 'Tom',
  [accountAttributes.link]: 'https://tom.example',
  [accountAttributes.avatar]: 'https://img.example/tom.png',
  [accountAttributes.label]: 'VIP',
  [accountAttributes.type]: 'guest',
  [accountAttributes.state]: 'unconfirmed',
  [accountAttributes.passwordHash]: 'scrypt$secret-password-hash',
  [accountAttributes.sessionVersion]: 3,
  [accountAttributes.totpSecret]: 'encrypted-totp-secret',
  [accountAttributes.totpLastStep]: 1234,
  [accountAttributes.recoveryHashes]: ['recovery-hash-one'],
  [accountAttributes.createdAt]: Date.UTC(2026, 0, 2),
  [accountAttributes.walineId]: '7',
};

describe('toWalineExport', () => {
  it('exports each account as a Users row without any secret', () => {
    const exported = toWalineExport([accountItem], 0);

    expect(exported.data.Users).toEqual([
      {
        objectId: '01KACCOUNT0000000000000000',
        display_name: 'Tom',
        email: 'tom@example.com',
        url: 'https://tom.example',
        avatar: 'https://img.example/tom.png',
        label: 'VIP',
        type: 'guest',
        state: 'unconfirmed',
        createdAt: '2026-01-02T00:00:00.000Z',
        updatedAt: '2026-01-02T00:00:00.000Z',
      },
    ]);
    const text = JSON.stringify(exported);
    for (const secret of [
      'secret-password-hash',
      'encrypted-totp-secret',
      'recovery-hash-one',
      '"password"',
      '"2fa"',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it("carries an identity's account's identity and address flag, which an import reads back", () => {
    const identityItem = {
      ...accountItem,
      [accountAttributes.passwordHash]: '',
      [accountAttributes.state]: 'active',
      [accountAttributes.identityProvider]: 'oidc:https://issuer.example',
      [accountAttributes.identitySubject]: 'sub-1',
      [accountAttributes.emailVerified]: false,
    };

    const [row] = toWalineExport([identityItem], 0).data.Users as Record<string, unknown>[];
    const read = readWalineUser('Users[0]', row ?? {}, (value) => Date.parse(String(value)));

    expect(row).toMatchObject({
      identity_provider: 'oidc:https://issuer.example',
      identity_subject: 'sub-1',
      email_verified: false,
    });
    expect(read).toMatchObject({
      ownId: '01KACCOUNT0000000000000000',
      identity: { provider: 'oidc:https://issuer.example', subject: 'sub-1' },
      emailVerified: false,
    });
    // A password account's row carries neither.
    expect(toWalineExport([accountItem], 0).data.Users?.[0]).not.toHaveProperty('identity_provider');
  });

  it("names a comment's account as user_id, and null for an anonymous comment", () => {
    const comment = (id: string, userId?: string) => ({
      entity: entities.comment,
      pk: 'COMMENT#/p/',
      sk: `ROOT#${id}`,
      commentId: id,
      url: '/p/',
      nick: 'Tom',
      mail: 'tom@example.com',
      link: '',
      orig: 'hi',
      html: '<p>hi</p>',
      status: 'approved',
      like: 0,
      insertedAt: 1,
      ...(userId ? { userId } : {}),
    });

    const exported = toWalineExport([comment('01A', '01KACCOUNT0000000000000000'), comment('01B')], 0);

    expect(exported.data.Comment.map((row) => row.user_id)).toEqual(['01KACCOUNT0000000000000000', null]);
  });
});
