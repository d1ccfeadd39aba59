import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLinkSecret } from '../../../../../functions/shared/secrets/link-secret.js';
import { startFakeSecretsExtension } from '../../../../support/fake-secrets-extension.js';
import { testConfig } from '../../../../support/test-config.js';

describe('createLinkSecret', () => {
  let extension: Awaited<ReturnType<typeof startFakeSecretsExtension>>;
  const at = (port: number) => ({ host: '127.0.0.1', port, sessionToken: 'session' });

  beforeEach(async () => {
    extension = await startFakeSecretsExtension();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await extension.close();
  });

  it('reads LINK_SECRET_PARAMETER through the extension, and never the sign-in key', async () => {
    extension.values.set('/m/links', 'l'.repeat(40));
    extension.values.set('/m/jwt', 'j'.repeat(40));
    const secret = createLinkSecret(
      testConfig({
        LINK_SECRET_PARAMETER: '/m/links',
        JWT_SECRET_PARAMETER: '/m/jwt',
        JWT_TOKEN: 'j'.repeat(40),
      }),
      at(extension.port),
    );

    expect(await secret()).toBe('l'.repeat(40));
    expect(extension.requests).toEqual([{ name: '/m/links', token: 'session' }]);
  });

  it('takes LINK_SECRET as it is locally, and is unset (every link refused) with neither', async () => {
    const plain = createLinkSecret(testConfig({ LINK_SECRET: 'p'.repeat(32) }), at(extension.port));
    const none = createLinkSecret(testConfig({ JWT_TOKEN: 'j'.repeat(40) }), at(extension.port));

    expect([await plain(), await none()]).toEqual(['p'.repeat(32), undefined]);
    expect(extension.requests).toEqual([]);
  });

  it('turns the links off, and says why, for a missing parameter or a value under 32 characters', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    extension.values.set('/m/short', 'short');
    const missing = createLinkSecret(testConfig({ LINK_SECRET_PARAMETER: '/m/none' }), at(extension.port));
    const short = createLinkSecret(testConfig({ LINK_SECRET_PARAMETER: '/m/short' }), at(extension.port));

    expect([await missing(), await short()]).toEqual([undefined, undefined]);
    const said = log.mock.calls.map((call) => String(call[0])).join('\n');
    expect(said).toContain('/m/none does not exist: the links in mails');
    expect(said).toContain('/m/short is shorter than 32 characters');
  });
});
