import type { Config } from '../shared/config.js';
import { createFunctionClient } from '../shared/dynamodb-client/client.js';
import { createDeliveryStore, type DeliveryStore } from '../shared/table/delivery-store.js';
import { createMailGuards, type MailGuards } from '../shared/table/mail-guards.js';
import { createOwnerMailHours, type OwnerMailHours } from '../shared/table/owner-mail-hours.js';
import { createSiteMailCaps, type SiteMailCaps } from '../shared/table/site-mail-caps.js';
import { createReplyConfirmations, type ReplyConfirmations } from '../shared/table/reply-confirmations.js';
import {
  createNotifiedCommentsReader,
  type ReadNotifiedComments,
} from '../shared/table/notified-comments.js';
import { createOutboxRepository, type OutboxRepository } from '../shared/table/outbox-repository.js';
import {
  createParameterSecret,
  type SecretSource,
  type SecretsExtension,
} from '../shared/secrets/parameter-secret.js';
import { createLinkSecret } from '../shared/secrets/link-secret.js';
import {
  createAddressHasher,
  createFormerAddressHasher,
  type HashAddress,
} from '../shared/notify/address-hash.js';
import { createAccountMail, createChannels, createOwnerDigestMail } from './channels/channels.js';
import type { SendAccountMail } from './channels/account-mail-channel.js';
import { createAccountRepository } from '../shared/table/account-repository.js';
import type { SendOwnerDigest } from './channels/owner-digest-channel.js';
import type { Channels } from './notice.js';
import type { NotifyConfig } from './notify-config.js';

/** The secrets the channels read when they send (never at cold start: a missing one turns only its channel off). */
export interface NotifySecrets {
  readonly smtpPass: SecretSource;
  readonly botToken: SecretSource;
  readonly webhookSecret: SecretSource;
  /** The link key, which signs the links in mails (shared/notify/link-token.ts); never the sign-in key. */
  readonly linkKey: SecretSource;
}

/** Everything the notifier uses, built once per cold start. */
export interface NotifyDependencies {
  readonly config: Config;
  readonly notify: NotifyConfig;
  /** Outbox events and their deliveries: claims, results, the sweep's choice. */
  readonly deliveries: DeliveryStore;
  /** Suppressions and per-recipient caps. */
  readonly guards: MailGuards;
  /** The site-wide caps on reader mail (NOTIFY_SITE_CAP_PER_HOUR, _PER_DAY, NOTIFY_DOMAIN_CAP_PER_HOUR). */
  readonly siteMailCaps: SiteMailCaps;
  /** The owner's mails per hour (AUTHOR_NOTIFY_CAP_PER_HOUR) and the digests of what went past the cap. */
  readonly ownerMailHours: OwnerMailHours;
  /** Sends an hour's digest to the owner by mail; absent without a mail channel or AUTHOR_EMAIL. */
  readonly ownerDigestMail?: SendOwnerDigest;
  /** Readers' confirmations of reply mail (REPLY_MAIL=confirmed). */
  readonly confirmations: ReplyConfirmations;
  /** The comment of an event and its parent, as they are when the notice is sent. */
  readonly readComments: ReadNotifiedComments;
  /** Suppressions from SES feedback. */
  readonly outbox: OutboxRepository;
  /** The channel of each recipient kind (channels/channels.ts); a kind without one is not told. */
  readonly channels: Channels;
  /** The account mails (channels/account-mail-channel.ts); absent without a mail channel. */
  readonly accountMail?: SendAccountMail;
  /** Milliseconds since the epoch; injected so tests control time. */
  readonly now: () => number;
  /** The keyed hash suppressions and caps are kept under (from IP_HASH_SALT: shared/notify/address-hash.ts). */
  readonly hashAddress: HashAddress;
  /** The hash before normalisation, under which old unsubscribe links recorded suppressions. */
  readonly formerHashAddress: HashAddress;
  /** How long a claimed delivery is its sender's (process-event.ts). */
  readonly leaseMs?: number;
  /** The waits before each retry of a failed delivery (delivery-retry.ts; tests make them short). */
  readonly retryDelaysMs?: readonly number[];
}

