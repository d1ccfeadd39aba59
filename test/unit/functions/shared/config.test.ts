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
      markdown: { highlight: true, emoji: true, sub: true, sup: true, tex: true },
    });
  });

  it('turns a MARKDOWN_* switch off only when it is 0 or false, as Waline does', () => {
    const markdownOf = (env: Record<string, string>) => loadConfig({ ...base, ...env }).markdown;

    expect(
      markdownOf({
        MARKDOWN_HIGHLIGHT: 'false',
        MARKDOWN_EMOJI: '0',
        MARKDOWN_SUB: 'FALSE',
        MARKDOWN_SUP: 'False',
        MARKDOWN_TEX: 'false',
      }),
    ).toEqual({ highlight: false, emoji: false, sub: false, sup: false, tex: false });
    expect(
      markdownOf({ MARKDOWN_HIGHLIGHT: '', MARKDOWN_EMOJI: 'no', MARKDOWN_SUB: '1', MARKDOWN_SUP: 'off' }),
    ).toEqual({ highlight: true, emoji: true, sub: true, sup: true, tex: true });
  });

  it('renders TeX for MARKDOWN_TEX mathjax or katex, not for 0, and refuses any other engine', () => {
    const texOf = (value: string) => loadConfig({ ...base, MARKDOWN_TEX: value }).markdown.tex;

    expect([texOf('mathjax'), texOf('katex'), texOf('KaTeX'), texOf(''), texOf('0')]).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(() => texOf('mathml')).toThrow('MARKDOWN_TEX: must be mathjax, katex, 0 or false');
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

  it('reads SITE_NAME trimmed, and a blank one as unset', () => {
    expect(loadConfig({ ...base, SITE_NAME: ' The Blog ' }).SITE_NAME).toBe('The Blog');
    expect(loadConfig({ ...base, SITE_NAME: '  ' }).SITE_NAME).toBeUndefined();
    expect(() => loadConfig({ ...base, SITE_NAME: 'x'.repeat(201) })).toThrow(/SITE_NAME/);
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
