import { coercedInt } from '../shared/domain/coerced-int.js';
import { type Lang, resolveLang } from '../shared/domain/messages.js';
import * as z from '../shared/domain/zod.js';
import { webhookKey } from './channels/webhook-secret.js';

/**
 * The notifier's settings, beside the shared ones (shared/config.ts), read once at cold start. Waline's
 * names where Waline has one, so a migrating site keeps its settings.
 */

const flag = z.pipe(
  z.optional(z.string()),
  z.transform((value) => value !== undefined && value !== '' && !/^(0|false)$/i.test(value)),
);

/** Blank is unset, as in a `.env` file that lists a variable with no value. */
const optionalText = (max: number) =>
  z.pipe(
    z.optional(z.string().check(z.maxLength(max))),
    z.transform((value) => (value?.trim() ? value : undefined)),
  );

/**
 * One address, strictly: no list, no group, no display name, nothing nodemailer could read as more than
 * one recipient (`,;:<>"` and white space refused).
 */
export const singleAddress = z
  .string()
  .check(
    z.maxLength(254),
    z.regex(/^[^\s,;:<>"()[\]\\@]+@[^\s,;:<>"()[\]\\@]+\.[^\s,;:<>"()[\]\\@]+$/, 'must be one plain address'),
  );

const optionalAddress = z.pipe(
  z.pipe(
    z.optional(z.string()),
    z.transform((value) => (value?.trim() ? value.trim() : undefined)),
  ),
  z.optional(singleAddress),
);

const notifyEnvironmentSchema = z.object({
  /** The owner's address: told of new and waiting comments (Waline's name). */
  AUTHOR_EMAIL: optionalAddress,
  /** The owner's language for their mails (`en`, or any `zh*` for Chinese). */
  AUTHOR_LANG: z.pipe(
    z.optional(z.string().check(z.maxLength(35))),
    z.transform((value): Lang => resolveLang(value ?? 'en')),
  ),
  /** No owner notices (Waline's name; `false` and `0` leave them on, unlike Waline). */
  DISABLE_AUTHOR_NOTIFY: flag,
  /** The API's public address, for the links in mails (Waline's name); the stack sets it on AWS. */
  SERVER_URL: z.optional(z.url({ protocol: /^https?$/ })),
  /** `ses` or `smtp`; unset: SMTP when SMTP_HOST or SMTP_SERVICE is set, else no mail. */
  MAIL_TRANSPORT: z.optional(z.enum(['ses', 'smtp'])),
  /** SES configuration set whose events (bounces, complaints) come back to suppress addresses. */
  SES_CONFIGURATION_SET: optionalText(64),
  SMTP_SERVICE: optionalText(64),
  SMTP_HOST: optionalText(255),
  /** Unset: nodemailer's default for SMTP_SECURE (465 or 587), or the SMTP_SERVICE's own. */
  SMTP_PORT: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(65_535))),
  SMTP_SECURE: flag,
  SMTP_USER: optionalText(255),
  /** Locally; on AWS the SSM SecureString named by SMTP_PASS_PARAMETER. */
  SMTP_PASS: optionalText(1024),
  SMTP_PASS_PARAMETER: optionalText(2048),
  /** The From line's name: fixed, never a commenter's (a commenter's nick there would be phishing aid). */
  SENDER_NAME: optionalText(100),
  SENDER_EMAIL: optionalAddress,
  /** Waline's templates (nunjucks, with `self`, `parent` and `site`). */
  MAIL_SUBJECT: optionalText(1000),
  MAIL_TEMPLATE: optionalText(65_536),
  MAIL_SUBJECT_ADMIN: optionalText(1000),
  MAIL_TEMPLATE_ADMIN: optionalText(65_536),
  /** A URL told of every notice as a signed JSON POST (docs/notifications.md); https, or http on loopback. */
  WEBHOOK: z.optional(z.url({ protocol: /^https?$/ })),
  /** Its Standard Webhooks secret (`whsec_` + base64); locally, on AWS WEBHOOK_SECRET_PARAMETER. */
  WEBHOOK_SECRET: optionalText(1024),
  WEBHOOK_SECRET_PARAMETER: optionalText(2048),
  /** Telegram (Waline's names); the token locally, on AWS the SSM SecureString TG_BOT_TOKEN_PARAMETER. */
  TG_BOT_TOKEN: optionalText(256),
  TG_BOT_TOKEN_PARAMETER: optionalText(2048),
  TG_CHAT_ID: optionalText(64),
  /** Telegram's Bot API address (tests point it at a loopback receiver). */
  TG_API_URL: z._default(z.url({ protocol: /^https?$/ }), 'https://api.telegram.org'),
  /**
   * Which readers are mailed about replies: `confirmed` (an address that confirmed, through the one
   * confirmation mail its first reply notice is replaced by), `all` (any address typed with a comment: a
   * stranger can have the site mail anyone), `off` (no reader mail).
   */
  REPLY_MAIL: z._default(z.enum(['confirmed', 'all', 'off']), 'confirmed'),
  /** Most notices one address receives per hour and per day: replies cannot flood an inbox. */
  NOTIFY_CAP_PER_HOUR: coercedInt({ min: 1, max: 1000, default: 5 }),
  NOTIFY_CAP_PER_DAY: coercedInt({ min: 1, max: 10_000, default: 20 }),
  /**
   * Most reader mails the whole site sends per hour and per day, and per hour to one recipient domain: a
   * flood of replies cannot become a mass mailing whose bounces and complaints put the sender under review.
   */
  NOTIFY_SITE_CAP_PER_HOUR: coercedInt({ min: 1, max: 100_000, default: 50 }),
  NOTIFY_SITE_CAP_PER_DAY: coercedInt({ min: 1, max: 1_000_000, default: 200 }),
  NOTIFY_DOMAIN_CAP_PER_HOUR: coercedInt({ min: 1, max: 100_000, default: 20 }),
  /** Most owner mails per hour; past it the rest of the hour's comments are told in one digest mail. */
  AUTHOR_NOTIFY_CAP_PER_HOUR: coercedInt({ min: 1, max: 10_000, default: 10 }),
  /** How long the webhook and Telegram may take to answer, in ms; past it the delivery fails for now (retried). */
  CHANNEL_TIMEOUT_MS: coercedInt({ min: 100, max: 30_000, default: 5000 }),
  /** How long the approve / spam / delete links in the owner's mail stay valid, in hours. */
  MODERATION_LINK_HOURS: coercedInt({ min: 1, max: 24 * 30, default: 72 }),
});

