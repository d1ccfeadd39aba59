import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { createAccountMailChannel } from '../../../../../functions/notify/channels/account-mail-channel.js';
import type { MailMessage } from '../../../../../functions/notify/channels/mail-message.js';
import type { Account } from '../../../../../functions/shared/domain/account.js';
import { readLinkToken } from '../../../../../functions/shared/notify/link-token.js';
import { openAddress, sealAddress } from '../../../../../functions/shared/notify/sealed-address.js';
import type { AccountMailSubject } from '../../../../../functions/shared/table/account-mail-event.js';
import { createFakeAccountRepository } from '../../../../support/fake-account-repository.js';

const linkKey = 'l'.repeat(40);
const at = 1_800_000_000_000;
const hour = 3_600_000;
const serverUrl = 'https://comments.blog.example/prod';

const account = (overrides: Partial<Account> = {}): Account => ({
  id: '01ACCOUNT0000000000000000A',
  email: 'ann@example.com',
  displayName: 'Ann <b>',
  type: 'guest',
  state: 'unconfirmed',
  passwordHash: 'scrypt$unused',
  sessionVersion: 2,
  createdAt: at,
  ...overrides,
});

function channel(stored: Account, now = at) {
  const sent: MailMessage[] = [];
  const send = createAccountMailChannel({
    accounts: createFakeAccountRepository([stored]),
    site: { SITE_NAME: 'Notes', SITE_URL: 'https://blog.example' },
    serverUrl,
    linkKey: async () => linkKey,
    sender: { name: 'Notes', address: 'comments@blog.example' },
    transport: async (message) => {
      sent.push(message);
    },
    now: () => now,
  });
  /** Sends `subject`'s mail for the stored account, or for `accountId` ('': a reset asked by address). */
  const mail = (subject: Omit<AccountMailSubject, 'accountId'>, accountId = stored.id) =>
    send({ id: '01EVENT', at, account: { accountId, ...subject } });
  return { mail, sent };
}

const tokenOf = (text: string, path: string) => {
  const match = new RegExp(`${path}\\?token=([\\w.-]+)`).exec(text);
  return match?.[1];
};

describe('the account mail channel: data links', () => {
  const hashOfAnn = 'A'.repeat(43);
  const dataMail = (now = at) => {
    const { sent } = channel(account(), now);
    const send = createAccountMailChannel({
      accounts: createFakeAccountRepository([]),
      site: { SITE_NAME: 'Notes', SITE_URL: 'https://blog.example' },
      serverUrl,
      linkKey: async () => linkKey,
      sender: { name: 'Notes', address: 'comments@blog.example' },
      transport: async (message) => {
        sent.push(message);
      },
      now: () => now,
    });
    const outcome = send({
      id: '01EVENT',
      at,
      account: {
        accountId: '',
        mail: 'my-data',
        lang: 'en',
        sealedTo: sealAddress(linkKey, 'Ann+Blog@Example.com'),
        addressHash: hashOfAnn,
      },
    });
    return { outcome, sent };
  };

  it('mails the sealed address, with no account, a 1-hour data link naming the hash and the normalised address', async () => {
    const { outcome, sent } = dataMail();

    expect(await outcome).toBe('sent');
    expect(sent[0]?.to).toBe('Ann+Blog@Example.com');
    const parsed = await simpleParser(sent[0]?.raw ?? '');
    expect(parsed.subject).toBe('[Notes] Your data on Notes');
    const token = tokenOf(parsed.text ?? '', `${serverUrl}/ui/my-data`);
    const claims = await readLinkToken(linkKey, token, 'my-data', at + hour - 1000);
    expect(claims).toMatchObject({ purpose: 'my-data', addressHash: hashOfAnn });
    expect(openAddress(linkKey, claims?.sealedAddress ?? '')).toBe('ann@example.com');
    expect(await readLinkToken(linkKey, token, 'my-data', at + hour + 1000)).toBeUndefined();
    // The link carries no address in clear.
    expect(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString()).not.toContain('example.com');
  });

  it('skips a data mail whose link expired before it could be sent', async () => {
    const { outcome, sent } = dataMail(at + hour + 1);

    expect(await outcome).toEqual({ skip: 'its link expired before it could be sent' });
    expect(sent).toEqual([]);
  });
});

