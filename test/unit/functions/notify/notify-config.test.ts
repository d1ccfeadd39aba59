import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webhookKey } from '../../../../functions/notify/channels/webhook-secret.js';
import { loadNotifyConfig, singleAddress } from '../../../../functions/notify/notify-config.js';

/** A secret as the error message says to make one: `whsec_` and 32 random bytes in base64. */
const secret = `whsec_${randomBytes(32).toString('base64')}`;

describe('loadNotifyConfig (local mode runs it at start, the stack at synth)', () => {
  it('refuses WEBHOOK without a secret, naming WEBHOOK_SECRET, WEBHOOK_SECRET_PARAMETER and how to make one', () => {
    expect(() => loadNotifyConfig({ WEBHOOK: 'http://127.0.0.1:9/hook' })).toThrow(
      'Invalid configuration: WEBHOOK: set WEBHOOK_SECRET too (on AWS WEBHOOK_SECRET_PARAMETER, the SSM ' +
        'SecureString holding it): every delivery is signed with it as Standard Webhooks signs. Make one with ' +
        '`echo "whsec_$(openssl rand -base64 32)"` and give the receiver the same secret',
    );
    expect(() => loadNotifyConfig({ WEBHOOK: 'http://127.0.0.1:9/hook', WEBHOOK_SECRET: ' ' })).toThrow(
      'WEBHOOK_SECRET too',
    );
  });

  it('takes WEBHOOK with a secret, or with the parameter that holds one on AWS', () => {
    expect(loadNotifyConfig({ WEBHOOK: 'http://127.0.0.1:9/hook', WEBHOOK_SECRET: secret })).toMatchObject({
      WEBHOOK: 'http://127.0.0.1:9/hook',
      WEBHOOK_SECRET: secret,
    });
    expect(
      loadNotifyConfig({ WEBHOOK: 'https://hooks.example/x', WEBHOOK_SECRET_PARAMETER: '/blog/webhook' }),
    ).toMatchObject({ WEBHOOK_SECRET_PARAMETER: '/blog/webhook' });
  });

  it('accepts the secret the message makes, with or without whsec_, and refuses a short or malformed one', () => {
    expect('key' in webhookKey(secret)).toBe(true);
    expect('key' in webhookKey(secret.slice('whsec_'.length))).toBe(true);
    for (const bad of ['whsec_abc', `whsec_${randomBytes(16).toString('base64')}`, 'whsec_not base64!!']) {
      expect(() => loadNotifyConfig({ WEBHOOK_SECRET: bad })).toThrow(
        /WEBHOOK_SECRET must be whsec_ and at least 24 random bytes in base64 \(make one with `echo "whsec_\$\(openssl rand -base64 32\)"`\)/,
      );
    }
  });

  it('reads CHANNEL_TIMEOUT_MS, 5 s by default, within 100 ms and 30 s', () => {
    expect(loadNotifyConfig({}).CHANNEL_TIMEOUT_MS).toBe(5000);
    expect(loadNotifyConfig({ CHANNEL_TIMEOUT_MS: '250' }).CHANNEL_TIMEOUT_MS).toBe(250);
    expect(() => loadNotifyConfig({ CHANNEL_TIMEOUT_MS: '50' })).toThrow('CHANNEL_TIMEOUT_MS');
  });

  it('reads REPLY_MAIL, confirmed by default, and refuses anything but confirmed, all or off', () => {
    expect(loadNotifyConfig({}).REPLY_MAIL).toBe('confirmed');
    expect(loadNotifyConfig({ REPLY_MAIL: 'confirmed' }).REPLY_MAIL).toBe('confirmed');
    expect(loadNotifyConfig({ REPLY_MAIL: 'all' }).REPLY_MAIL).toBe('all');
    expect(loadNotifyConfig({ REPLY_MAIL: 'off' }).REPLY_MAIL).toBe('off');
    expect(() => loadNotifyConfig({ REPLY_MAIL: 'yes' })).toThrow('REPLY_MAIL');
  });
});

