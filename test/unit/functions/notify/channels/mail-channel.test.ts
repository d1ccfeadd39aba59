import { type ParsedMail, simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChannels } from '../../../../../functions/notify/channels/channels.js';
import { isPermanentFailure } from '../../../../../functions/notify/channels/permanent-failure.js';
import type { Notice } from '../../../../../functions/notify/notice.js';
import { createAddressHasher } from '../../../../../functions/shared/notify/address-hash.js';
import { readLinkToken } from '../../../../../functions/shared/notify/link-token.js';
import {
  config,
  now,
  notifyConfig,
  ownerAddress,
  parentComment,
  readerAddress,
  replierAddress,
  replyComment,
  replyNotice,
  secretOf,
  secrets,
  senderAddress,
  linkKey,
  waitingNotice,
} from './notice-fixtures.js';
import { headerOf, type ReceivedMail, type SmtpSink, startSmtpSink } from './smtp-sink.js';

/** The keyed address hash under the test configuration's salt (test/support/test-config.ts). */
const addressHash = createAddressHasher('test-salt-0123456789abcdef');

/** Every address-like string in `text`. */
const addressesIn = (text: string) => text.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? [];

/** The link tokens of `prefix` links in `text`. */
const tokensIn = (text: string, route: string) =>
  [
    ...text.matchAll(new RegExp(`https://comments\\.blog\\.example/prod${route}\\?token=([\\w.-]+)`, 'g')),
  ].map((match) => match[1]!);

/** The claims of a JWT, unverified: to read its `exp`. */
const jwtClaims = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };

