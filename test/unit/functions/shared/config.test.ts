import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../functions/shared/config.js';
import { createCommentDependencies } from '../../../../functions/comment/dependencies.js';

const base = { TABLE_NAME: 'marginalia', IP_HASH_SALT: '0123456789abcdef' };

describe('loadConfig', () => {
  it('applies the defaults when only the required variables are set', () => {
    expect(loadConfig(base)).toEqual({
      TABLE_NAME: 'marginalia',
      IP_HASH_SALT: '0123456789abcdef',
      DYNAMODB_CONNECT_TIMEOUT_MS: 1000,
      DYNAMODB_REQUEST_TIMEOUT_MS: 2500,
      IPQPS: 60,
      ALLOWED_ORIGINS: ['*'],
      AVATAR_QQ: false,
      DISABLE_USERAGENT: false,
      TOKEN_TTL_HOURS: 168,
      PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: 2773,
      SECRETS_CACHE_SECONDS: 120,
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

  it('refuses a GRAVATAR_STR that inserts the mail unhashed, saying what to write instead', () => {
    expect(() => loadConfig({ ...base, GRAVATAR_STR: 'https://avatars.example/{{mail}}' })).toThrow(
      /GRAVATAR_STR: must hash the mail, as \{\{mail\|md5\}\} or \{\{mail\|sha256\}\}/,
    );
    expect(
      loadConfig({ ...base, GRAVATAR_STR: 'https://avatars.example/{{mail|sha256}}' }).GRAVATAR_STR,
    ).toBe('https://avatars.example/{{mail|sha256}}');
  });

  it('turns the QQ avatar rule on only when AVATAR_QQ says so', () => {
    const avatarOf = (env: Record<string, string>) =>
      createCommentDependencies(loadConfig({ ...base, ...env })).presentation.avatarFor({
        nick: 'Ann',
        mail: '10001@qq.com',
      });

    expect(loadConfig({ ...base, AVATAR_QQ: 'true' }).AVATAR_QQ).toBe(true);
    expect(loadConfig({ ...base, AVATAR_QQ: 'false' }).AVATAR_QQ).toBe(false);
    expect(avatarOf({ AVATAR_QQ: 'true' })).toBe('https://q1.qlogo.cn/g?b=qq&nk=10001&s=100');
    expect(avatarOf({})).toMatch(/^https:\/\/seccdn\.libravatar\.org\/avatar\/[0-9a-f]{32}$/);
  });
});
