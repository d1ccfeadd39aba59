import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Config } from '../../shared/config.js';
import { createAddressHasher } from '../../shared/notify/address-hash.js';
import type { SecretSource } from '../../shared/secrets/parameter-secret.js';
import { createNotificationLinks } from '../links.js';
import type { Channels } from '../notice.js';
import { type NotifyConfig, singleAddress } from '../notify-config.js';
import { siteVariables } from '../templates/site.js';
import { createMailChannel, type MailChannelSettings, type MailTransport } from './mail-channel.js';
import { createSesTransport } from './ses-transport.js';
import { createSmtpTransport } from './smtp-transport.js';
import { createOwnerDigestChannel, type SendOwnerDigest } from './owner-digest-channel.js';
import type { AccountRepository } from '../../shared/table/account-repository.js';
import { createAccountMailChannel, type SendAccountMail } from './account-mail-channel.js';
import { createTelegramChannel } from './telegram-channel.js';
import { createWebhookChannel } from './webhook-channel.js';

/** The secrets the channels read when they send (each undefined when not set). */
export interface ChannelSecrets {
  /** SMTP_PASS (on AWS SMTP_PASS_PARAMETER). */
  readonly smtpPass: SecretSource;
  /** TG_BOT_TOKEN (on AWS TG_BOT_TOKEN_PARAMETER). */
  readonly botToken: SecretSource;
  /** WEBHOOK_SECRET (on AWS WEBHOOK_SECRET_PARAMETER). */
  readonly webhookSecret: SecretSource;
  /** The link key (LINK_SECRET, on AWS LINK_SECRET_PARAMETER), which signs the links in mails. */
  readonly linkKey: SecretSource;
}

/** What {@link createChannels} builds the channels from. */
export interface ChannelSettings {
  readonly config: Config;
  readonly notify: NotifyConfig;
  readonly secrets: ChannelSecrets;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** The SES client (tests pass a mocked one); built at the first mail otherwise. */
  readonly ses?: SESv2Client;
  /** For the webhook and Telegram (tests pass their own). */
  readonly fetch?: typeof fetch;
}

/**
 * The channel of each recipient kind the settings configure: `owner` and `parent` the mail channel (SES or
 * SMTP, NotifyConfig.mailTransport; `owner` only with AUTHOR_EMAIL), `webhook` with WEBHOOK, `telegram`
 * with a bot token and TG_CHAT_ID. A kind without a channel is not told.
 */
export function createChannels(settings: ChannelSettings): Channels {
  const { config, notify, secrets, now } = settings;
  const channels: Channels = {};
  const mailTransport = chosenMailTransport(settings);
  if (mailTransport) {
    const mail = createMailChannel({
      site: config,
      templates: notify,
      sender: sender(config, notify),
      links: createNotificationLinks({
        serverUrl: notify.SERVER_URL,
        linkKey: secrets.linkKey,
        hashAddress: createAddressHasher(config.IP_HASH_SALT),
        moderationLinkHours: notify.MODERATION_LINK_HOURS,
        now,
      }),
      now,
      transport: mailTransport,
    });
    channels.parent = mail;
    if (notify.AUTHOR_EMAIL) channels.owner = mail;
  }
  if (notify.WEBHOOK) {
    channels.webhook = createWebhookChannel({
      url: notify.WEBHOOK,
      secret: secrets.webhookSecret,
      site: config,
      now,
      timeoutMs: notify.CHANNEL_TIMEOUT_MS,
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    });
  }
  if ((notify.TG_BOT_TOKEN || notify.TG_BOT_TOKEN_PARAMETER) && notify.TG_CHAT_ID) {
    channels.telegram = createTelegramChannel({
      apiUrl: notify.TG_API_URL,
      botToken: secrets.botToken,
      chatId: notify.TG_CHAT_ID,
      site: config,
      timeoutMs: notify.CHANNEL_TIMEOUT_MS,
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    });
  }
  return channels;
}

/**
 * The owner's hourly digest by mail (owner-digest-channel.ts), through the mail channel's transport and From
 * line; undefined without a mail channel or AUTHOR_EMAIL. Only mail is capped: the webhook and Telegram are
 * told of every comment.
 */
export function createOwnerDigestMail(settings: ChannelSettings): SendOwnerDigest | undefined {
  const { config, notify, now } = settings;
  const transport = notify.AUTHOR_EMAIL ? chosenMailTransport(settings) : undefined;
  if (!notify.AUTHOR_EMAIL || !transport) return undefined;
  return createOwnerDigestChannel({
    to: notify.AUTHOR_EMAIL,
    lang: notify.AUTHOR_LANG,
    cap: notify.AUTHOR_NOTIFY_CAP_PER_HOUR,
    site: config,
    serverUrl: notify.SERVER_URL,
    sender: sender(config, notify),
    transport,
    now,
  });
}

/**
 * The account mails (account-mail-channel.ts), through the mail channel's transport and From line; undefined
 * without a mail channel (registration then needs none: REGISTRATION stays closed, config.ts).
 */
export function createAccountMail(
  settings: ChannelSettings & { readonly accounts: Pick<AccountRepository, 'findById' | 'findByEmail'> },
): SendAccountMail | undefined {
  const { config, notify, secrets, now, accounts } = settings;
  const transport = chosenMailTransport(settings);
  if (!transport) return undefined;
  return createAccountMailChannel({
    accounts,
    site: config,
    serverUrl: notify.SERVER_URL,
    linkKey: secrets.linkKey,
    sender: sender(config, notify),
    transport,
    now,
  });
}

function chosenMailTransport({ notify, secrets, ses }: ChannelSettings): MailTransport | undefined {
  switch (notify.mailTransport) {
    case 'ses':
      return createSesTransport({
        ...(ses ? { client: ses } : {}),
        ...(notify.SES_CONFIGURATION_SET ? { configurationSet: notify.SES_CONFIGURATION_SET } : {}),
      });
    case 'smtp':
      return createSmtpTransport(notify, secrets.smtpPass);
    case undefined:
      return undefined;
  }
}

/**
 * The From line: SENDER_NAME (else the site's name) and SENDER_EMAIL, else SMTP_USER when it is an address
 * (as Waline falls back). Never a commenter's nick: a From name of their choosing on the site's own domain
 * would pass SPF and DKIM, a gift to phishers.
 */
function sender(config: Config, notify: NotifyConfig): MailChannelSettings['sender'] {
  const address =
    notify.SENDER_EMAIL ?? (singleAddress.safeParse(notify.SMTP_USER).success ? notify.SMTP_USER : undefined);
  if (!address) return { problem: 'SENDER_EMAIL is not set: a mail needs the address it comes from' };
  return { name: notify.SENDER_NAME ?? siteVariables(config).name, address };
}
