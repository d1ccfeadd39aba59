import nodemailer, { type SMTPTransportOptions, type Transporter } from 'nodemailer';
import wellKnown from 'nodemailer/lib/well-known';
import type { SecretSource } from '../../shared/secrets/parameter-secret.js';
import type { NotifyConfig } from '../notify-config.js';
import type { MailTransport } from './mail-channel.js';
import { PermanentFailure } from './permanent-failure.js';

/**
 * Mail through an SMTP server (Waline's settings): SMTP_SERVICE (a provider nodemailer knows), or
 * SMTP_HOST, SMTP_PORT and SMTP_SECURE; SMTP_USER and the password SMTP_PASS (on AWS the SSM parameter
 * SMTP_PASS_PARAMETER). One connection per mail, with short timeouts: a dead or silent server fails the
 * delivery in seconds (it is retried), where nodemailer's defaults would wait minutes.
 */

/** How long each step may take, in ms. */
export interface SmtpTimeouts {
  readonly connection: number;
  readonly greeting: number;
  readonly socket: number;
  readonly dns: number;
}

/** A few seconds each: a notice is retried, a Lambda invocation is billed while it waits. */
export const smtpTimeouts: SmtpTimeouts = { connection: 5000, greeting: 5000, socket: 10_000, dns: 5000 };

/** The SMTP settings (NotifyConfig's), each optional. */
export type SmtpSettings = Partial<
  Pick<NotifyConfig, 'SMTP_SERVICE' | 'SMTP_HOST' | 'SMTP_PORT' | 'SMTP_SECURE' | 'SMTP_USER'>
>;
/** nodemailer's SMTP options for `settings` and the password `pass`; throws on an unknown SMTP_SERVICE. */
export function smtpTransportOptions(
  settings: SmtpSettings,
  pass: string | undefined,
  timeouts: SmtpTimeouts = smtpTimeouts,
): SMTPTransportOptions {
  const server = settings.SMTP_SERVICE
    ? knownService(settings.SMTP_SERVICE)
    : {
        host: settings.SMTP_HOST,
        ...(settings.SMTP_PORT === undefined ? {} : { port: settings.SMTP_PORT }),
        secure: settings.SMTP_SECURE,
      };
  return {
    ...server,
    ...(settings.SMTP_USER ? { auth: { user: settings.SMTP_USER, pass: pass ?? '' } } : {}),
    pool: false,
    connectionTimeout: timeouts.connection,
    greetingTimeout: timeouts.greeting,
    socketTimeout: timeouts.socket,
    dnsTimeout: timeouts.dns,
  };
}

/**
 * SMTP_SERVICE as nodemailer's `service`, checked first: nodemailer treats a name it does not know as
 * localhost:587 (Waline #796), which fails far from the cause.
 */
function knownService(name: string): { service: string } {
  if (!wellKnown(name)) {
    throw new Error(
      `SMTP_SERVICE: nodemailer knows no service named ${JSON.stringify(name)}; set SMTP_HOST instead`,
    );
  }
  return { service: name };
}

/** The SMTP transport; the password is read at each mail, and a new one (rotated) builds a new transport. */
export function createSmtpTransport(
  settings: SmtpSettings,
  smtpPass: SecretSource,
  timeouts: SmtpTimeouts = smtpTimeouts,
): MailTransport {
  let held: { pass: string | undefined; transporter: Transporter } | undefined;
  return async (message) => {
    const pass = settings.SMTP_USER ? await smtpPass() : undefined;
    if (!held || held.pass !== pass) {
      held = {
        pass,
        transporter: nodemailer.createTransport(smtpTransportOptions(settings, pass, timeouts)),
      };
    }
    // The built message as is (`raw`), and the envelope given, not read from its headers.
    await held.transporter
      .sendMail({ envelope: { from: message.from, to: [message.to] }, raw: message.raw })
      .catch((error: unknown) => {
        // A 5xx reply is the server's permanent refusal (RFC 5321 4.2.1: no such user, relaying denied); a
        // 4xx asks to try later, and a connection that failed or timed out has no reply code.
        const code = (error as { responseCode?: unknown }).responseCode;
        if (typeof code === 'number' && code >= 500 && code <= 599) {
          throw new PermanentFailure(error instanceof Error ? error.message : String(error));
        }
        throw error;
      });
  };
}
