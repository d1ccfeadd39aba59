import { SendEmailCommand, type SendEmailCommandInput, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChannels } from '../../../../../functions/notify/channels/channels.js';
import { isPermanentFailure } from '../../../../../functions/notify/channels/permanent-failure.js';
import type { Notice } from '../../../../../functions/notify/notice.js';
import {
  config,
  now,
  notifyConfig,
  readerAddress,
  replyNotice,
  secrets,
  senderAddress,
  waitingNotice,
} from './notice-fixtures.js';
import { type SmtpSink, startSmtpSink, withFixedBoundary } from './smtp-sink.js';

describe('the mail channel over SES', () => {
  const client = new SESv2Client({
    region: 'eu-west-1',
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
  });
  const ses = mockClient(client);
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  beforeEach(() => {
    ses.reset();
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-message-1' });
    sink.mails.length = 0;
  });

  const sesChannels = (env: Record<string, string> = {}) =>
    createChannels({
      config,
      notify: notifyConfig({ MAIL_TRANSPORT: 'ses', ...env }),
      secrets: secrets(),
      now: () => now,
      ses: client,
    });

  /** The input of the one SendEmail call. */
  const sentInput = (): SendEmailCommandInput => {
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    return calls[0]!.args[0].input;
  };

  /** What the SMTP path sends for `notice`, as the SMTP server received it. */
  const smtpBytes = async (notice: Notice) => {
    const channels = createChannels({
      config,
      notify: notifyConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(sink.port) }),
      secrets: secrets(),
      now: () => now,
    });
    await channels[notice.recipient]!(notice);
    return sink.mails[0]!.raw;
  };

  it.each([
    ['a reply', replyNotice()],
    ['a waiting comment', waitingNotice()],
  ])('sends the very message the SMTP path sends, for %s', async (_name, notice) => {
    await sesChannels()[notice.recipient]!(notice);
    const input = sentInput();
    const raw = Buffer.from(input.Content?.Raw?.Data ?? new Uint8Array());
    expect(raw.length).toBeGreaterThan(0);
    // Byte for byte but the random MIME boundary.
    expect(withFixedBoundary(raw)).toBe(withFixedBoundary(await smtpBytes(notice)));
  });

  it('gives SES the sender and the one recipient as the envelope, with the configuration set', async () => {
    await sesChannels({ SES_CONFIGURATION_SET: 'marginalia-feedback' }).parent!(replyNotice());
    expect(sentInput()).toMatchObject({
      FromEmailAddress: senderAddress,
      Destination: { ToAddresses: [readerAddress] },
      ConfigurationSetName: 'marginalia-feedback',
    });
    expect(sentInput().Destination?.CcAddresses).toBeUndefined();
  });

  it('names no configuration set when none is set', async () => {
    await sesChannels().parent!(replyNotice());
    expect(sentInput()).not.toHaveProperty('ConfigurationSetName');
  });

  it('fails with SES’s words, the addresses blanked out', async () => {
    ses
      .on(SendEmailCommand)
      .rejects(
        new Error(
          `Email address is not verified. The following identities failed the check in region EU-WEST-1: ${readerAddress}`,
        ),
      );
    const failure = sesChannels().parent!(replyNotice());
    await expect(failure).rejects.toThrow(
      'the mail was not sent: Email address is not verified. The following identities failed the check in region EU-WEST-1: <address>',
    );
  });

  it.each([
    ['MessageRejected', true],
    ['MailFromDomainNotVerifiedException', true],
    ['TooManyRequestsException', false],
    ['InternalFailure', false],
  ])('fails for good on %s only when sending again cannot mend it', async (name, permanent) => {
    ses.on(SendEmailCommand).rejects(Object.assign(new Error(`refused for ${readerAddress}`), { name }));
    const failure = await sesChannels().parent!(replyNotice()).catch((error: unknown) => error);
    expect((failure as Error).message).toContain('<address>');
    expect((failure as Error).message).not.toContain(readerAddress);
    expect(isPermanentFailure(failure)).toBe(permanent);
  });

  it('calls SES for no hostile address', async () => {
    await expect(sesChannels().parent!(replyNotice({ to: 'a@x.test, b@evil.test' }))).rejects.toThrow(
      'not one plain address',
    );
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });
});
