import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAkismetKey } from '../../../../../functions/shared/secrets/akismet-key.js';
import { startFakeSecretsExtension } from '../../../../support/fake-secrets-extension.js';
import { testConfig } from '../../../../support/test-config.js';

const parameter = '/marginalia/akismet-key';

describe('createAkismetKey', () => {
  let extension: Awaited<ReturnType<typeof startFakeSecretsExtension>>;
  let time = 0;
  const fromParameter = (env: Record<string, string> = {}) =>
    createAkismetKey(
      testConfig({ AKISMET_KEY_PARAMETER: parameter, ...env }),
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

  it('reads the key from the SecureString through the extension, with the session token', async () => {
    extension.values.set(parameter, 'abc123def456');

    expect(await fromParameter()?.()).toBe('abc123def456');
    expect(extension.requests).toEqual([{ name: parameter, token: 'session-token' }]);
  });

  it('uses AKISMET_KEY without calling the extension when it is set (local mode)', async () => {
    extension.values.set(parameter, 'fromparameter');

    expect(await fromParameter({ AKISMET_KEY: 'fromenvironment' })?.()).toBe('fromenvironment');
    expect(extension.requests).toEqual([]);
  });

  it('is off, with no source at all, when neither the key nor a parameter is set', () => {
    expect(createAkismetKey(testConfig(), { port: 2773, sessionToken: undefined })).toBeUndefined();
  });

  it('is off while the parameter does not exist, and on once it is created and the cache time passed', async () => {
    const key = fromParameter({ SECRETS_CACHE_SECONDS: '120' });

    expect(await key?.()).toBeUndefined();
    extension.values.set(parameter, 'abc123def456');
    expect(await key?.()).toBeUndefined();
    time += 120_000;
    expect(await key?.()).toBe('abc123def456');
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('does not exist: the Akismet check is off'),
    );
  });

  it('refuses a value that is not letters and digits, since the key becomes the host name called', async () => {
    extension.values.set(parameter, 'evil.example/steal?');

    expect(await fromParameter()?.()).toBeUndefined();
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('is not an Akismet key'));
  });
});
