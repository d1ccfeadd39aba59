import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One mail as the sink received it. */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO): whom the mail was really sent to. */
  readonly recipients: readonly string[];
  readonly sender: string;
  readonly parsed: ParsedMail;
}

/** A real SMTP server on 127.0.0.1 that keeps every mail it accepts. */
export interface SmtpSink {
  readonly port: number;
  readonly mails: ReceivedMail[];
  /** The mails whose envelope names `address`. */
  mailsTo(address: string): ReceivedMail[];
  stop(): Promise<void>;
}

/** Starts nodemailer's smtp-server on 127.0.0.1 (`port` 0: a free one), plain SMTP, no authentication. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            recipients: session.envelope.rcptTo.map((recipient) => recipient.address),
            sender: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            parsed,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => listening());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    mailsTo: (address) => mails.filter((mail) => mail.recipients.includes(address)),
    stop: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

/** A port on 127.0.0.1 that was free a moment ago, and is closed: nothing listens on it until a test starts something there. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((listening) => probe.listen(0, '127.0.0.1', listening));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((closed) => probe.close(() => closed()));
  return port;
}