describe('the mail channel over SMTP', () => {
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  beforeEach(() => {
    sink.mails.length = 0;
  });

  const channelsWith = (env: Record<string, string> = {}) =>
    createChannels({
      config,
      notify: notifyConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(sink.port), ...env }),
      secrets: secrets(),
      now: () => now,
    });

  const send = async (notice: Notice, env: Record<string, string> = {}) => {
    const channel = channelsWith(env)[notice.recipient];
    if (!channel) throw new Error(`no ${notice.recipient} channel`);
    await channel(notice);
    expect(sink.mails).toHaveLength(1);
    const mail = sink.mails[0] as ReceivedMail;
    return { mail, parsed: await simpleParser(mail.raw) };
  };

  describe('a reply to a reader', () => {
    let mail: ReceivedMail;
    let parsed: ParsedMail;
    beforeAll(async () => {
      sink.mails.length = 0;
      ({ mail, parsed } = await send(replyNotice()));
    });

    it('goes to the reader alone, from the site', () => {
      expect(mail.rcptTo).toEqual([readerAddress]);
      expect(mail.mailFrom).toBe(senderAddress);
      expect(parsed.to).toMatchObject({ value: [{ address: readerAddress }] });
      expect(parsed.from?.value).toEqual([{ name: 'Notes & Queries', address: senderAddress }]);
      expect(parsed.cc).toBeUndefined();
      expect(parsed.bcc).toBeUndefined();
    });

    it('has an English subject with the site name as text (no entity)', () => {
      expect(parsed.subject).toBe('Your comment on Notes & Queries received a reply');
      expect(headerOf(mail.raw, 'Content-Language')).toBe('en');
    });

    it('carries the RFC 8058 one-click headers and Auto-Submitted', async () => {
      expect(headerOf(mail.raw, 'Auto-Submitted')).toBe('auto-generated');
      expect(headerOf(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      const listUnsubscribe = headerOf(mail.raw, 'List-Unsubscribe') ?? '';
      expect(listUnsubscribe).toMatch(
        /^<https:\/\/comments\.blog\.example\/prod\/api\/notification\/unsubscribe\?token=[\w.-]+>$/,
      );
      const token = new URL(listUnsubscribe.slice(1, -1)).searchParams.get('token') ?? undefined;
      expect(await readLinkToken(linkKey, token, 'unsubscribe', now)).toEqual({
        purpose: 'unsubscribe',
        addressHash: addressHash(readerAddress),
        rootId: parentComment.id,
      });
      expect(jwtClaims(token!).exp).toBe(Math.floor(now / 1000) + 365 * 86_400);
    });

    it('shows the same unsubscribe link in both bodies', () => {
      const header = headerOf(mail.raw, 'List-Unsubscribe')!.slice(1, -1);
      expect(parsed.html).toContain(`href="${header}"`);
      expect(parsed.text).toContain(header);
    });

    it('escapes the nick, shows links as text and URL, and drops images', () => {
      const html = String(parsed.html);
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Eve &amp; &quot;Co&quot;');
      expect(html).not.toContain('<script');
      expect(html).toContain('https://blog.example/login (https://evil.example/login)');
      expect(html).not.toContain('href="https://evil.example');
      expect(html).not.toContain('tracker.example');
      expect(parsed.text).toContain('<script>alert(1)</script> Eve & "Co" replied:');
    });

    it('names no address but the recipient and the sender', () => {
      const raw = mail.raw.toString();
      const messageId = headerOf(mail.raw, 'Message-ID') ?? '';
      const seen = [
        ...addressesIn(raw.replace(messageId, '')),
        ...addressesIn(`${parsed.text}${parsed.html}`),
      ];
      expect(new Set(seen)).toEqual(new Set([readerAddress, senderAddress]));
      expect(raw).not.toContain(replierAddress);
      expect(raw).not.toContain(ownerAddress);
    });

    it('has a Message-ID stable for this event and recipient', () => {
      expect(headerOf(mail.raw, 'Message-ID')).toBe(`<${replyComment.id}.parent@blog.example>`);
    });
  });

  it('writes a reply in Chinese for a zh-CN reader', async () => {
    const { mail, parsed } = await send(replyNotice({ lang: 'zh-CN' }));
    expect(parsed.subject).toBe('Reader，『Notes & Queries』上的评论收到了回复');
    expect(headerOf(mail.raw, 'Content-Language')).toBe('zh-CN');
    expect(parsed.text).toContain('回复说');
    expect(parsed.text).toContain('退订');
  });

  it('puts three signed, expiring, single-purpose moderation links in the owner’s mail of a waiting comment', async () => {
    const { mail, parsed } = await send(waitingNotice());
    expect(mail.rcptTo).toEqual([ownerAddress]);
    expect(parsed.subject).toBe('A comment on Notes & Queries is waiting for approval');
    expect(headerOf(mail.raw, 'List-Unsubscribe')).toBeUndefined();
    const tokens = tokensIn(String(parsed.html), '/api/notification/moderate');
    expect(tokens).toHaveLength(3);
    const claims = await Promise.all(tokens.map((token) => readLinkToken(linkKey, token, 'moderate', now)));
    expect(claims).toEqual([
      { purpose: 'moderate', action: 'approve', commentId: replyComment.id, status: 'waiting' },
      { purpose: 'moderate', action: 'spam', commentId: replyComment.id, status: 'waiting' },
      { purpose: 'moderate', action: 'delete', commentId: replyComment.id, status: 'waiting' },
    ]);
    const expiry = now + 72 * 3_600_000;
    for (const token of tokens) {
      expect(jwtClaims(token).exp).toBe(expiry / 1000);
      expect(await readLinkToken(linkKey, token, 'moderate', expiry + 1000)).toBeUndefined();
      expect(await readLinkToken(linkKey, token, 'unsubscribe', now)).toBeUndefined();
    }
    expect(parsed.text).toContain('2026-11-28 12:00 UTC');
  });

  it('honours MODERATION_LINK_HOURS', async () => {
    const { parsed } = await send(waitingNotice(), { MODERATION_LINK_HOURS: '2' });
    const [token] = tokensIn(String(parsed.html), '/api/notification/moderate');
    expect(jwtClaims(token!).exp).toBe((now + 2 * 3_600_000) / 1000);
  });

  it('refuses a stored address that is a list, and mails nobody', async () => {
    const hostile = 'a@x.test, b@evil.test';
    const channel = channelsWith().parent!;
    const failure = channel(replyNotice({ to: hostile }));
    await expect(failure).rejects.toThrow('not one plain address');
    await failure.catch((error: Error) => expect(error.message).not.toContain('@'));
    expect(sink.mails).toHaveLength(0);
  });

  it('renders the site’s own MAIL_SUBJECT and MAIL_TEMPLATE with Waline’s variables, in every language', async () => {
    const env = {
      MAIL_SUBJECT: '{{ self.nick }} answered {{ parent.nick }} on {{ site.name }}',
      MAIL_TEMPLATE:
        '<p>{{ parent.nick }}: {{ self.nick }} wrote</p>{{ self.comment | safe }}' +
        '<p><a href="{{ site.postUrl }}">{{ site.url }}</a> [{{ self.mail }}]</p>',
    };
    for (const lang of ['en', 'zh-CN'] as const) {
      sink.mails.length = 0;
      const { parsed } = await send(replyNotice({ lang }), env);
      expect(parsed.subject).toBe('<script>alert(1)</script> Eve & "Co" answered Reader on Notes & Queries');
      expect(parsed.html).toContain(
        '<p>Reader: &lt;script&gt;alert(1)&lt;/script&gt; Eve &amp; &quot;Co&quot; wrote</p>',
      );
      expect(parsed.html).toContain(
        `<a href="https://blog.example/posts/hello/#${replyComment.id}">https://blog.example</a> []`,
      );
      // The unsubscribe footer is added under a custom template too.
      expect(tokensIn(String(parsed.html), '/api/notification/unsubscribe')).toHaveLength(1);
    }
  });

  it('signs in with the password from its secret', async () => {
    const guarded = await startSmtpSink({ password: 's3cret-password' });
    try {
      const channels = createChannels({
        config,
        notify: notifyConfig({
          SMTP_HOST: '127.0.0.1',
          SMTP_PORT: String(guarded.port),
          SMTP_USER: 'mailer',
        }),
        secrets: secrets({ smtpPass: secretOf('s3cret-password') }),
        now: () => now,
      });
      await channels.parent!(replyNotice());
      expect(guarded.logins).toEqual([{ user: 'mailer', pass: 's3cret-password' }]);
      expect(guarded.mails).toHaveLength(1);
    } finally {
      await guarded.close();
    }
  });

  it('fails with the server’s answer, the address blanked out, when the server refuses the recipient', async () => {
    const refusing = await startSmtpSink({ refuseRecipients: true });
    try {
      const channels = createChannels({
        config,
        notify: notifyConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(refusing.port) }),
        secrets: secrets(),
        now: () => now,
      });
      const failure = channels.parent!(replyNotice());
      await expect(failure).rejects.toThrow(/^the mail was not sent: .*<address>.*no such user/);
      await failure.catch((error: Error) => expect(error.message).not.toContain(readerAddress));
      // A 550 is the server's permanent refusal: the delivery is not retried.
      expect(isPermanentFailure(await failure.catch((error: unknown) => error))).toBe(true);
      expect(refusing.mails).toHaveLength(0);
    } finally {
      await refusing.close();
    }
  });
});
