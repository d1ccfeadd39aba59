import { Token } from 'aws-cdk-lib';
import { loadNotifyConfig, singleAddress, webhookWithoutSecret } from '../functions/notify/notify-config.js';

/**
 * The notification settings a deploy takes, under Waline's names (functions/notify/notify-config.ts), so a
 * migrating site keeps its settings: bin/app.ts reads each from CDK context (`-c AUTHOR_EMAIL=...`).
 * Secrets are not among them: they are SSM SecureStrings the function reads at runtime, named by the
 * `*_PARAMETER` settings.
 */
export const notificationVariables = [
  'AUTHOR_EMAIL',
  'AUTHOR_LANG',
  'DISABLE_AUTHOR_NOTIFY',
  'SERVER_URL',
  'MAIL_TRANSPORT',
  'SES_IDENTITY',
  'SENDER_NAME',
  'SENDER_EMAIL',
  'SMTP_SERVICE',
  'SMTP_HOST',
  'SMTP_PORT',
  'SMTP_SECURE',
  'SMTP_USER',
  'SMTP_PASS_PARAMETER',
  'MAIL_SUBJECT',
  'MAIL_TEMPLATE',
  'MAIL_SUBJECT_ADMIN',
  'MAIL_TEMPLATE_ADMIN',
  'WEBHOOK',
  'WEBHOOK_SECRET_PARAMETER',
  'TG_CHAT_ID',
  'TG_BOT_TOKEN_PARAMETER',
  'REPLY_MAIL',
  'NOTIFY_CAP_PER_HOUR',
  'NOTIFY_CAP_PER_DAY',
  'NOTIFY_SITE_CAP_PER_HOUR',
  'NOTIFY_SITE_CAP_PER_DAY',
  'NOTIFY_DOMAIN_CAP_PER_HOUR',
  'AUTHOR_NOTIFY_CAP_PER_HOUR',
  'MODERATION_LINK_HOURS',
  'CHANNEL_TIMEOUT_MS',
] as const;

/** One notification setting's name. */
export type NotificationVariable = (typeof notificationVariables)[number];

/**
 * The notification settings as given, each a string as in an environment file (`SMTP_PORT: '465'`,
 * `SMTP_SECURE: 'true'`). Every one is optional; with none the notifier runs and records each notice as
 * skipped. `SES_IDENTITY` is the stack's own: the verified SES identity (a domain or an address) mail is
 * sent from, the only one the function may send as.
 */
export type NotificationVariables = { readonly [Name in NotificationVariable]?: string };

/**
 * Secrets Waline takes as variables, refused as context: a context value ends up in the template, cdk.out
 * and the function's configuration. Each maps to the setting that names its SSM SecureString instead.
 */
export const secretVariables = {
  SMTP_PASS: 'SMTP_PASS_PARAMETER',
  TG_BOT_TOKEN: 'TG_BOT_TOKEN_PARAMETER',
  WEBHOOK_SECRET: 'WEBHOOK_SECRET_PARAMETER',
} as const;

/** The settings checked, as the notifier construct takes them. */
export interface NotificationPlan {
  /** The mail channel: SES through the function's role, SMTP, or none. */
  readonly mailTransport: 'ses' | 'smtp' | undefined;
  /** With SES: the identity (domain or address) the function may send as. */
  readonly sesIdentity?: string;
  /** The function's notification variables (literal values; the stack adds SERVER_URL and the SES set). */
  readonly environment: Readonly<Record<string, string>>;
  /** SERVER_URL when given (a custom domain); unset, the stack uses the HTTP API's own address. */
  readonly serverUrl?: string;
  /** The SSM parameters holding this configuration's secrets, which the function alone may read. */
  readonly parameterNames: readonly string[];
}

/** Lambda's ceiling on a function's environment: every name and value together. */
export const lambdaEnvironmentBytes = 4096;

const parameterName = /^\/?[A-Za-z0-9_.\-/]{1,2047}$/;
const domainName = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}[a-z0-9]$/i;

/**
 * Checks `given` as far as synth can, with the function's own parser for the values (the same errors the
 * function would raise at its first cold start, raised before deploying) plus the rules that span settings,
 * and returns what the notifier construct needs. Throws one error naming the setting and its rule.
 */
