import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWalineUser } from '../../../../../scripts/import/formats/waline-users.js';
import { readLeanCloud } from '../../../../../scripts/import/formats/leancloud.js';
import { readWaline } from '../../../../../scripts/import/formats/waline.js';
import type { InputFile, SourceAccount } from '../../../../../scripts/import/source.js';

const fixture = (name: string): InputFile => ({
  name,
  text: readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'import', name), 'utf8'),
});
const options = { sourceTimezone: 'UTC' };
const bySourceId = (accounts: readonly SourceAccount[] | undefined) =>
  Object.fromEntries((accounts ?? []).map((account) => [account.sourceId, account]));
const readDate = (value: unknown) => (typeof value === 'number' ? value : undefined);
const hash = `$2a$08$${'a'.repeat(53)}`;

describe('readWalineUser', () => {
  it("maps Waline's columns to the account's fields when the row is a registered user", () => {
    const row = {
      objectId: 7,
      display_name: 'Tom',
      email: ' tom@example.com ',
      url: 'https://tom.example',
      avatar: 'https://img.example/t.png',
      label: 'VIP',
      type: 'guest',
      password: hash,
      '2fa': null,
      createdAt: 1_700_000_000_000,
    };

    expect(readWalineUser('r', row, readDate)).toEqual({
      ref: 'r',
      sourceId: '7',
      email: 'tom@example.com',
      displayName: 'Tom',
      link: 'https://tom.example',
      avatar: 'https://img.example/t.png',
      label: 'VIP',
      type: 'guest',
      state: 'active',
      passwordHash: hash,
      passwordDropped: false,
      totpDropped: false,
      oauthDropped: false,
      createdAt: 1_700_000_000_000,
    });
  });

  it('makes a user who never confirmed the address an unconfirmed guest when its type is verify:', () => {
    const read = readWalineUser('r', { objectId: 1, type: 'verify:1234:1767600000000' }, readDate);

    expect(read).toMatchObject({ type: 'guest', state: 'unconfirmed' });
    expect(read).not.toHaveProperty('unknownType');
  });

  it('keeps administrators and banned users as they were when the type says so', () => {
    expect(readWalineUser('r', { objectId: 1, type: 'administrator' }, readDate)).toMatchObject({
      type: 'administrator',
      state: 'active',
    });
    expect(readWalineUser('r', { objectId: 1, type: 'banned' }, readDate)).toMatchObject({ type: 'banned' });
  });

  it('keeps a user of a type Waline does not know as a guest and says which type when it is odd', () => {
    expect(readWalineUser('r', { objectId: 1, type: 'moderator' }, readDate)).toMatchObject({
      type: 'guest',
      state: 'active',
      unknownType: 'moderator',
    });
  });

  it('says the social sign-in bindings are dropped when any OAuth column is set', () => {
    expect(readWalineUser('r', { objectId: 1, github: 'tomgh', qq: null }, readDate)).toMatchObject({
      oauthDropped: true,
    });
    expect(readWalineUser('r', { objectId: 1, github: null, huawei: '' }, readDate)).toMatchObject({
      oauthDropped: false,
    });
  });

  it('keeps only bcrypt hashes and drops the TOTP secret when the row has other hashes or 2fa', () => {
    const phpass = readWalineUser(
      'r',
      { objectId: 1, password: '$P$Babcdefghijklmnopqrstuvwxyz012', '2fa': 'JBSWY3DPEHPK3PXP' },
      readDate,
    );
    const none = readWalineUser('r', { objectId: 2, password: null }, readDate);

    expect(phpass).toMatchObject({ passwordHash: '', passwordDropped: true, totpDropped: true });
    expect(JSON.stringify(phpass)).not.toContain('JBSWY3DPEHPK3PXP');
    expect(none).toMatchObject({ passwordHash: '', passwordDropped: false, totpDropped: false });
  });

  it("reuses the id of Marginalia's own export when the row carries Marginalia's state", () => {
    const own = readWalineUser(
      'r',
      { objectId: '01KOWN', type: 'guest', state: 'awaiting-approval' },
      readDate,
    );
    const waline = readWalineUser('r', { objectId: 3, type: 'guest', state: 'active' }, readDate);

    expect(own).toMatchObject({ ownId: '01KOWN', state: 'awaiting-approval' });
    expect(waline).not.toHaveProperty('ownId');
  });

  it('refuses a row without objectId', () => {
    expect(readWalineUser('r', { email: 'a@example.com' }, readDate)).toEqual({
      ref: 'r',
      reason: 'no objectId',
    });
  });
});

describe('Users in each format the importer reads', () => {
  it('reads the Users of an SQL-backed Waline export and names them from comments by numeric user_id', () => {
    const source = readWaline([fixture('waline-users.json')], options);

    expect(source.accounts).toHaveLength(8);
    expect(bySourceId(source.accounts)['1']).toMatchObject({
      email: 'admin@example.com',
      type: 'administrator',
      label: 'Owner',
      createdAt: Date.UTC(2026, 0, 2, 10),
    });
    const byText = Object.fromEntries(source.comments.map((comment) => [comment.text, comment]));
    expect(byText['Welcome, from the owner']).toMatchObject({ userSourceId: '1', nick: 'Admin Waline' });
    expect(byText['Anonymous visitor']).not.toHaveProperty('userSourceId');
    expect(byText['A user that was deleted']).toMatchObject({ userSourceId: '99', nick: 'Gone' });
    expect(source.notes.join('\n')).not.toContain('Users rows not imported');
  });

  it('reads the Users of a Waline export from LeanCloud storage when ids are strings', () => {
    const source = readWaline([fixture('waline-users-leancloud.json')], options);
    const users = bySourceId(source.accounts);

    expect(Object.keys(users)).toHaveLength(3);
    expect(users['6a0100000000000000000001']).toMatchObject({ type: 'administrator' });
    expect(users['6a0100000000000000000003']).toMatchObject({ type: 'guest', state: 'unconfirmed' });
    expect(source.comments.find((comment) => comment.text === 'Leo answers')).toMatchObject({
      userSourceId: '6a0100000000000000000002',
    });
  });

  it("reads LeanCloud's Users class file beside the Comment class when user_id is a string", () => {
    const source = readLeanCloud(
      [fixture('leancloud-users/Comment.0.jsonl'), fixture('leancloud-users/Users.0.jsonl')],
      options,
    );

    expect(source.accounts?.map((account) => [account.sourceId, account.type, account.totpDropped])).toEqual([
      ['6b0000000000000000000001', 'administrator', false],
      ['6b0000000000000000000002', 'guest', true],
    ]);
    expect(source.comments.map((comment) => comment.userSourceId)).toEqual([
      '6b0000000000000000000001',
      '6b0000000000000000000002',
    ]);
    expect(source.notes.join('\n')).not.toContain('user_id');
  });
});