describe('loadNotifyConfig', () => {
  it('applies the defaults when nothing is set: no owner, no channel, no mail', () => {
    expect(loadNotifyConfig({})).toEqual({
      AUTHOR_LANG: 'en',
      CHANNEL_TIMEOUT_MS: 5000,
      DISABLE_AUTHOR_NOTIFY: false,
      SMTP_SECURE: false,
      TG_API_URL: 'https://api.telegram.org',
      REPLY_MAIL: 'confirmed',
      NOTIFY_CAP_PER_HOUR: 5,
      NOTIFY_CAP_PER_DAY: 20,
      NOTIFY_SITE_CAP_PER_HOUR: 50,
      NOTIFY_SITE_CAP_PER_DAY: 200,
      NOTIFY_DOMAIN_CAP_PER_HOUR: 20,
      AUTHOR_NOTIFY_CAP_PER_HOUR: 10,
      MODERATION_LINK_HOURS: 72,
      mailTransport: undefined,
    });
  });

  it('reads a switch as on unless it is unset, blank, 0 or false (any case)', () => {
    const switchOf = (value: string | undefined) =>
      loadNotifyConfig({ DISABLE_AUTHOR_NOTIFY: value, SMTP_SECURE: value });
    for (const off of [undefined, '', '0', 'false', 'FALSE', 'False']) {
      expect(switchOf(off)).toMatchObject({ DISABLE_AUTHOR_NOTIFY: false, SMTP_SECURE: false });
    }
    for (const on of ['1', 'true', 'yes', 'no', '00', 'falsely', ' false']) {
      expect(switchOf(on)).toMatchObject({ DISABLE_AUTHOR_NOTIFY: true, SMTP_SECURE: true });
    }
  });

  it('reads a blank text as unset and keeps any other text as typed', () => {
    const blank = loadNotifyConfig({ SENDER_NAME: '   ', MAIL_SUBJECT: '', TG_CHAT_ID: '\t' });
    expect(blank).not.toHaveProperty('SENDER_NAME', expect.anything());
    expect([blank.SENDER_NAME, blank.MAIL_SUBJECT, blank.TG_CHAT_ID]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(loadNotifyConfig({ SENDER_NAME: ' Notes ' }).SENDER_NAME).toBe(' Notes ');
  });

  it('refuses a text over its length, naming the variable', () => {
    expect(() => loadNotifyConfig({ SENDER_NAME: 'x'.repeat(101) })).toThrow(
      /^Invalid configuration: SENDER_NAME: /,
    );
    expect(loadNotifyConfig({ SENDER_NAME: 'x'.repeat(100) }).SENDER_NAME).toHaveLength(100);
  });

  it('trims an address, reads a blank one as unset, and refuses anything but one plain address', () => {
    expect(loadNotifyConfig({ AUTHOR_EMAIL: ' owner@example.com ' }).AUTHOR_EMAIL).toBe('owner@example.com');
    expect(loadNotifyConfig({ AUTHOR_EMAIL: '  ', SENDER_EMAIL: '' })).toMatchObject({
      AUTHOR_EMAIL: undefined,
      SENDER_EMAIL: undefined,
    });
    expect(() => loadNotifyConfig({ AUTHOR_EMAIL: 'a@example.com, b@example.com' })).toThrow(
      'Invalid configuration: AUTHOR_EMAIL: must be one plain address',
    );
  });

  it('names every bad variable in one error', () => {
    expect(() =>
      loadNotifyConfig({ SENDER_EMAIL: 'Site <s@example.com>', SMTP_PORT: '0', MAIL_TRANSPORT: 'sendmail' }),
    ).toThrow(
      /^Invalid configuration: MAIL_TRANSPORT: [^;]+; SMTP_PORT: [^;]+; SENDER_EMAIL: must be one plain address$/,
    );
  });

  it('reads the owner’s language as English unless it is Chinese', () => {
    expect(loadNotifyConfig({ AUTHOR_LANG: 'zh-TW' }).AUTHOR_LANG).toBe('zh-CN');
    expect(loadNotifyConfig({ AUTHOR_LANG: 'fr' }).AUTHOR_LANG).toBe('en');
    expect(() => loadNotifyConfig({ AUTHOR_LANG: `zh-${'x'.repeat(33)}` })).toThrow(/AUTHOR_LANG: /);
  });

  it('takes only http and https addresses for SERVER_URL, WEBHOOK and TG_API_URL', () => {
    for (const name of ['SERVER_URL', 'WEBHOOK', 'TG_API_URL']) {
      for (const url of ['http://127.0.0.1:8360/', 'https://hooks.example/in']) {
        expect(loadNotifyConfig({ [name]: url, WEBHOOK_SECRET: secret })).toMatchObject({ [name]: url });
      }
      for (const url of ['ftp://files.example/', 'xhttp://a.example/', 'httpsx://a.example/']) {
        expect(() => loadNotifyConfig({ [name]: url, WEBHOOK_SECRET: secret }), url).toThrow(
          new RegExp(`: ${name}: `),
        );
      }
    }
  });

  it('bounds the caps and the moderation links’ lifetime', () => {
    expect(
      loadNotifyConfig({
        NOTIFY_CAP_PER_HOUR: '1',
        NOTIFY_CAP_PER_DAY: '10000',
        MODERATION_LINK_HOURS: '720',
      }),
    ).toMatchObject({ NOTIFY_CAP_PER_HOUR: 1, NOTIFY_CAP_PER_DAY: 10_000, MODERATION_LINK_HOURS: 720 });
    expect(() => loadNotifyConfig({ MODERATION_LINK_HOURS: '721' })).toThrow(/MODERATION_LINK_HOURS: /);
    expect(() => loadNotifyConfig({ NOTIFY_CAP_PER_HOUR: '0' })).toThrow(/NOTIFY_CAP_PER_HOUR: /);
  });

  it('bounds the site-wide caps and the owner cap: at least 1 each (no cap is not a setting)', () => {
    expect(
      loadNotifyConfig({
        NOTIFY_SITE_CAP_PER_HOUR: '100000',
        NOTIFY_SITE_CAP_PER_DAY: '1000000',
        NOTIFY_DOMAIN_CAP_PER_HOUR: '1',
        AUTHOR_NOTIFY_CAP_PER_HOUR: '10000',
      }),
    ).toMatchObject({
      NOTIFY_SITE_CAP_PER_HOUR: 100_000,
      NOTIFY_SITE_CAP_PER_DAY: 1_000_000,
      NOTIFY_DOMAIN_CAP_PER_HOUR: 1,
      AUTHOR_NOTIFY_CAP_PER_HOUR: 10_000,
    });
    for (const [name, value] of [
      ['NOTIFY_SITE_CAP_PER_HOUR', '0'],
      ['NOTIFY_SITE_CAP_PER_HOUR', '100001'],
      ['NOTIFY_SITE_CAP_PER_DAY', '0'],
      ['NOTIFY_SITE_CAP_PER_DAY', '1000001'],
      ['NOTIFY_DOMAIN_CAP_PER_HOUR', '0'],
      ['NOTIFY_DOMAIN_CAP_PER_HOUR', '100001'],
      ['AUTHOR_NOTIFY_CAP_PER_HOUR', '0'],
      ['AUTHOR_NOTIFY_CAP_PER_HOUR', '10001'],
      ['AUTHOR_NOTIFY_CAP_PER_HOUR', '2.5'],
    ] as const) {
      expect(() => loadNotifyConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`${name}: `));
    }
  });

  describe('the mail transport', () => {
    it('is SMTP when SMTP_HOST or SMTP_SERVICE is set, else none', () => {
      expect(loadNotifyConfig({ SMTP_HOST: 'smtp.example' }).mailTransport).toBe('smtp');
      expect(loadNotifyConfig({ SMTP_SERVICE: 'gmail' }).mailTransport).toBe('smtp');
      expect(loadNotifyConfig({ SMTP_HOST: ' ', SMTP_SERVICE: '' }).mailTransport).toBeUndefined();
    });

    it('is what MAIL_TRANSPORT names, whatever else is set', () => {
      expect(loadNotifyConfig({ MAIL_TRANSPORT: 'ses', SMTP_HOST: 'smtp.example' }).mailTransport).toBe(
        'ses',
      );
      expect(loadNotifyConfig({ MAIL_TRANSPORT: 'smtp' }).mailTransport).toBe('smtp');
    });
  });
});