/** The notifier's settings. */
export type NotifyConfig = z.output<typeof notifyEnvironmentSchema> & {
  /** The mail channel in use, if any. */
  readonly mailTransport: 'ses' | 'smtp' | undefined;
};

/** How to make a webhook secret, as the errors say it. */
const makeSecret = '`echo "whsec_$(openssl rand -base64 32)"`';

/**
 * A webhook is only ever sent signed: WEBHOOK without its secret would fail every delivery, so the notifier
 * refuses to start (and `cdk synth` to build) instead. Waline's WEBHOOK is unsigned, so a migrating site
 * meets this first.
 */
export const webhookWithoutSecret =
  'WEBHOOK: set WEBHOOK_SECRET too (on AWS WEBHOOK_SECRET_PARAMETER, the SSM SecureString holding it): ' +
  `every delivery is signed with it as Standard Webhooks signs. Make one with ${makeSecret} and give the ` +
  'receiver the same secret';

/** Parses the notifier's settings from `env`, or throws one error naming every bad variable and its rule. */
export function loadNotifyConfig(env: NodeJS.ProcessEnv = process.env): NotifyConfig {
  const result = notifyEnvironmentSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const settings = result.data;
  if (settings.WEBHOOK !== undefined && !settings.WEBHOOK_SECRET && !settings.WEBHOOK_SECRET_PARAMETER) {
    throw new Error(`Invalid configuration: ${webhookWithoutSecret}`);
  }
  const secretRead = settings.WEBHOOK_SECRET === undefined ? undefined : webhookKey(settings.WEBHOOK_SECRET);
  if (secretRead && 'problem' in secretRead) {
    throw new Error(`Invalid configuration: ${secretRead.problem} (make one with ${makeSecret})`);
  }
  const mailTransport =
    settings.MAIL_TRANSPORT ?? (settings.SMTP_HOST || settings.SMTP_SERVICE ? 'smtp' : undefined);
  return { ...settings, mailTransport };
}
