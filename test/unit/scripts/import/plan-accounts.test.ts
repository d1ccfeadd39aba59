import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { importedAccountId } from '../../../../scripts/import/import-id.js';
import { planAccounts } from '../../../../scripts/import/plan-accounts.js';
import { planImport } from '../../../../scripts/import/plan.js';
import type { ParsedSource, SourceAccount, SourceComment } from '../../../../scripts/import/source.js';

const hash = `$2a$08$${'b'.repeat(53)}`;
const user = (sourceId: string, fields: Partial<SourceAccount> = {}): SourceAccount => ({
  ref: `Users[${sourceId}]`,
  sourceId,
  email: `user${sourceId}@example.com`,
  displayName: `User ${sourceId}`,
  link: '',
  avatar: '',
  label: '',
  type: 'guest',
  state: 'active',
  passwordHash: hash,
  passwordDropped: false,
  totpDropped: false,
  oauthDropped: false,
  createdAt: 1_767_000_000_000 + Number(sourceId),
  ...fields,
});

describe('planAccounts', () => {
  it('gives each user a ULID of its creation time and keeps its Waline id when it comes from Waline', () => {
    const { accounts } = planAccounts('waline', [user('1', { label: 'VIP', link: 'https://u.example' })]);

    const [planned] = accounts;
    expect(planned?.account).toEqual({
      id: importedAccountId('waline', '1', 1_767_000_000_001),
      email: 'user1@example.com',
      displayName: 'User 1',
      link: 'https://u.example',
      label: 'VIP',
      type: 'guest',
      state: 'active',
      passwordHash: hash,
      sessionVersion: 0,
      createdAt: 1_767_000_000_001,
      walineId: '1',
    });
    expect(decodeTime(planned?.account.id as string)).toBe(1_767_000_000_001);
  });

  it('derives the same id on a second run, and another for another source id', () => {
    const once = planAccounts('waline', [user('1'), user('2')]).accounts.map((planned) => planned.account.id);
    const again = planAccounts('waline', [user('1'), user('2')]).accounts.map(
      (planned) => planned.account.id,
    );

    expect(again).toEqual(once);
    expect(new Set(once).size).toBe(2);
    expect(once[0]).not.toBe(importedAccountId('valine', '1', 1_767_000_000_001));
  });

  it('keeps the administrator of an address when a guest registered it first', () => {
    const { accounts, skipped, notes } = planAccounts('waline', [
      user('6', { email: 'ADMIN@example.com', createdAt: 1 }),
      user('1', { email: 'admin@example.com', type: 'administrator', createdAt: 2 }),
    ]);

    expect(accounts.map((planned) => planned.sourceId)).toEqual(['1']);
    expect(notes).toEqual([
      'administrators imported (they sign in to moderate; check them): admin@example.com',
    ]);
    expect(skipped).toEqual([
      {
        ref: 'Users[6]',
        reason: 'its address is that of Users[1] once normalised (admin@example.com); the first was kept',
      },
    ]);
  });

  it('keeps the older of two guests whose addresses normalise alike (Gmail dots and +tags)', () => {
    const { accounts, skipped } = planAccounts('waline', [
      user('5', { email: 'G.Wen+waline@Gmail.com', createdAt: 20 }),
      user('2', { email: 'gwen@gmail.com', createdAt: 10 }),
    ]);

    expect(accounts.map((planned) => planned.sourceId)).toEqual(['2']);
    expect(skipped.map((skip) => skip.ref)).toEqual(['Users[5]']);
  });

  it('skips a user without one plain address or without a readable creation time, and says why', () => {
    const { accounts, skipped } = planAccounts('waline', [
      user('8', { email: '' }),
      user('9', { email: 'a@b.example, c@d.example' }),
      user('10', { createdAt: undefined }),
    ]);

    expect(accounts).toEqual([]);
    expect(skipped.map((skip) => skip.reason)).toEqual([
      'its email is missing or not one address (its comments keep the name only)',
      'its email is missing or not one address (its comments keep the name only)',
      'its creation time is missing or unreadable (its comments keep the name only)',
    ]);
  });

  it('skips the second row of one user id', () => {
    const { accounts, skipped } = planAccounts('waline', [
      user('1'),
      user('1', { email: 'other@example.com' }),
    ]);

    expect(accounts).toHaveLength(1);
    expect(skipped[0]?.reason).toBe('user id 1 appears twice in the source; Users[1] was kept');
  });

  it('drops what a visitor could not set on a profile when links, avatars or labels are odd', () => {
    const { accounts, repairs } = planAccounts('waline', [
      user('1', {
        displayName: '  ',
        link: 'javascript:alert(1)',
        avatar: 'data:image/png;base64,AAAA',
        label: 'x'.repeat(100),
      }),
    ]);

    const account = accounts[0]?.account;
    expect(account).toMatchObject({ displayName: 'Anonymous', label: 'x'.repeat(64) });
    expect(account).not.toHaveProperty('link');
    expect(account).not.toHaveProperty('avatar');
    expect([...repairs.keys()]).toEqual([
      'accounts without a display name named Anonymous',
      'account links a visitor could not set dropped',
      'avatars that are not http(s) addresses dropped',
      'labels cut to the limit',
    ]);
  });

  it('says which accounts must reset their password or enrol TOTP again when their secrets are not kept', () => {
    const { accounts, notes } = planAccounts('waline', [
      user('1', { passwordHash: '', passwordDropped: true, totpDropped: true, oauthDropped: true }),
      user('2', { passwordHash: '' }),
      user('3', { type: 'guest', unknownType: 'moderator' }),
    ]);

    expect(accounts.map((planned) => planned.account.passwordHash)).toEqual(['', '', hash]);
    expect(accounts.some((planned) => 'totp' in planned.account)).toBe(false);
    expect(notes).toEqual([
      expect.stringMatching(/^2 accounts have no password hash that can be kept: .*password reset/),
      expect.stringMatching(/^1 of them had a password hash that is not bcrypt/),
      expect.stringMatching(/^1 accounts had two-factor authentication: .* enrol again/),
      expect.stringMatching(/^1 accounts had social sign-ins .* not kept/),
      '1 accounts of a type Waline does not know were kept as guests',
    ]);
  });

  it("reuses the id of Marginalia's own export and gives it no Waline id", () => {
    const { accounts } = planAccounts('waline', [
      user('01KOWN', { ownId: '01KOWN', state: 'awaiting-approval' }),
    ]);

    expect(accounts[0]?.account).toMatchObject({ id: '01KOWN', state: 'awaiting-approval' });
    expect(accounts[0]?.account).not.toHaveProperty('walineId');
  });
});

