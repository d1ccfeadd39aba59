import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createNotifyDependencies,
  extensionNotifySecrets,
  plainNotifySecrets,
} from '../../../../functions/notify/dependencies.js';
import { loadNotifyConfig } from '../../../../functions/notify/notify-config.js';
import { startFakeSecretsExtension } from '../../../support/fake-secrets-extension.js';
import { testConfig } from '../../../support/test-config.js';

const linkKey = 'l'.repeat(40);

describe('the notifier secrets', () => {
  let extension: Awaited<ReturnType<typeof startFakeSecretsExtension>>;
  beforeEach(async () => {
    extension = await startFakeSecretsExtension();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await extension.close();
  });

  it('reads each plain variable locally, the link key from LINK_SECRET and never the sign-in key', async () => {
    const secrets = plainNotifySecrets(
      testConfig({ JWT_TOKEN: 'j'.repeat(40), LINK_SECRET: linkKey }),
      loadNotifyConfig({
        SMTP_PASS: 'pass',
        TG_BOT_TOKEN: '1:token',
        WEBHOOK_SECRET: 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
      }),
    );

    expect([
      await secrets.smtpPass(),
      await secrets.botToken(),
      await secrets.webhookSecret(),
      await secrets.linkKey(),
    ]).toEqual(['pass', '1:token', 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', linkKey]);
  });

  it('reads each parameter through the extension on AWS, a plain variable winning, and nothing for neither', async () => {
    extension.values.set('/m/smtp', 'from-ssm');
    extension.values.set('/m/telegram', '2:ssm-token');
    extension.values.set('/m/links', 'k'.repeat(40));
    extension.values.set('/m/jwt', 'j'.repeat(40));
    const secrets = extensionNotifySecrets(
      testConfig({ LINK_SECRET_PARAMETER: '/m/links', JWT_SECRET_PARAMETER: '/m/jwt' }),
      loadNotifyConfig({
        SMTP_PASS_PARAMETER: '/m/smtp',
        TG_BOT_TOKEN: 'plain-token',
        TG_BOT_TOKEN_PARAMETER: '/m/telegram',
      }),
      { host: '127.0.0.1', port: extension.port, sessionToken: 'session' },
    );

    expect([
      await secrets.smtpPass(),
      await secrets.botToken(),
      await secrets.webhookSecret(),
      await secrets.linkKey(),
    ]).toEqual(['from-ssm', 'plain-token', undefined, 'k'.repeat(40)]);
    expect(extension.requests).toEqual([
      { name: '/m/smtp', token: 'session' },
      { name: '/m/links', token: 'session' },
    ]);
  });

  it('turns a channel off, and says so, when its parameter is missing', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const secrets = extensionNotifySecrets(
      testConfig(),
      loadNotifyConfig({ WEBHOOK_SECRET_PARAMETER: '/m/none' }),
      {
        host: '127.0.0.1',
        port: extension.port,
        sessionToken: 'session',
      },
    );

    expect(await secrets.webhookSecret()).toBeUndefined();
    expect(String(log.mock.calls[0]?.[0])).toContain('/m/none does not exist: the webhook is off');
  });
});

describe('createNotifyDependencies', () => {
  it('takes the channels and clock it is given, and builds the rest on the table', () => {
    const channels = { owner: async () => undefined };
    const now = () => 7;

    const dependencies = createNotifyDependencies(testConfig(), loadNotifyConfig({}), { channels, now });

    expect(dependencies.channels).toBe(channels);
    expect(dependencies.now()).toBe(7);
    expect(Object.keys(dependencies).sort()).toEqual(
      [
        'channels',
        'config',
        'confirmations',
        'deliveries',
        'formerHashAddress',
        'guards',
        'hashAddress',
        'notify',
        'now',
        'outbox',
        'ownerMailHours',
        'readComments',
        'siteMailCaps',
      ].sort(),
    );
    // Keyed with the IP-hash salt: another salt gives another hash.
    const other = createNotifyDependencies(
      testConfig({ IP_HASH_SALT: 'another-salt-0123456789' }),
      loadNotifyConfig({}),
    );
    expect(dependencies.hashAddress('a@example.com')).toMatch(/^[\w-]{43}$/);
    expect(other.hashAddress('a@example.com')).not.toBe(dependencies.hashAddress('a@example.com'));
  });

  it('builds the site-wide caps, the owner cap and the digest mail from the settings', () => {
    const dependencies = createNotifyDependencies(
      testConfig(),
      loadNotifyConfig({
        SMTP_HOST: '127.0.0.1',
        AUTHOR_EMAIL: 'owner@example.com',
        NOTIFY_SITE_CAP_PER_HOUR: '7',
        NOTIFY_SITE_CAP_PER_DAY: '70',
        NOTIFY_DOMAIN_CAP_PER_HOUR: '3',
        AUTHOR_NOTIFY_CAP_PER_HOUR: '4',
      }),
    );

    expect(dependencies.siteMailCaps.settings).toEqual({ perHour: 7, perDay: 70, domainPerHour: 3 });
    expect(dependencies.ownerMailHours.perHour).toBe(4);
    expect(dependencies.ownerDigestMail).toBeTypeOf('function');
  });

  it('builds no mail channel when no mail is configured', () => {
    const dependencies = createNotifyDependencies(testConfig(), loadNotifyConfig({}));
    expect(dependencies.ownerDigestMail).toBeUndefined();
    expect(dependencies.channels.owner).toBeUndefined();
    expect(dependencies.channels.parent).toBeUndefined();
  });
});
