import { connect } from 'node:net';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import {
  inboxPortsFromEnvironment,
  type LocalInbox,
  needsLocalInbox,
  startLocalInbox,
} from '../../../scripts/local-inbox.js';

/** Whether something accepts connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      answer(true);
    });
    socket.once('error', () => answer(false));
  });
}

describe('the local inbox of npm start', () => {
  let inbox: LocalInbox | undefined;

  afterEach(async () => {
    await inbox?.stop();
    inbox = undefined;
  });

  it('receives a mail over SMTP on loopback and lists it on its web address', async () => {
    inbox = await startLocalInbox();
    const transport = nodemailer.createTransport({
      host: inbox.smtpHost,
      port: inbox.smtpPort,
      secure: false,
    });

    await transport.sendMail({
      from: 'marginalia@localhost.test',
      to: 'owner@localhost.test',
      subject: 'New comment on the demo',
      text: 'Hello',
    });
    transport.close();

    expect(inbox.smtpHost).toBe('127.0.0.1');
    expect(inbox.webUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const listed = (await (await fetch(`${inbox.webUrl}/api/email`)).json()) as {
      subject: string;
      to: { address: string }[];
    }[];
    expect(listed).toEqual([
      expect.objectContaining({
        subject: 'New comment on the demo',
        to: [expect.objectContaining({ address: 'owner@localhost.test' })],
      }),
    ]);
    // The page a browser gets at the printed address.
    const page = await fetch(inbox.webUrl, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
  });

  it('closes its ports when stopped', async () => {
    const started = await startLocalInbox();
    expect(await accepts(started.smtpPort)).toBe(true);

    await started.stop();

    expect(await accepts(started.smtpPort)).toBe(false);
    expect(await accepts(Number(new URL(started.webUrl).port))).toBe(false);
  });

  it('is started only when no mail transport is configured', () => {
    expect(needsLocalInbox({})).toBe(true);
    expect(needsLocalInbox({ SMTP_HOST: ' ' })).toBe(true);
    expect(needsLocalInbox({ SMTP_HOST: 'smtp.example.test' })).toBe(false);
    expect(needsLocalInbox({ SMTP_SERVICE: 'gmail' })).toBe(false);
    expect(needsLocalInbox({ MAIL_TRANSPORT: 'ses' })).toBe(false);
  });

  it('takes its ports from INBOX_SMTP_PORT and INBOX_WEB_PORT, free ones when unset, and refuses others', () => {
    expect(inboxPortsFromEnvironment({})).toEqual({ smtpPort: 0, webPort: 0 });
    expect(inboxPortsFromEnvironment({ INBOX_SMTP_PORT: '1025', INBOX_WEB_PORT: '1080' })).toEqual({
      smtpPort: 1025,
      webPort: 1080,
    });
    expect(() => inboxPortsFromEnvironment({ INBOX_WEB_PORT: 'http' })).toThrow(/INBOX_WEB_PORT/);
  });
});
