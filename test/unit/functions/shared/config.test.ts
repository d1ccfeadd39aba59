import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../functions/shared/config.js';

const base = { TABLE_NAME: 'marginalia', IP_HASH_SALT: '0123456789abcdef' };

describe('loadConfig', () => {
  it('applies the defaults when only the required variables are set', () => {
    expect(loadConfig(base)).toEqual({
      TABLE_NAME: 'marginalia',
      IP_HASH_SALT: '0123456789abcdef',
      IPQPS: 60,
      ALLOWED_ORIGINS: ['*'],
      DISABLE_USERAGENT: false,
      TOKEN_TTL_HOURS: 168,
      PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: 2773,
      LIST_CACHE_MS: 1000,
      COMMENT_AUDIT: false,
      FORBIDDEN_WORDS: [],
      BLOCKED_IP_HASHES: [],
    });
  });

  it('reads IPQPS, origins and Waline-style flags when they are set', () => {
    const config = loadConfig({
      ...base,
      IPQPS: '0',
      ALLOWED_ORIGINS: 'https://a.example/, https://b.example',
      DISABLE_USERAGENT: 'true',
      AVATAR_PROXY: 'false',
    });

    expect(config).toMatchObject({
      IPQPS: 0,
      ALLOWED_ORIGINS: ['https://a.example', 'https://b.example'],
      DISABLE_USERAGENT: true,
    });
    expect(config.AVATAR_PROXY).toBeUndefined();
  });

  it('names every bad variable and its rule when the environment is invalid', () => {
    expect(() => loadConfig({ IPQPS: '-1', ALLOWED_ORIGINS: 'ftp://x', IP_HASH_SALT: 'short' })).toThrow(
      /TABLE_NAME: .*IPQPS: .*IP_HASH_SALT: .*ALLOWED_ORIGINS/,
    );
  });

  it('words the rules in English, which zod/mini leaves to the application to load', () => {
    expect(() => loadConfig({ ...base, IP_HASH_SALT: 'short' })).toThrow(
      'Invalid configuration: IP_HASH_SALT: Too small: expected string to have >=16 characters',
    );
  });
});