describe('singleAddress', () => {
  const accepts = (address: string) => singleAddress.safeParse(address).success;

  it('accepts one plain address', () => {
    expect(accepts('reader@example.com')).toBe(true);
    expect(accepts('first.last+tag@sub.example.co.uk')).toBe(true);
  });

  it('refuses anything nodemailer could read as more than one recipient, or as no address', () => {
    for (const address of [
      'a@example.com, b@example.com',
      'a@example.com;b@example.com',
      'Name <a@example.com>',
      '"a"@example.com',
      'grp: a@example.com;',
      'a @example.com',
      'a@exa mple.com',
      'a@example.com\n',
      '(c)a@example.com',
      'a[1]@example.com',
      'a\\b@example.com',
      'a@b@example.com',
      '@example.com',
      'a@',
      'a@example',
      'a@.com',
      'a@example.',
      'reader',
    ]) {
      expect(accepts(address), address).toBe(false);
    }
  });

  it('refuses an address over 254 characters', () => {
    const local = 'a'.repeat(64);
    const domainOf = (chars: number) => `${'b'.repeat(chars - 4)}.com`;
    expect(accepts(`${local}@${domainOf(254 - 65)}`)).toBe(true);
    expect(accepts(`${local}@${domainOf(255 - 65)}`)).toBe(false);
  });
});
