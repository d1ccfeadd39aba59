import { type Config, loadConfig } from '../../functions/shared/config.js';

/** A valid configuration for tests, with `env` on top. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ TABLE_NAME: 'marginalia-test', IP_HASH_SALT: 'test-salt-0123456789abcdef', ...env });
}