/** The secrets as plain variables (local mode, tests): SMTP_PASS, TG_BOT_TOKEN, WEBHOOK_SECRET, LINK_SECRET. */
export function plainNotifySecrets(config: Pick<Config, 'LINK_SECRET'>, notify: NotifyConfig): NotifySecrets {
  const fixed =
    (value: string | undefined): SecretSource =>
    async () =>
      value;
  return {
    smtpPass: fixed(notify.SMTP_PASS),
    botToken: fixed(notify.TG_BOT_TOKEN),
    webhookSecret: fixed(notify.WEBHOOK_SECRET),
    linkKey: fixed(config.LINK_SECRET),
  };
}

/**
 * The secrets on AWS: each the SSM SecureString its `*_PARAMETER` names, read through the Parameters and
 * Secrets extension (and again every SECRETS_CACHE_SECONDS), or the plain variable when that is set.
 */
export function extensionNotifySecrets(
  config: Pick<Config, 'LINK_SECRET' | 'LINK_SECRET_PARAMETER' | 'SECRETS_CACHE_SECONDS'>,
  notify: NotifyConfig,
  extension: SecretsExtension,
): NotifySecrets {
  const secret = (plain: string | undefined, name: string | undefined, feature: string): SecretSource => {
    if (plain !== undefined) return async () => plain;
    if (name === undefined) return async () => undefined;
    return createParameterSecret(extension, {
      name,
      feature,
      problem: (value) => (value.trim() ? undefined : 'is empty'),
      ttlMs: config.SECRETS_CACHE_SECONDS * 1000,
    });
  };
  return {
    smtpPass: secret(notify.SMTP_PASS, notify.SMTP_PASS_PARAMETER, 'SMTP mail'),
    botToken: secret(notify.TG_BOT_TOKEN, notify.TG_BOT_TOKEN_PARAMETER, 'Telegram'),
    webhookSecret: secret(notify.WEBHOOK_SECRET, notify.WEBHOOK_SECRET_PARAMETER, 'the webhook'),
    linkKey: createLinkSecret(config, extension),
  };
}

/**
 * Builds the notifier's dependencies for `config` and `notify`. `overrides` lets the handler (secrets through
 * the extension), local mode and tests (fake channels, a clock) swap any part; the channels are built only
 * when none are given.
 */
export function createNotifyDependencies(
  config: Config,
  notify: NotifyConfig,
  overrides: Partial<NotifyDependencies> & { readonly secrets?: NotifySecrets } = {},
): NotifyDependencies {
  const { secrets = plainNotifySecrets(config, notify), ...parts } = overrides;
  const client = createFunctionClient(config);
  const now = parts.now ?? Date.now;
  const ownerDigestMail = createOwnerDigestMail({ config, notify, secrets, now });
  const accountMail = createAccountMail({
    config,
    notify,
    secrets,
    now,
    accounts: createAccountRepository(client, config.TABLE_NAME),
  });
  return {
    config,
    notify,
    deliveries: createDeliveryStore(client, config.TABLE_NAME),
    guards: createMailGuards(client, config.TABLE_NAME),
    siteMailCaps: createSiteMailCaps(client, config.TABLE_NAME, {
      perHour: notify.NOTIFY_SITE_CAP_PER_HOUR,
      perDay: notify.NOTIFY_SITE_CAP_PER_DAY,
      domainPerHour: notify.NOTIFY_DOMAIN_CAP_PER_HOUR,
    }),
    ownerMailHours: createOwnerMailHours(client, config.TABLE_NAME, notify.AUTHOR_NOTIFY_CAP_PER_HOUR),
    ...(ownerDigestMail ? { ownerDigestMail } : {}),
    ...(accountMail ? { accountMail } : {}),
    confirmations: createReplyConfirmations(client, config.TABLE_NAME),
    readComments: createNotifiedCommentsReader(client, config.TABLE_NAME),
    outbox: createOutboxRepository(client, config.TABLE_NAME),
    channels: parts.channels ?? createChannels({ config, notify, secrets, now }),
    now,
    hashAddress: createAddressHasher(config.IP_HASH_SALT),
    formerHashAddress: createFormerAddressHasher(config.IP_HASH_SALT),
    ...parts,
  };
}