describe('the account mail channel', () => {
  it("mails the account's address a confirmation link for that purpose alone, valid 24 hours from the request", async () => {
    const { mail, sent } = channel(account());

    expect(await mail({ mail: 'confirm', lang: 'en' })).toBe('sent');

    const parsed = await simpleParser(sent[0]?.raw ?? '');
    expect(sent[0]?.to).toBe('ann@example.com');
    expect(parsed.subject).toBe('[Notes] Registration Confirm Mail');
    expect(parsed.html).toContain('Ann &lt;b&gt;');
    const token = tokenOf(parsed.text ?? '', `${serverUrl}/api/verification`);
    expect(await readLinkToken(linkKey, token, 'account-confirm', at + 24 * hour - 1000)).toEqual({
      purpose: 'account-confirm',
      accountId: '01ACCOUNT0000000000000000A',
    });
    expect(await readLinkToken(linkKey, token, 'account-confirm', at + 24 * hour + 1000)).toBeUndefined();
    expect(await readLinkToken(linkKey, token, 'account-reset', at)).toBeUndefined();
  });

  it('mails a reset link of 1 hour bound to the session version, in Chinese when asked in Chinese', async () => {
    const { mail, sent } = channel(account({ state: 'active' }));

    await mail({ mail: 'reset', lang: 'zh-CN' });

    const parsed = await simpleParser(sent[0]?.raw ?? '');
    expect(parsed.subject).toBe('【Notes】重置密码');
    const token = tokenOf(parsed.text ?? '', `${serverUrl}/ui/reset`);
    expect(await readLinkToken(linkKey, token, 'account-reset', at)).toMatchObject({ version: 2 });
    expect(await readLinkToken(linkKey, token, 'account-reset', at + hour + 1000)).toBeUndefined();
  });

  it('finds the account of a reset asked by address when it sends, and mails only an active one, at its own address', async () => {
    const byAddress = (stored: Account, typed: string) =>
      channel(stored).mail({ mail: 'reset', lang: 'en', sealedTo: sealAddress(linkKey, typed) }, '');
    const active = channel(account({ state: 'active', email: 'ann@gmail.com' }));

    const outcome = await active.mail(
      { mail: 'reset', lang: 'en', sealedTo: sealAddress(linkKey, 'A.nn+x@Gmail.com') },
      '',
    );

    expect(outcome).toBe('sent');
    // The account's own address, not the spelling typed (the same mailbox).
    expect(active.sent.map((message) => message.to)).toEqual(['ann@gmail.com']);
    const token = tokenOf(
      (await simpleParser(active.sent[0]?.raw ?? '')).text ?? '',
      `${serverUrl}/ui/reset`,
    );
    expect(await readLinkToken(linkKey, token, 'account-reset', at)).toEqual({
      purpose: 'account-reset',
      accountId: '01ACCOUNT0000000000000000A',
      version: 2,
    });
    expect(await byAddress(account({ state: 'active' }), 'nobody@example.com')).toEqual({
      skip: 'no account has the address',
    });
    expect(await byAddress(account(), 'ann@example.com')).toEqual({ skip: 'the account is not active' });
    expect(await byAddress(account({ state: 'active', type: 'banned' }), 'ann@example.com')).toEqual({
      skip: 'the account is banned',
    });
    await expect(
      channel(account({ state: 'active' })).mail({ mail: 'reset', lang: 'en', sealedTo: 'forged' }, ''),
    ).rejects.toThrow('could not be opened');
  });

  it('tells of a changed password, and of someone registering with the address, with no link to act on', async () => {
    const { mail, sent } = channel(account({ state: 'active' }));

    await mail({ mail: 'changed', change: 'password', lang: 'en' });
    await mail({ mail: 'already-registered', lang: 'en' });

    const [changed, already] = await Promise.all(sent.map((message) => simpleParser(message.raw)));
    expect(changed?.subject).toBe('[Notes] Your password was changed');
    expect(already?.subject).toBe('[Notes] Someone tried to register with your address');
    expect(already?.text).toContain(`${serverUrl}/ui/forgot`);
    expect(already?.text).not.toContain('token=');
  });

  it('tells of a passkey added or removed, in either language, and never to an address nobody proved', async () => {
    const { mail, sent } = channel(account({ state: 'active' }));

    await mail({ mail: 'changed', change: 'passkey-added', lang: 'en' });
    await mail({ mail: 'changed', change: 'passkey-removed', lang: 'zh-CN' });

    const [added, removed] = await Promise.all(sent.map((message) => simpleParser(message.raw)));
    expect(added?.subject).toBe('[Notes] A passkey was added to your account');
    expect(added?.text).toContain('a passkey was just added to your account on Notes');
    expect(added?.text).toContain(`${serverUrl}/ui/forgot`);
    expect(removed?.subject).toBe('【Notes】你的账户移除了一个通行密钥');
    // An issuer's unverified address, or none: no notice goes out.
    for (const unproven of [account({ state: 'active', emailVerified: false }), account({ email: '' })]) {
      expect(await channel(unproven).mail({ mail: 'changed', change: 'passkey-added', lang: 'en' })).toEqual({
        skip: 'the account has no confirmed address',
      });
    }
  });

  it('skips a banned account, a confirmed one asked to confirm, and a link that expired before it was sent', async () => {
    expect(await channel(account({ type: 'banned' })).mail({ mail: 'confirm', lang: 'en' })).toEqual({
      skip: 'the account is banned',
    });
    expect(await channel(account({ state: 'active' })).mail({ mail: 'confirm', lang: 'en' })).toEqual({
      skip: 'the account is confirmed already',
    });
    const late = channel(account({ state: 'active' }), at + 2 * hour);
    expect(await late.mail({ mail: 'reset', lang: 'en' })).toEqual({
      skip: 'its link expired before it could be sent',
    });
    expect(late.sent).toEqual([]);
  });

  it('tells an address change to the former address the event sealed, never to the new one', async () => {
    const { mail, sent } = channel(account({ state: 'active', email: 'new@example.com' }));
    const sealedTo = sealAddress(linkKey, 'old@example.com');

    await mail({ mail: 'changed', change: 'email', lang: 'en', sealedTo });

    expect(sent.map((message) => message.to)).toEqual(['old@example.com']);
    expect((await simpleParser(sent[0]?.raw ?? '')).subject).toBe('[Notes] Your address was changed');
    expect(sealedTo).not.toContain('old@example.com');
    expect(openAddress('x'.repeat(40), sealedTo)).toBeUndefined();
    expect(openAddress(linkKey, `${sealedTo.slice(0, -2)}AA`)).toBeUndefined();
  });

  it('mails an address-change link to the new address the event sealed, bound to the session version, 24 hours', async () => {
    const { mail, sent } = channel(account({ state: 'active' }));
    const sealedTo = sealAddress(linkKey, 'ann@new.example');

    expect(await mail({ mail: 'confirm-address', lang: 'en', sealedTo, version: 2 })).toBe('sent');
    // A password change or a ban since the request (the version moved on): no link goes out.
    expect(await mail({ mail: 'confirm-address', lang: 'en', sealedTo, version: 1 })).toEqual({
      skip: 'the account changed its password or was banned since the change was asked for',
    });
    // Without the sealed address the event is malformed: refused for good, never sent to the account's own.
    await expect(
      channel(account({ state: 'active' })).mail({ mail: 'confirm-address', lang: 'en', version: 2 }),
    ).rejects.toThrow(/without its sealed address/);

    expect(sent.map((message) => message.to)).toEqual(['ann@new.example']);
    const parsed = await simpleParser(sent[0]?.raw ?? '');
    expect(parsed.subject).toBe('[Notes] Confirm your new address');
    const token = tokenOf(parsed.text ?? '', `${serverUrl}/api/verification`);
    expect(token).not.toContain('ann');
    expect(await readLinkToken(linkKey, token, 'account-address', at + 24 * hour - 1000)).toEqual({
      purpose: 'account-address',
      accountId: '01ACCOUNT0000000000000000A',
      version: 2,
      sealedAddress: sealedTo,
    });
    expect(await readLinkToken(linkKey, token, 'account-address', at + 24 * hour + 1000)).toBeUndefined();
    expect(await readLinkToken(linkKey, token, 'account-confirm', at)).toBeUndefined();
  });
});