export function planNotifications(given: NotificationVariables = {}): NotificationPlan {
  const set: Partial<Record<NotificationVariable, string>> = {};
  for (const name of notificationVariables) {
    const value = given[name]?.trim();
    if (value) set[name] = value;
  }
  const { SES_IDENTITY: sesIdentity, SERVER_URL: serverUrl, ...environment } = set;

  try {
    loadNotifyConfig({ ...environment, ...(serverUrl === undefined ? {} : { SERVER_URL: serverUrl }) });
  } catch (error) {
    throw new Error(`notifications: ${(error as Error).message}`, { cause: error });
  }
  if (serverUrl !== undefined && !serverUrl.startsWith('https://')) {
    throw new Error(`SERVER_URL: "${serverUrl}" must be https://: it is the address of the links in mails`);
  }

  const mailTransport = transportOf(set);
  if (mailTransport === 'ses') checkSes(set);
  if (mailTransport === 'smtp') checkSmtp(set);
  if (set.SMTP_USER !== undefined && set.SMTP_PASS_PARAMETER === undefined) {
    throw new Error('SMTP_USER: set SMTP_PASS_PARAMETER too, the SSM SecureString holding its password');
  }
  if (set.SMTP_PASS_PARAMETER !== undefined && set.SMTP_USER === undefined) {
    throw new Error('SMTP_PASS_PARAMETER: set SMTP_USER too, the user the password signs in');
  }
  if (set.WEBHOOK !== undefined) {
    if (!set.WEBHOOK.startsWith('https://')) {
      throw new Error(`WEBHOOK: "${set.WEBHOOK}" must be https://`);
    }
    if (set.WEBHOOK_SECRET_PARAMETER === undefined) throw new Error(webhookWithoutSecret);
  } else if (set.WEBHOOK_SECRET_PARAMETER !== undefined) {
    throw new Error('WEBHOOK_SECRET_PARAMETER: set WEBHOOK too, the address it signs deliveries to');
  }
  if ((set.TG_CHAT_ID === undefined) !== (set.TG_BOT_TOKEN_PARAMETER === undefined)) {
    throw new Error(
      'TG_CHAT_ID and TG_BOT_TOKEN_PARAMETER: Telegram needs both, the chat and the SSM SecureString holding the bot token',
    );
  }

  const parameterNames: string[] = [];
  for (const name of ['SMTP_PASS_PARAMETER', 'WEBHOOK_SECRET_PARAMETER', 'TG_BOT_TOKEN_PARAMETER'] as const) {
    const value = set[name];
    if (value === undefined) continue;
    if (!parameterName.test(value)) {
      throw new Error(`${name}: "${value}" is not an SSM parameter name (letters, digits, _ . - and /)`);
    }
    parameterNames.push(value);
  }

  return {
    mailTransport,
    ...(mailTransport === 'ses' ? { sesIdentity } : {}),
    environment: {
      ...environment,
      ...(mailTransport === undefined ? {} : { MAIL_TRANSPORT: mailTransport }),
    },
    ...(serverUrl === undefined ? {} : { serverUrl: serverUrl.replace(/\/+$/, '') }),
    parameterNames,
  };
}

/** SES when asked, or when an SES identity is given; SMTP when asked, or when a server is given; else none. */
function transportOf(set: Partial<Record<NotificationVariable, string>>): 'ses' | 'smtp' | undefined {
  const smtpServer = set.SMTP_HOST ?? set.SMTP_SERVICE;
  const transport =
    (set.MAIL_TRANSPORT as 'ses' | 'smtp' | undefined) ??
    (set.SES_IDENTITY !== undefined ? 'ses' : smtpServer !== undefined ? 'smtp' : undefined);
  if (transport === 'ses' && smtpServer !== undefined) {
    throw new Error(
      `${set.SMTP_HOST !== undefined ? 'SMTP_HOST' : 'SMTP_SERVICE'}: mail goes through SES; ` +
        'remove the SMTP settings, or set MAIL_TRANSPORT=smtp and remove SES_IDENTITY',
    );
  }
  if (transport === 'smtp' && set.SES_IDENTITY !== undefined) {
    throw new Error('SES_IDENTITY: mail goes through SMTP (MAIL_TRANSPORT=smtp); remove SES_IDENTITY');
  }
  return transport;
}

/** SES sends only from a verified identity: the sender must be that address, or an address of that domain. */
function checkSes(set: Partial<Record<NotificationVariable, string>>): void {
  const identity = set.SES_IDENTITY;
  if (identity === undefined) {
    throw new Error(
      'SES_IDENTITY: MAIL_TRANSPORT is ses; name the verified SES identity mail is sent from (a domain, or an address)',
    );
  }
  const isAddress = identity.includes('@');
  if (isAddress ? !singleAddress.safeParse(identity).success : !domainName.test(identity)) {
    throw new Error(`SES_IDENTITY: "${identity}" is neither a domain (example.com) nor one address`);
  }
  const sender = set.SENDER_EMAIL;
  if (sender === undefined) {
    throw new Error('SENDER_EMAIL: SES needs the From address, an address of SES_IDENTITY');
  }
  const senderDomain = sender.slice(sender.lastIndexOf('@') + 1).toLowerCase();
  const covered = isAddress
    ? sender.toLowerCase() === identity.toLowerCase()
    : senderDomain === identity.toLowerCase() || senderDomain.endsWith(`.${identity.toLowerCase()}`);
  if (!covered) {
    throw new Error(
      `SENDER_EMAIL: "${sender}" is not ${isAddress ? 'the address' : 'an address of the domain'} ${identity} ` +
        '(SES_IDENTITY), the only identity the function may send as',
    );
  }
}

/** SMTP needs a server: a host, or one of nodemailer's well-known services. */
function checkSmtp(set: Partial<Record<NotificationVariable, string>>): void {
  if (set.SMTP_HOST === undefined && set.SMTP_SERVICE === undefined) {
    throw new Error('MAIL_TRANSPORT: smtp needs SMTP_HOST (or SMTP_SERVICE, e.g. Gmail)');
  }
}

/**
 * The size Lambda counts for `environment` (names and values), each value not yet a literal (a token, an
 * intrinsic) counted at `tokenBytes`: what it resolves to (a table name, an ARN, a URL) is unknown at synth.
 */
export function environmentBytes(environment: Readonly<Record<string, unknown>>, tokenBytes = 128): number {
  return Object.entries(environment).reduce(
    (sum, [name, value]) =>
      sum +
      Buffer.byteLength(name) +
      (typeof value === 'string' && !Token.isUnresolved(value) ? Buffer.byteLength(value) : tokenBytes),
    0,
  );
}
