import { createAddressHasher } from '../../../../../functions/shared/notify/address-hash.js';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createChannels } from '../../../../../functions/notify/channels/channels.js';
import { buildMailMessage } from '../../../../../functions/notify/channels/mail-message.js';
import {
  createSmtpTransport,
  smtpTimeouts,
  smtpTransportOptions,
} from '../../../../../functions/notify/channels/smtp-transport.js';
import { createNotificationLinks } from '../../../../../functions/notify/links.js';
import {
  config,
  notifyConfig,
  now,
  replyNotice,
  secretOf,
  secrets,
  senderAddress,
  linkKey,
} from './notice-fixtures.js';

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise((closed) => server.close(closed));
  return port;
}

describe('the SMTP transport', () => {
  let silent: Server | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((closed) => (silent ? silent.close(closed) : closed(undefined)));
    silent = undefined;
  });

  it('waits seconds, not minutes, and opens one connection per mail', () => {
    const options = smtpTransportOptions(
      { SMTP_HOST: 'smtp.example', SMTP_PORT: 587, SMTP_SECURE: false },
      undefined,
    );
    expect(options).toMatchObject({ host: 'smtp.example', port: 587, secure: false, pool: false });
    for (const timeout of [
      options.connectionTimeout,
      options.greetingTimeout,
      options.socketTimeout,
      options.dnsTimeout,
    ]) {
      expect(timeout).toBeGreaterThan(0);
      expect(timeout).toBeLessThanOrEqual(10_000);
    }
    expect(options).not.toHaveProperty('auth');
  });

  it('signs in as SMTP_USER with the password read', () => {
    expect(smtpTransportOptions({ SMTP_HOST: 'h', SMTP_SECURE: true, SMTP_USER: 'u' }, 'p')).toMatchObject({
      secure: true,
      auth: { user: 'u', pass: 'p' },
    });
  });

  it('takes a service nodemailer knows, and refuses one it does not', () => {
    expect(smtpTransportOptions({ SMTP_SERVICE: 'Gmail', SMTP_SECURE: false }, undefined)).toMatchObject({
      service: 'Gmail',
    });
    expect(() => smtpTransportOptions({ SMTP_SERVICE: 'NoSuchMail', SMTP_SECURE: false }, undefined)).toThrow(
      'SMTP_SERVICE: nodemailer knows no service named "NoSuchMail"',
    );
  });

  it('fails at once with the reason when nothing listens on the port', async () => {
    const channels = createChannels({
      config,
      notify: notifyConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(await closedPort()) }),
      secrets: secrets(),
      now: () => now,
    });
    await expect(channels.parent!(replyNotice())).rejects.toThrow(/^the mail was not sent: .*ECONNREFUSED/);
  });

  it('gives up on a server that accepts the connection and never greets', async () => {
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((listening) => silent!.listen(0, '127.0.0.1', listening));
    const transport = createSmtpTransport(
      { SMTP_HOST: '127.0.0.1', SMTP_PORT: (silent.address() as AddressInfo).port, SMTP_SECURE: false },
      secretOf(),
      { ...smtpTimeouts, greeting: 100 },
    );
    const message = await buildMailMessage(replyNotice(), {
      site: config,
      templates: {},
      sender: { name: 'Site', address: senderAddress },
      links: createNotificationLinks({
        serverUrl: 'https://api.example',
        linkKey: secretOf(linkKey),
        hashAddress: createAddressHasher(config.IP_HASH_SALT),
        moderationLinkHours: 1,
        now: () => now,
      }),
      now: () => now,
    });
    await expect(transport(message)).rejects.toThrow(/greeting/i);
  });
});
