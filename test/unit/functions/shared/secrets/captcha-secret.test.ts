import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCaptchaSecret } from '../../../../../functions/shared/secrets/captcha-secret.js';
import { startFakeSecretsExtension } from '../../../../support/fake-secrets-extension.js';
import { testConfig } from '../../../../support/test-config.js';

/** `env` as the function's configuration, with the site key its captcha needs (config.ts refuses it without). */
const captchaConfig = (env: Record<string, string>) =>
  testConfig({
    ...env,
    ...(env.TURNSTILE_SECRET || env.TURNSTILE_SECRET_PARAMETER
      ? { TURNSTILE_KEY: 'turnstile-key' }
      : { RECAPTCHA_V3_KEY: 'recaptcha-key' }),
  });

describe('createCaptchaSecret', () => {
  let extension: Awaited<ReturnType<typeof startFakeSecretsExtension>>;
  let time = 0;
  const fromEnvironment = (env: Record<string, string>) =>
    createCaptchaSecret(
      captchaConfig(env),
      { host: '127.0.0.1', port: extension.port, sessionToken: 'session-token' },
      { now: () => time },
    );

  beforeEach(async () => {
    time = 1_000_000;
    extension = await startFakeSecretsExtension();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await extension.close();
  });

  it('is off, with no source and no read, when no secret nor parameter is set', () => {
    expect(fromEnvironment({})).toBeUndefined();
    expect(extension.requests).toEqual([]);
  });

  it("reads Turnstile's secret first, as Waline does, and reCAPTCHA's when Turnstile's is unset", async () => {
    expect(await fromEnvironment({ TURNSTILE_SECRET: 't', RECAPTCHA_V3_SECRET: 'r' })?.()).toEqual({
      field: 'turnstile',
      secret: 't',
    });
    expect(await fromEnvironment({ RECAPTCHA_V3_SECRET: 'r' })?.()).toEqual({
      field: 'recaptchaV3',
      secret: 'r',
    });
    expect(extension.requests).toEqual([]);
  });

  it('reads the SSM parameters through the extension, skipping one that does not exist', async () => {
    extension.values.set('/blog/recaptcha', 'from-ssm');
    const secret = fromEnvironment({
      TURNSTILE_SECRET_PARAMETER: '/blog/turnstile',
      RECAPTCHA_V3_SECRET_PARAMETER: '/blog/recaptcha',
      SECRETS_CACHE_SECONDS: '120',
    });

    expect(await secret?.()).toEqual({ field: 'recaptchaV3', secret: 'from-ssm' });
    extension.values.set('/blog/turnstile', 'turnstile-from-ssm');
    time += 120_000;
    expect(await secret?.()).toEqual({ field: 'turnstile', secret: 'turnstile-from-ssm' });
    expect(extension.requests[0]).toEqual({ name: '/blog/turnstile', token: 'session-token' });
  });

  it('reads no parameter without the extension (local mode): only the plain secrets count there', async () => {
    expect(
      createCaptchaSecret(captchaConfig({ TURNSTILE_SECRET_PARAMETER: '/blog/turnstile' }), undefined),
    ).toBe(undefined);
  });

  it('throws when the extension fails on the first read: whether a captcha is in force is unknown', async () => {
    const secret = createCaptchaSecret(captchaConfig({ TURNSTILE_SECRET_PARAMETER: '/blog/turnstile' }), {
      host: '127.0.0.1',
      port: 1,
      sessionToken: 'session-token',
    });

    await expect(secret?.()).rejects.toThrow();
  });
});
