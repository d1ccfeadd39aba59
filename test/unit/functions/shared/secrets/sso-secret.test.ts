import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSsoSecret } from '../../../../../functions/shared/secrets/sso-secret.js';
import { startFakeSecretsExtension } from '../../../../support/fake-secrets-extension.js';
import { testConfig } from '../../../../support/test-config.js';

const audience = { SSO_AUDIENCE: 'https://comments.example.com' };

describe('createSsoSecret', () => {
  let extension: Awaited<ReturnType<typeof startFakeSecretsExtension>>;
  const at = (port: number) => ({ host: '127.0.0.1', port, sessionToken: 'session' });

  beforeEach(async () => {
    extension = await startFakeSecretsExtension();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await extension.close();
  });

  it('reads SSO_SECRET_PARAMETER through the extension, and asks again when told a signature failed', async () => {
    extension.values.set('/m/sso', 's'.repeat(40));
    const secret = createSsoSecret(
      testConfig({ SSO_SECRET_PARAMETER: '/m/sso', ...audience }),
      at(extension.port),
    );

    expect(await secret()).toBe('s'.repeat(40));
    extension.values.set('/m/sso', 'r'.repeat(40));
    expect(await secret()).toBe('s'.repeat(40));
    expect(await secret({ refresh: true })).toBe('r'.repeat(40));
    expect(extension.requests).toHaveLength(2);
  });

  it('takes SSO_SECRET as it is locally, and is unset (no HS256 assertion taken) with neither', async () => {
    const plain = createSsoSecret(
      testConfig({ SSO_SECRET: 'p'.repeat(32), ...audience }),
      at(extension.port),
    );
    const none = createSsoSecret(testConfig(), at(extension.port));

    expect([await plain(), await none()]).toEqual(['p'.repeat(32), undefined]);
    expect(extension.requests).toEqual([]);
  });

  it('turns HS256 assertions off, and says why, for a key under 32 characters', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    extension.values.set('/m/short', 'short');
    const short = createSsoSecret(
      testConfig({ SSO_SECRET_PARAMETER: '/m/short', ...audience }),
      at(extension.port),
    );

    expect(await short()).toBeUndefined();
    expect(log.mock.calls.map((call) => String(call[0])).join('\n')).toContain(
      '/m/short is shorter than 32 characters: single sign-on with the site (HS256 assertions) is off',
    );
  });
});
