import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import {
  inboxPortsFromEnvironment,
  type LocalInbox,
  needsLocalInbox,
  startLocalInbox,
} from '../../../scripts/local-inbox.js';
import { rawRequest } from '../../support/raw-http.js';

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

/** The status a WebSocket handshake to `url` (socket.io's, as maildev's page opens it) gets: 101 when it passes. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      host: target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      agent: false,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
        ...headers,
      },
    });
    outgoing.on('upgrade', (answer, socket) => {
      socket.destroy();
      resolve(answer.statusCode ?? 0);
    });
    outgoing.on('response', (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Sends one mail, whose subject is `subject`, to the inbox over SMTP. */
async function mailTo(inbox: LocalInbox, subject: string): Promise<void> {
  const transport = nodemailer.createTransport({ host: inbox.smtpHost, port: inbox.smtpPort, secure: false });
  await transport.sendMail({ from: 'a@localhost.test', to: 'b@localhost.test', subject, text: 'x' });
  transport.close();
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

  it('refuses a foreign Origin and a rebound Host with 403, and answers its own origin with no CORS header', async () => {
    inbox = await startLocalInbox();
    await mailTo(inbox, 'Moderation link inside');
    const port = Number(new URL(inbox.webUrl).port);
    const api = `${inbox.webUrl}/api/email`;

    const foreign = await rawRequest(api, { headers: { Origin: 'https://evil.example' } });
    const preflight = await rawRequest(api, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'DELETE' },
    });
    const nullOrigin = await rawRequest(api, { headers: { Origin: 'null' } });
    const otherPort = await rawRequest(api, { headers: { Origin: `http://127.0.0.1:${port + 1}` } });
    const rebound = await rawRequest(api, { headers: { Host: `evil.example:${port}` } });
    const reboundPage = await rawRequest(inbox.webUrl, { headers: { Host: 'evil.example' } });
    const own = await rawRequest(api, { headers: { Origin: `http://localhost:${port}` } });
    const plain = await rawRequest(api, { headers: { Host: `[::1]:${port}` } });

    for (const reply of [foreign, preflight, nullOrigin, otherPort, rebound, reboundPage]) {
      expect(reply.status).toBe(403);
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
      expect(reply.headers['access-control-allow-credentials']).toBeUndefined();
      expect(reply.body).toMatch(/^The local inbox answers/);
    }
    expect([own.status, plain.status]).toEqual([200, 200]);
    expect(JSON.parse(own.body)).toEqual([expect.objectContaining({ subject: 'Moderation link inside' })]);
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
    expect(own.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it("lets its page's socket.io WebSocket through from its own origin only", async () => {
    inbox = await startLocalInbox();
    const port = Number(new URL(inbox.webUrl).port);
    const socketUrl = `${inbox.webUrl}/socket.io/?EIO=4&transport=websocket`;

    const own = await upgradeStatus(socketUrl, { Origin: `http://127.0.0.1:${port}` });
    const foreign = await upgradeStatus(socketUrl, { Origin: 'https://evil.example' });
    const rebound = await upgradeStatus(socketUrl, { Host: `evil.example:${port}` });
    const polling = await rawRequest(`${inbox.webUrl}/socket.io/?EIO=4&transport=polling`, {
      headers: { Origin: 'https://evil.example' },
    });

    expect([own, foreign, rebound, polling.status]).toEqual([101, 403, 403, 403]);
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
