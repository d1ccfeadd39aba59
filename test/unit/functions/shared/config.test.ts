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
      DISABLE_REGION: false,
      TOKEN_TTL_HOURS: 168,
      PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: 2773,
      SECRETS_CACHE_SECONDS: 120,
      LIST_CACHE_MS: 1000,
      COMMENT_AUDIT: 'off',
      FORBIDDEN_WORDS: [],
      BLOCKED_WORDS: [],
      RESTRICTED_NAMES: [],
      READONLY_AGE: 0,
      BLOCKED_IP_HASHES: [],
      EDIT_WINDOW: 15,
      LOGIN: 'open',
      TURNSTILE_VERIFY_URL: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      RECAPTCHA_VERIFY_URL: 'https://recaptcha.net/recaptcha/api/siteverify',
      RECAPTCHA_V3_MIN_SCORE: 0.5,
      REGISTRATION: 'closed',
      ERASE_WITH_REPLIES: 'placeholder',
      markdown: { highlight: true, emoji: true, sub: true, sup: true, tex: true },
    });
  });

  it('reads LEVELS as non-decreasing whole thresholds, and DISABLE_REGION as a flag', () => {
    expect(loadConfig({ ...base, LEVELS: ' 0, 10,20,50 ,100,200', DISABLE_REGION: 'true' })).toMatchObject({
      LEVELS: [0, 10, 20, 50, 100, 200],
      DISABLE_REGION: true,
    });
    expect(loadConfig({ ...base, LEVELS: '  ' }).LEVELS).toBeUndefined();
  });

  it('refuses a LEVELS that is not a non-decreasing list of whole numbers, naming the rule', () => {
    expect(() => loadConfig({ ...base, LEVELS: '0,ten' })).toThrow(/LEVELS: must be whole numbers/);
    expect(() => loadConfig({ ...base, LEVELS: '0,10,5' })).toThrow(/LEVELS: must not decrease/);
    expect(() => loadConfig({ ...base, LEVELS: Array.from({ length: 21 }, (_, i) => i).join(',') })).toThrow(
      /LEVELS: must have at most 20/,
    );
  });

  it('reads PASSKEY_RP_ID as a lower-case domain name, blank as unset, and refuses an address, port or URL', () => {
    expect(loadConfig({ ...base, PASSKEY_RP_ID: ' Comments.Example.COM ' }).PASSKEY_RP_ID).toBe(
      'comments.example.com',
    );
    expect(loadConfig({ ...base, PASSKEY_RP_ID: ' ' }).PASSKEY_RP_ID).toBeUndefined();
    expect(loadConfig(base).PASSKEY_RP_ID).toBeUndefined();
    for (const bad of [
      'https://example.com',
      'example.com:443',
      '192.0.2.1',
      'example.com/path',
      '-bad.example',
    ]) {
      expect(() => loadConfig({ ...base, PASSKEY_RP_ID: bad }), bad).toThrow(
        /PASSKEY_RP_ID: must be a domain name/,
      );
    }
  });

  it('reads REGISTRATION in any case, blank as closed, and refuses any other value', () => {
    const mail = { SMTP_HOST: 'smtp.example.com' };
    expect(loadConfig({ ...base, REGISTRATION: ' ' }).REGISTRATION).toBe('closed');
    expect(loadConfig({ ...base, ...mail, REGISTRATION: 'Open' }).REGISTRATION).toBe('open');
    expect(loadConfig({ ...base, ...mail, REGISTRATION: 'approval' }).REGISTRATION).toBe('approval');
    expect(() => loadConfig({ ...base, REGISTRATION: 'anyone' })).toThrow(
      /REGISTRATION: must be open, approval or closed/,
    );
  });

  it('reads ERASE_WITH_REPLIES in any case, blank as placeholder, and refuses any other value', () => {
    expect(loadConfig({ ...base, ERASE_WITH_REPLIES: '' }).ERASE_WITH_REPLIES).toBe('placeholder');
    expect(loadConfig({ ...base, ERASE_WITH_REPLIES: ' Anonymise ' }).ERASE_WITH_REPLIES).toBe('anonymise');
    expect(() => loadConfig({ ...base, ERASE_WITH_REPLIES: 'keep' })).toThrow(
      /ERASE_WITH_REPLIES: must be placeholder or anonymise/,
    );
  });

  it('refuses REGISTRATION open or approval without mail, which must carry the confirmation link', () => {
    expect(() => loadConfig({ ...base, REGISTRATION: 'open' })).toThrow(
      /REGISTRATION: open needs mail configured/,
    );
    expect(() => loadConfig({ ...base, REGISTRATION: 'approval', SMTP_HOST: ' ' })).toThrow(
      /REGISTRATION: approval needs mail configured/,
    );
    expect(loadConfig({ ...base, REGISTRATION: 'open', SES_IDENTITY: 'example.com' }).REGISTRATION).toBe(
      'open',
    );
    expect(loadConfig({ ...base, REGISTRATION: 'closed' }).REGISTRATION).toBe('closed');
  });

  it('reads the single sign-on settings, and refuses a key or an issuer without the audience', () => {
    const sso = {
      SSO_SECRET: 'k'.repeat(32),
      SSO_ISSUER: 'https://id.site.example/',
      SSO_AUDIENCE: ' https://comments.example.com ',
    };
    expect(loadConfig({ ...base, ...sso })).toMatchObject({
      SSO_SECRET: 'k'.repeat(32),
      // Kept as written: an ID token's iss must be exactly the issuer, trailing slash included.
      SSO_ISSUER: 'https://id.site.example/',
      SSO_AUDIENCE: 'https://comments.example.com',
    });
    const alone = {
      SSO_SECRET: sso.SSO_SECRET,
      SSO_SECRET_PARAMETER: '/site/sso',
      SSO_ISSUER: sso.SSO_ISSUER,
    };
    for (const [name, value] of Object.entries(alone)) {
      expect(() => loadConfig({ ...base, [name]: value })).toThrow(
        /SSO_AUDIENCE: must be set with SSO_SECRET, SSO_SECRET_PARAMETER or SSO_ISSUER/,
      );
    }
    expect(() => loadConfig({ ...base, ...sso, SSO_SECRET: 'short' })).toThrow(
      /SSO_SECRET: must be at least 32 characters/,
    );
    expect(() => loadConfig({ ...base, ...sso, SSO_ISSUER: 'http://id.site.example' })).toThrow(
      /SSO_ISSUER: must be an https URL \(http only on 127.0.0.1, localhost or \[::1\]\)/,
    );
    expect(loadConfig({ ...base, ...sso, SSO_ISSUER: 'http://127.0.0.1:9000' }).SSO_ISSUER).toBe(
      'http://127.0.0.1:9000',
    );
    expect(() => loadConfig({ ...base, ...sso, SSO_AUDIENCE: `https://${'a'.repeat(2048)}` })).toThrow(
      /SSO_AUDIENCE: must be at most 2048 characters/,
    );
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

  it('says each rule in words: lengths, whole numbers, URLs, origins and lists', () => {
    const problemOf = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return undefined;
      } catch (error) {
        return (error as Error).message.replace('Invalid configuration: ', '');
      }
    };

    expect(problemOf({ IP_HASH_SALT: 'short' })).toBe('IP_HASH_SALT: must be at least 16 characters');
    expect(problemOf({ TABLE_NAME: 'x'.repeat(256) })).toBe('TABLE_NAME: must be at most 255 characters');
    expect(problemOf({ IPQPS: '1.5' })).toBe('IPQPS: must be a whole number from 0 to 86400');
    expect(problemOf({ LIST_CACHE_MS: '60001' })).toBe(
      'LIST_CACHE_MS: must be a whole number from 0 to 60000',
    );
    expect(problemOf({ SITE_URL: 'ftp://example.com' })).toBe('SITE_URL: must be an http or https URL');
    expect(problemOf({ DYNAMODB_ENDPOINT: 'localhost:8000' })).toBe(
      'DYNAMODB_ENDPOINT: must be an http or https URL',
    );
    expect(problemOf({ ALLOWED_ORIGINS: 'https://a.example, a.example' })).toBe(
      'ALLOWED_ORIGINS: a.example is not * or an http or https URL',
    );
    expect(problemOf({ ALLOWED_ORIGINS: ' , ' })).toBe(
      'ALLOWED_ORIGINS: must name at least one origin, or *',
    );
    expect(problemOf({ FORBIDDEN_WORDS: 'x'.repeat(201) })).toBe(
      'FORBIDDEN_WORDS: each item must be at most 200 characters',
    );
    expect(problemOf({ BLOCKED_IP_HASHES: Array.from({ length: 1001 }, (_, i) => `h${i}`).join(',') })).toBe(
      'BLOCKED_IP_HASHES: must list at most 1000 items',
    );
    expect(problemOf({ JWT_TOKEN: 'k'.repeat(31) })).toBe('JWT_TOKEN: must be at least 32 characters');
  });

  it("reads Waline's SECURE_DOMAINS as ALLOWED_ORIGINS when that is unset, bare hosts as https", () => {
    expect(
      loadConfig({ ...base, SECURE_DOMAINS: 'blog.example, http://localhost:4000' }).ALLOWED_ORIGINS,
    ).toEqual(['https://blog.example', 'http://localhost:4000']);
    expect(
      loadConfig({ ...base, ALLOWED_ORIGINS: ' ', SECURE_DOMAINS: 'blog.example' }).ALLOWED_ORIGINS,
    ).toEqual(['https://blog.example']);
    expect(() =>
      loadConfig({ ...base, ALLOWED_ORIGINS: 'https://a.example', SECURE_DOMAINS: 'b.example' }),
    ).toThrow("SECURE_DOMAINS: is ALLOWED_ORIGINS under Waline's name; give one of them");
  });

  it('reads COMMENT_AUDIT as Waline does, on for anything but 0 or false, and first for first', () => {
    const auditOf = (value: string) => loadConfig({ ...base, COMMENT_AUDIT: value }).COMMENT_AUDIT;

    expect(['true', '1', 'yes', 'false', '0', 'FALSE', 'first', ' First ', 'firsts'].map(auditOf)).toEqual([
      'all',
      'all',
      'all',
      'off',
      'off',
      'off',
      'first',
      'first',
      'all',
    ]);
  });

  it('reads the word and name rules as bounded lists, and READONLY_AGE as whole days', () => {
    const config = loadConfig({
      ...base,
      BLOCKED_WORDS: 'casino, 赌博',
      RESTRICTED_NAMES: 'admin ,Owner',
      READONLY_AGE: '30',
    });

    expect(config).toMatchObject({
      BLOCKED_WORDS: ['casino', '赌博'],
      RESTRICTED_NAMES: ['admin', 'Owner'],
      READONLY_AGE: 30,
    });
    expect(() => loadConfig({ ...base, READONLY_AGE: '1.5' })).toThrow(
      'READONLY_AGE: must be a whole number from 0 to 36500',
    );
    expect(() => loadConfig({ ...base, READONLY_AGE: '-1' })).toThrow('READONLY_AGE: must be a whole number');
    expect(() => loadConfig({ ...base, BLOCKED_WORDS: 'x'.repeat(201) })).toThrow(
      'BLOCKED_WORDS: each item must be at most 200 characters',
    );
    expect(() => loadConfig({ ...base, RESTRICTED_NAMES: 'x'.repeat(101) })).toThrow(
      'RESTRICTED_NAMES: each item must be at most 100 characters',
    );
    expect(() =>
      loadConfig({ ...base, RESTRICTED_NAMES: Array.from({ length: 1001 }, (_, i) => `n${i}`).join(',') }),
    ).toThrow('RESTRICTED_NAMES: must list at most 1000 items');
  });

  it('reads EDIT_WINDOW as whole minutes up to a week, and LOGIN as force or unset', () => {
    expect(loadConfig({ ...base, EDIT_WINDOW: '0', LOGIN: 'Force' })).toMatchObject({
      EDIT_WINDOW: 0,
      LOGIN: 'force',
    });
    expect(loadConfig({ ...base, EDIT_WINDOW: '10080', LOGIN: ' ' })).toMatchObject({
      EDIT_WINDOW: 10_080,
      LOGIN: 'open',
    });
    expect(() => loadConfig({ ...base, EDIT_WINDOW: '10081' })).toThrow(
      'EDIT_WINDOW: must be a whole number from 0 to 10080',
    );
    expect(() => loadConfig({ ...base, LOGIN: 'enable' })).toThrow(
      'LOGIN: must be force, or unset (anonymous comments are taken)',
    );
  });

  it('reads a blank variable as unset, as a .env file that lists it without a value means', () => {
    const config = loadConfig({
      ...base,
      IPQPS: '',
      LIST_CACHE_MS: ' ',
      SITE_URL: '',
      JWT_TOKEN: '',
      AKISMET_KEY: ' ',
      COMMENT_AUDIT: '',
      MARKDOWN_EMOJI: '',
    });

    expect(config).toMatchObject({ IPQPS: 60, LIST_CACHE_MS: 1000, COMMENT_AUDIT: 'off' });
    expect(loadConfig({ ...base, ALLOWED_ORIGINS: ' ' }).ALLOWED_ORIGINS).toEqual(['*']);
    expect(config.markdown.emoji).toBe(true);
    expect(Object.keys(config)).not.toEqual(expect.arrayContaining(['SITE_URL']));
    expect(Object.keys(config)).not.toEqual(expect.arrayContaining(['JWT_TOKEN']));
    expect(Object.keys(config)).not.toEqual(expect.arrayContaining(['AKISMET_KEY']));
  });

  it('reads URLs and switches trimmed, as a .env file may pad them', () => {
    const config = loadConfig({
      ...base,
      SITE_URL: ' https://blog.example/ ',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000\t',
      COMMENT_AUDIT: ' false ',
      MARKDOWN_TEX: ' katex ',
    });

    expect(config).toMatchObject({
      SITE_URL: 'https://blog.example/',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      COMMENT_AUDIT: 'off',
    });
    expect(config.markdown.tex).toBe(true);
  });

  it('keeps a setting named like an Object member an environment variable like any other', () => {
    const env = JSON.parse('{"__proto__": {"IPQPS": "7"}, "constructor": "x"}') as Record<string, string>;

    expect(loadConfig({ ...base, ...env }).IPQPS).toBe(60);
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

  it('reads the captcha settings: secrets, parameters, site keys, verify URLs and the least score', () => {
    const config = loadConfig({
      ...base,
      TURNSTILE_SECRET: '0x4AAAAAAA-secret',
      TURNSTILE_SECRET_PARAMETER: '/blog/turnstile',
      RECAPTCHA_V3_SECRET: '6Lc-secret',
      RECAPTCHA_V3_SECRET_PARAMETER: '/blog/recaptcha',
      TURNSTILE_KEY: ' 0x4AAAAAAA_key ',
      RECAPTCHA_V3_KEY: '6Lc-key_1',
      TURNSTILE_VERIFY_URL: ' http://127.0.0.1:9999/turnstile ',
      RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9999/recaptcha',
      RECAPTCHA_V3_MIN_SCORE: '0.7',
    });

    expect(config).toMatchObject({
      TURNSTILE_SECRET: '0x4AAAAAAA-secret',
      TURNSTILE_SECRET_PARAMETER: '/blog/turnstile',
      RECAPTCHA_V3_SECRET: '6Lc-secret',
      RECAPTCHA_V3_SECRET_PARAMETER: '/blog/recaptcha',
      TURNSTILE_KEY: '0x4AAAAAAA_key',
      RECAPTCHA_V3_KEY: '6Lc-key_1',
      TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9999/turnstile',
      RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9999/recaptcha',
      RECAPTCHA_V3_MIN_SCORE: 0.7,
    });
    expect(loadConfig({ ...base, RECAPTCHA_V3_MIN_SCORE: '0' }).RECAPTCHA_V3_MIN_SCORE).toBe(0);
    expect(loadConfig({ ...base, RECAPTCHA_V3_MIN_SCORE: '1' }).RECAPTCHA_V3_MIN_SCORE).toBe(1);
  });

  it('refuses a captcha setting out of its rule, saying the rule', () => {
    const problemOf = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return undefined;
      } catch (error) {
        return (error as Error).message.replace('Invalid configuration: ', '');
      }
    };

    for (const score of ['1.1', '-0.1', '0x1', '1e0', 'high']) {
      expect(problemOf({ RECAPTCHA_V3_MIN_SCORE: score })).toBe(
        'RECAPTCHA_V3_MIN_SCORE: must be a number from 0 to 1',
      );
    }
    expect(problemOf({ TURNSTILE_KEY: 'key"><script>' })).toBe(
      'TURNSTILE_KEY: must be letters, digits, _ and - (a site key as the provider gives it)',
    );
    expect(problemOf({ RECAPTCHA_V3_KEY: 'k'.repeat(257) })).toBe(
      'RECAPTCHA_V3_KEY: must be at most 256 characters',
    );
    expect(problemOf({ TURNSTILE_VERIFY_URL: 'ftp://verify.example' })).toBe(
      'TURNSTILE_VERIFY_URL: must be an http or https URL',
    );
    expect(problemOf({ TURNSTILE_SECRET: 's'.repeat(513), TURNSTILE_KEY: 'k' })).toBe(
      'TURNSTILE_SECRET: must be at most 512 characters',
    );
  });

  it('refuses a captcha secret without its own provider’s site key, which would lock every sign-in out', () => {
    const problemOf = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return undefined;
      } catch (error) {
        return (error as Error).message.replace('Invalid configuration: ', '');
      }
    };
    const noTurnstileKey =
      'TURNSTILE_KEY: must be set with a Turnstile secret (TURNSTILE_SECRET or TURNSTILE_SECRET_PARAMETER): ' +
      'without it the sign-in page sends no Turnstile token, and every sign-in is refused';
    const noRecaptchaKey =
      'RECAPTCHA_V3_KEY: must be set with a reCAPTCHA v3 secret (RECAPTCHA_V3_SECRET or ' +
      'RECAPTCHA_V3_SECRET_PARAMETER): without it the sign-in page sends no reCAPTCHA token, and every sign-in is refused';
    const turnstileKeyForRecaptcha =
      'TURNSTILE_KEY: must not be set when the captcha is reCAPTCHA v3 (no Turnstile secret): the sign-in page ' +
      'would send a Turnstile token, and every sign-in would be refused';

    for (const secret of [
      { TURNSTILE_SECRET: 's' },
      { TURNSTILE_SECRET_PARAMETER: '/blog/turnstile' },
    ] as Record<string, string>[]) {
      expect(problemOf(secret)).toBe(noTurnstileKey);
      // Turnstile's secret is read first: reCAPTCHA's key does not stand in for its own.
      expect(problemOf({ ...secret, RECAPTCHA_V3_SECRET: 'r', RECAPTCHA_V3_KEY: 'k' })).toBe(noTurnstileKey);
      expect(problemOf({ ...secret, TURNSTILE_KEY: ' ' })).toBe(noTurnstileKey);
      expect(problemOf({ ...secret, TURNSTILE_KEY: 'k' })).toBeUndefined();
      // With Turnstile in force, reCAPTCHA's secret needs no key of its own.
      expect(problemOf({ ...secret, TURNSTILE_KEY: 'k', RECAPTCHA_V3_SECRET: 'r' })).toBeUndefined();
    }
    for (const secret of [
      { RECAPTCHA_V3_SECRET: 'r' },
      { RECAPTCHA_V3_SECRET_PARAMETER: '/blog/recaptcha' },
    ] as Record<string, string>[]) {
      expect(problemOf(secret)).toBe(noRecaptchaKey);
      expect(problemOf({ ...secret, TURNSTILE_KEY: 'k' })).toBe(
        `${noRecaptchaKey}; ${turnstileKeyForRecaptcha}`,
      );
      expect(problemOf({ ...secret, RECAPTCHA_V3_KEY: 'k', TURNSTILE_KEY: 'k' })).toBe(
        turnstileKeyForRecaptcha,
      );
      expect(problemOf({ ...secret, RECAPTCHA_V3_KEY: 'k' })).toBeUndefined();
    }
    // No secret: no captcha is checked, and a key alone (the local demo's widget) is fine.
    expect(problemOf({ TURNSTILE_KEY: 'k', RECAPTCHA_V3_KEY: 'k' })).toBeUndefined();
    expect(problemOf({ TURNSTILE_SECRET: ' ', RECAPTCHA_V3_SECRET_PARAMETER: '' })).toBeUndefined();
  });
});
