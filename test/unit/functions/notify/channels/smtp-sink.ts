import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One mail as the SMTP server received it. */
export interface ReceivedMail {
  readonly mailFrom: string;
  readonly rcptTo: readonly string[];
  readonly raw: Buffer;
}

/** An SMTP server on 127.0.0.1 (smtp-server, nodemailer's own) that keeps every mail it accepts. */
export interface SmtpSink {
  readonly port: number;
  readonly mails: ReceivedMail[];
  /** The passwords that signed in, by user. */
  readonly logins: { user: string; pass: string }[];
  close(): Promise<void>;
}

/** How the sink behaves. */
export interface SmtpSinkOptions {
  /** Set: AUTH is required, and only this password accepted. */
  readonly password?: string;
  /** Every recipient refused, the answer naming the address (as real servers do). */
  readonly refuseRecipients?: boolean;
}

/** Starts a sink on an ephemeral port; stop it with close(). */
export async function startSmtpSink({
  password,
  refuseRecipients = false,
}: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const logins: { user: string; pass: string }[] = [];
  const server = new SMTPServer({
    authOptional: password === undefined,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ user: auth.username ?? '', pass: auth.password ?? '' });
      if (auth.password === password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (refuseRecipients)
        callback(new Error(`<${address.address}>: Recipient address rejected: no such user`));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { mailFrom, rcptTo } = session.envelope;
        mails.push({
          mailFrom: mailFrom ? mailFrom.address : '',
          rcptTo: rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    logins,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

/** The value of header `name` in `raw`'s header block, unfolded; undefined when absent. */
export function headerOf(raw: Buffer | string, name: string): string | undefined {
  const text = raw.toString();
  const head = text.slice(0, text.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const line = head
    .split('\r\n')
    .find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** `raw` with its MIME boundary replaced: two builds of one notice differ only there (it is random). */
export function withFixedBoundary(raw: Buffer | string): string {
  const text = raw.toString();
  const boundary = /boundary="([^"]+)"/.exec(text)?.[1];
  return boundary ? text.split(boundary).join('BOUNDARY') : text;
}
