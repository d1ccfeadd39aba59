/**
 * Local mode's inbox: maildev on loopback, so that with no mail settings `npm start` still sends every
 * notice somewhere a person can read it (its web page) and nothing leaves the machine.
 */
import { MailDev } from 'maildev';

/** A running local inbox. */
export interface LocalInbox {
  readonly smtpHost: string;
  readonly smtpPort: number;
  /** The web page that shows the mails received. */
  readonly webUrl: string;
  stop(): Promise<void>;
}

/** Where the inbox listens; port 0 (the default) takes a free port. */
export interface LocalInboxOptions {
  readonly host?: string;
  readonly smtpPort?: number;
  readonly webPort?: number;
}

/** Starts maildev with in-memory storage, both servers on `host` (127.0.0.1) only. */
export async function startLocalInbox(options: LocalInboxOptions = {}): Promise<LocalInbox> {
  const host = options.host ?? '127.0.0.1';
  const maildev = new MailDev({
    ip: host,
    smtp: options.smtpPort ?? 0,
    webIp: host,
    web: options.webPort ?? 0,
    silent: true,
    // The oldest mails go first past this many: a long session stays small.
    maxEmails: 500,
  });
  const servers = await maildev.start();
  const smtp = servers.smtp.getAddress();
  const web = servers.api?.getAddress();
  return {
    smtpHost: host,
    smtpPort: smtp.port,
    webUrl: `http://${host}:${web?.port ?? options.webPort}`,
    stop: () => maildev.stop(),
  };
}

/** The inbox's ports from the environment (INBOX_SMTP_PORT, INBOX_WEB_PORT); unset or empty: a free port. */
export function inboxPortsFromEnvironment(
  env: NodeJS.ProcessEnv,
): Pick<LocalInboxOptions, 'smtpPort' | 'webPort'> {
  return { smtpPort: port(env, 'INBOX_SMTP_PORT'), webPort: port(env, 'INBOX_WEB_PORT') };
}

function port(env: NodeJS.ProcessEnv, name: string): number {
  const value = env[name];
  if (value === undefined || value === '') return 0;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) {
    throw new Error(`${name} must be a whole number from 0 to 65535, got "${value}"`);
  }
  return number;
}

/** True when no mail transport is configured: local mode then sends to its own inbox. */
export function needsLocalInbox(env: NodeJS.ProcessEnv): boolean {
  return !['SMTP_HOST', 'SMTP_SERVICE', 'MAIL_TRANSPORT'].some((name) => env[name]?.trim());
}
