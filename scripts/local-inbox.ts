/**
 * Local mode's inbox: maildev on loopback, so that with no mail settings `npm start` still sends every
 * notice somewhere a person can read it (its web page) and nothing leaves the machine.
 *
 * maildev's web server answers any origin with credentials (its CORS settings are not among MailDev's
 * options), so any page the developer visits could read the mails, moderation links and all. It listens on
 * an internal loopback port, and its web address is a {@link startLoopbackProxy} in front of it, which lets
 * only this machine's own origin and loopback names through.
 */
import { MailDev } from 'maildev';
import { startLoopbackProxy } from './loopback-proxy.js';

/** A running local inbox. */
export interface LocalInbox {
  readonly smtpHost: string;
  readonly smtpPort: number;
  /** The web page that shows the mails received (the proxy's address: maildev's own is internal). */
  readonly webUrl: string;
  stop(): Promise<void>;
}

/** Where the inbox listens; port 0 (the default) takes a free port. */
export interface LocalInboxOptions {
  readonly host?: string;
  readonly smtpPort?: number;
  readonly webPort?: number;
}

/**
 * Starts maildev with in-memory storage, both servers on `host` (127.0.0.1) only, its web server on a free
 * port behind a loopback proxy on `webPort`.
 */
export async function startLocalInbox(options: LocalInboxOptions = {}): Promise<LocalInbox> {
  const host = options.host ?? '127.0.0.1';
  const maildev = new MailDev({
    ip: host,
    smtp: options.smtpPort ?? 0,
    webIp: host,
    web: 0,
    silent: true,
    // The oldest mails go first past this many: a long session stays small.
    maxEmails: 500,
  });
  const servers = await maildev.start();
  const smtp = servers.smtp.getAddress();
  const web = servers.api?.getAddress();
  if (!web) {
    await maildev.stop();
    throw new Error('the local inbox started without its web server');
  }
  const proxy = await startLoopbackProxy({
    target: { host, port: web.port },
    host,
    port: options.webPort ?? 0,
    name: 'The local inbox',
  }).catch(async (error: unknown) => {
    await maildev.stop();
    throw error;
  });
  return {
    smtpHost: host,
    smtpPort: smtp.port,
    webUrl: proxy.url,
    stop: async () => {
      await proxy.close();
      await maildev.stop();
    },
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