describe('planImport with accounts', () => {
  const comment = (sourceId: string, userSourceId?: string): SourceComment => ({
    ref: `Comment[${sourceId}]`,
    sourceId,
    url: '/p/',
    nick: 'Copied Name',
    mail: 'copied@example.com',
    link: '',
    ua: '',
    ip: '',
    text: `text ${sourceId}`,
    status: 'approved',
    like: 0,
    sticky: false,
    insertedAt: 1_767_100_000_000 + Number(sourceId),
    ...(userSourceId ? { userSourceId } : {}),
  });
  const source: ParsedSource = {
    format: 'waline',
    comments: [comment('1', '1'), comment('2', '2'), comment('3', '404'), comment('4')],
    counters: [],
    accounts: [user('1'), user('2', { email: 'user1@example.com' })],
    skipped: [],
    notes: [],
  };

  it('names the author account only on comments whose user is imported, keeping the name copy on all', () => {
    const plan = planImport(source);

    expect(plan.accounts.map((planned) => planned.sourceId)).toEqual(['1']);
    expect(plan.comments.map((planned) => planned.userSourceId)).toEqual([
      '1',
      undefined,
      undefined,
      undefined,
    ]);
    expect(plan.comments.every((planned) => planned.item.nick === 'Copied Name')).toBe(true);
    expect(plan.skipped.map((skip) => skip.ref)).toEqual(['Users[2]']);
  });
});
