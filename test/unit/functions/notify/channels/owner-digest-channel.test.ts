import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { createOwnerDigestMail } from '../../../../../functions/notify/channels/channels.js';
import type { MailMessage } from '../../../../../functions/notify/channels/mail-message.js';
import {
  administrationPageUrl,
  createOwnerDigestChannel,
  renderOwnerDigest,
} from '../../../../../functions/notify/channels/owner-digest-channel.js';
import { isPermanentFailure } from '../../../../../functions/notify/channels/permanent-failure.js';
import { config, now, notifyConfig, ownerAddress, secrets, senderAddress } from './notice-fixtures.js';

const digest = { hour: '2026-11-25T17', count: 37 };
const site = { SITE_NAME: 'Notes & Queries', SITE_URL: 'https://blog.example' };
const serverUrl = 'https://comments.blog.example/prod';

describe('renderOwnerDigest', () => {
  it('says in English how many more comments came in, in which hour, and links to /ui', () => {
    const mail = renderOwnerDigest(digest, { lang: 'en', cap: 10, site, serverUrl });

    expect(mail.subject).toBe('37 more comments on Notes & Queries in the hour to 18:00 UTC');
    expect(mail.text).toContain(
      'Between 17:00 and 18:00 UTC on 2026-11-25, 37 more comments came in than the 10 an hour you are mailed about one by one.',
    );
    expect(mail.html).toContain(
      '<a href="https://comments.blog.example/prod/ui">https://comments.blog.example/prod/ui</a>',
    );
    expect(mail.html).toContain('Notes &amp; Queries');
    // A whole document in the owner's language, with no footer under the digest.
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(mail.html).toMatch(/<\/div>\n\n<\/body>\n<\/html>$/);
  });

  it('says one comment in the singular', () => {
    const mail = renderOwnerDigest({ ...digest, count: 1 }, { lang: 'en', cap: 10, site, serverUrl });

    expect(mail.subject).toBe('1 more comment on Notes & Queries in the hour to 18:00 UTC');
  });

  it('says it in Chinese for a zh-CN owner', () => {
    const mail = renderOwnerDigest(digest, { lang: 'zh-CN', cap: 10, site, serverUrl });

    expect(mail.subject).toBe('Notes & Queries 在 UTC 17:00–18:00 又有 37 条新评论');
    expect(mail.text).toContain('每小时逐条邮件通知的上限（10 封），其余 37 条不再逐条通知');
    expect(mail.html).toContain('href="https://comments.blog.example/prod/ui"');
    expect(mail.html).toContain('<html lang="zh-CN">');
  });

  it('names /ui without a link when SERVER_URL is not set', () => {
    const mail = renderOwnerDigest(digest, { lang: 'en', cap: 10, site, serverUrl: undefined });

    expect(mail.html).toContain('on the administration page: /ui</p>');
    expect(mail.html).not.toContain('<a href="/ui"');
  });
});

describe('administrationPageUrl', () => {
  it('is /ui under SERVER_URL, keeping its base path', () => {
    expect(administrationPageUrl('https://api.example/prod/')).toBe('https://api.example/prod/ui');
    expect(administrationPageUrl('https://api.example')).toBe('https://api.example/ui');
    expect(administrationPageUrl(undefined)).toBe('');
  });
});

describe('createOwnerDigestChannel', () => {
  it("mails the owner the hour's digest, From the site, with one Message-ID per hour", async () => {
    const messages: MailMessage[] = [];
    const send = createOwnerDigestChannel({
      to: ownerAddress,
      lang: 'en',
      cap: 10,
      site,
      serverUrl,
      sender: { name: 'Notes & Queries', address: senderAddress },
      transport: async (message) => void messages.push(message),
      now: () => now,
    });

    await send(digest);

    const [message] = messages;
    expect(message?.to).toBe(ownerAddress);
    const parsed = await simpleParser(message!.raw);
    expect(parsed.messageId).toBe('<digest-2026-11-25T17.owner@blog.example>');
    expect(parsed.subject).toBe('37 more comments on Notes & Queries in the hour to 18:00 UTC');
    expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(parsed.headers.get('list-unsubscribe')).toBeUndefined();
  });

  it('refuses for good without a From address, and blanks addresses out of a transport error', async () => {
    const base = {
      to: ownerAddress,
      lang: 'en' as const,
      cap: 10,
      site,
      serverUrl,
      now: () => now,
    };
    const noSender = createOwnerDigestChannel({
      ...base,
      sender: { problem: 'SENDER_EMAIL is not set' },
      transport: async () => {},
    });
    const refused = createOwnerDigestChannel({
      ...base,
      sender: { name: 'N', address: senderAddress },
      transport: async () => {
        throw new Error(`550 <${ownerAddress}>: no such user`);
      },
    });

    await expect(noSender(digest)).rejects.toSatisfy(isPermanentFailure);
    await expect(refused(digest)).rejects.toThrow('the mail was not sent: 550 <<address>>: no such user');
  });
});

describe('createOwnerDigestMail', () => {
  it('is built with a mail transport and AUTHOR_EMAIL, and only then', () => {
    const settings = (env: Record<string, string>) => ({
      config,
      notify: notifyConfig({ SMTP_HOST: '127.0.0.1', ...env }),
      secrets: secrets(),
      now: () => now,
    });

    expect(createOwnerDigestMail(settings({}))).toBeTypeOf('function');
    expect(createOwnerDigestMail(settings({ AUTHOR_EMAIL: '' }))).toBeUndefined();
    expect(createOwnerDigestMail({ ...settings({}), notify: notifyConfig() })).toBeUndefined();
  });
});
