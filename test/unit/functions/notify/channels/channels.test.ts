import { describe, expect, it } from 'vitest';
import { createChannels } from '../../../../../functions/notify/channels/channels.js';
import { config, notifyConfig, replyNotice, secrets } from './notice-fixtures.js';

const kinds = (env: Record<string, string>, overrides: Record<string, string | undefined> = {}) => {
  const notify = { ...notifyConfig(env), ...overrides };
  return Object.keys(createChannels({ config, notify, secrets: secrets(), now: Date.now })).sort();
};

describe('createChannels', () => {
  it('has no channel when nothing is configured', () => {
    expect(kinds({})).toEqual([]);
  });

  it('mails the owner and the parents over SMTP or SES', () => {
    expect(kinds({ SMTP_HOST: 'smtp.example' })).toEqual(['owner', 'parent']);
    expect(kinds({ MAIL_TRANSPORT: 'ses' })).toEqual(['owner', 'parent']);
  });

  it('mails only the parents without AUTHOR_EMAIL', () => {
    expect(kinds({ SMTP_HOST: 'smtp.example' }, { AUTHOR_EMAIL: undefined })).toEqual(['parent']);
  });

  it('has a webhook with WEBHOOK, and Telegram with a token and a chat', () => {
    expect(kinds({ WEBHOOK: 'https://hooks.example/x', WEBHOOK_SECRET_PARAMETER: '/blog/webhook' })).toEqual([
      'webhook',
    ]);
    expect(kinds({ TG_BOT_TOKEN: '1:a', TG_CHAT_ID: '42' })).toEqual(['telegram']);
    expect(kinds({ TG_BOT_TOKEN_PARAMETER: '/marginalia/tg', TG_CHAT_ID: '42' })).toEqual(['telegram']);
    expect(kinds({ TG_BOT_TOKEN: '1:a' })).toEqual([]);
  });

  it('fails each mail, and only the mail, without a sender address', async () => {
    const channels = createChannels({
      config,
      notify: {
        ...notifyConfig({ SMTP_HOST: '127.0.0.1', SMTP_USER: 'AKIAEXAMPLE' }),
        SENDER_EMAIL: undefined,
      },
      secrets: secrets(),
      now: Date.now,
    });
    await expect(channels.parent!(replyNotice())).rejects.toThrow('SENDER_EMAIL is not set');
  });
});
