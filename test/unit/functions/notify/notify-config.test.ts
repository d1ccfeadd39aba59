import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webhookKey } from '../../../../functions/notify/channels/webhook-secret.js';
import { loadNotifyConfig } from '../../../../functions/notify/notify-config.js';

/** A secret as the error message says to make one: `whsec_` and 32 random bytes in base64. */
const secret = `whsec_${randomBytes(32).toString('base64')}`;

describe('loadNotifyConfig (local mode runs it at start, the stack at synth)', () => {
  it('refuses WEBHOOK without a secret, naming WEBHOOK_SECRET, WEBHOOK_SECRET_PARAMETER and how to make one', () => {
    expect(() => loadNotifyConfig({ WEBHOOK: 'http://127.0.0.1:9/hook' })).toThrow(
      'Invalid configuration: WEBHOOK: set WEBHOOK_SECRET too (on AWS WEBHOOK_SECRET_PARAMETER, the SSM ' +
        'SecureString holding it): every delivery is signed with it as Standard Webhooks signs. Make one with ' +
        '`echo "whsec_$(openssl rand -base64 32)"` and give the receiver the same secret',
    );
    expect(() => loadNotifyConfig({ WEBHOOK: 'http://127.0.0.1:9/hook', WEBHOOK_SECRET: ' ' })).toThrow(
      'WEBHOOK_SECRET too',
    );
  });

  it('takes WEBHOOK with a secret, or with the parameter that holds one on AWS', () => {
    expect(loadNotifyConfig({ WEBHOOK: 'http://127.0.0.1:9/hook', WEBHOOK_SECRET: secret })).toMatchObject({
      WEBHOOK: 'http://127.0.0.1:9/hook',
      WEBHOOK_SECRET: secret,
    });
    expect(
      loadNotifyConfig({ WEBHOOK: 'https://hooks.example/x', WEBHOOK_SECRET_PARAMETER: '/blog/webhook' }),
    ).toMatchObject({ WEBHOOK_SECRET_PARAMETER: '/blog/webhook' });
  });

  it('accepts the secret the message makes, with or without whsec_, and refuses a short or malformed one', () => {
    expect('key' in webhookKey(secret)).toBe(true);
    expect('key' in webhookKey(secret.slice('whsec_'.length))).toBe(true);
    for (const bad of ['whsec_abc', `whsec_${randomBytes(16).toString('base64')}`, 'whsec_not base64!!']) {
      expect(() => loadNotifyConfig({ WEBHOOK_SECRET: bad })).toThrow(
        /WEBHOOK_SECRET must be whsec_ and at least 24 random bytes in base64 \(make one with `echo "whsec_\$\(openssl rand -base64 32\)"`\)/,
      );
    }
  });

  it('reads CHANNEL_TIMEOUT_MS, 5 s by default, within 100 ms and 30 s', () => {
    expect(loadNotifyConfig({}).CHANNEL_TIMEOUT_MS).toBe(5000);
    expect(loadNotifyConfig({ CHANNEL_TIMEOUT_MS: '250' }).CHANNEL_TIMEOUT_MS).toBe(250);
    expect(() => loadNotifyConfig({ CHANNEL_TIMEOUT_MS: '50' })).toThrow('CHANNEL_TIMEOUT_MS');
  });
});
