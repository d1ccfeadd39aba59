import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../functions/shared/config.js';
import { readSignInProviders } from '../../../../functions/shared/sign-in-provider-settings.js';

const base = { TABLE_NAME: 'marginalia', IP_HASH_SALT: '0123456789abcdef' };
const twoIssuers = {
  OIDC_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc, https://accounts.google.com',
  OIDC_CLIENT_ID: 'cognito-client,google-client',
  OIDC_CLIENT_SECRET: 'cognito-secret,google-secret',
};

describe('readSignInProviders', () => {
  it('reads no provider and no problem when nothing is set', () => {
    expect(readSignInProviders({})).toEqual({ oidcIssuers: [], problems: [] });
  });

  it('reads issuers from comma lists aligned by position, labelled by host unless OIDC_LABEL says', () => {
    expect(readSignInProviders(twoIssuers).oidcIssuers).toEqual([
      {
        key: 'oidc-1',
        label: 'cognito-idp.eu-west-1.amazonaws.com',
        issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc',
        clientId: 'cognito-client',
        clientSecret: 'cognito-secret',
      },
      {
        key: 'oidc-2',
        label: 'accounts.google.com',
        issuer: 'https://accounts.google.com',
        clientId: 'google-client',
        clientSecret: 'google-secret',
      },
    ]);
    const labelled = readSignInProviders({ ...twoIssuers, OIDC_LABEL: 'Our members, Google' });
    expect(labelled.oidcIssuers.map(({ label }) => label)).toEqual(['Our members', 'Google']);
  });

  it('reads the secrets as SSM parameter names on AWS', () => {
    const { OIDC_CLIENT_SECRET: _secret, ...rest } = twoIssuers;
    const read = readSignInProviders({ ...rest, OIDC_CLIENT_SECRET_PARAMETER: '/m/cognito,/m/google' });
    expect(read.problems).toEqual([]);
    expect(read.oidcIssuers.map((issuer) => [issuer.clientSecretParameter, issuer.clientSecret])).toEqual([
      ['/m/cognito', undefined],
      ['/m/google', undefined],
    ]);
  });

  it.each([
    [{ OIDC_CLIENT_ID: 'only-one' }, /OIDC_CLIENT_ID: must have one entry per OIDC_ISSUER entry \(2\)/],
    [{ OIDC_CLIENT_SECRET: 'a,' }, /OIDC_CLIENT_SECRET: entry 2 is empty/],
    [{ OIDC_CLIENT_SECRET: undefined }, /OIDC_CLIENT_SECRET: must be set with OIDC_ISSUER/],
    [{ OIDC_CLIENT_SECRET_PARAMETER: '/a,/b' }, /give it or OIDC_CLIENT_SECRET_PARAMETER, not both/],
    [{ OIDC_LABEL: 'One' }, /OIDC_LABEL: must have one entry per OIDC_ISSUER entry/],
    [{ OIDC_LABEL: `${'x'.repeat(41)},y` }, /OIDC_LABEL: entry 1 must be at most 40 characters/],
    [{ OIDC_ISSUER: 'http://issuer.example.test,https://b.test' }, /entry 1: .* must be https/],
    [{ OIDC_ISSUER: 'https://a.test?x=1,https://b.test' }, /must have no query/],
    [{ OIDC_ISSUER: 'https://a.test,https://a.test' }, /must not list an issuer twice/],
    [{ OIDC_ISSUER: 'not a url,https://b.test' }, /entry 1: not a url is not a URL/],
  ])('refuses %o, naming the variable and the rule', (change, problem) => {
    const read = readSignInProviders({ ...twoIssuers, ...change });
    expect(read.oidcIssuers).toEqual([]);
    expect(read.problems.join('; ')).toMatch(problem);
  });

  it('allows plain http only for an issuer on loopback', () => {
    const read = readSignInProviders({
      OIDC_ISSUER: 'http://127.0.0.1:9000',
      OIDC_CLIENT_ID: 'c',
      OIDC_CLIENT_SECRET: 's',
    });
    expect(read.problems).toEqual([]);
    expect(read.oidcIssuers[0]?.issuer).toBe('http://127.0.0.1:9000');
  });

  it('refuses an issuer list of more than 10', () => {
    const many = Array.from({ length: 11 }, (_, index) => `https://i${index}.test`);
    const read = readSignInProviders({
      OIDC_ISSUER: many.join(','),
      OIDC_CLIENT_ID: many.map(() => 'c').join(','),
      OIDC_CLIENT_SECRET: many.map(() => 's').join(','),
    });
    expect(read.problems).toContain('OIDC_ISSUER: must list at most 10 issuers');
  });

  it('refuses the other lists without OIDC_ISSUER', () => {
    expect(readSignInProviders({ OIDC_CLIENT_ID: 'c' }).problems).toEqual([
      'OIDC_CLIENT_ID: is set without OIDC_ISSUER, the issuers it belongs to',
    ]);
  });

  it("reads GitHub with github.com's addresses by default, and an Enterprise server's when given", () => {
    expect(readSignInProviders({ GITHUB_CLIENT_ID: 'gh', GITHUB_CLIENT_SECRET: 'secret' }).github).toEqual({
      key: 'github',
      label: 'GitHub',
      clientId: 'gh',
      clientSecret: 'secret',
      url: 'https://github.com',
      apiUrl: 'https://api.github.com',
    });
    const enterprise = readSignInProviders({
      GITHUB_CLIENT_ID: 'gh',
      GITHUB_CLIENT_SECRET_PARAMETER: '/m/github',
      GITHUB_URL: 'https://git.example.test/',
      GITHUB_API_URL: 'https://git.example.test/api/v3',
    }).github;
    expect(enterprise).toMatchObject({
      clientSecretParameter: '/m/github',
      url: 'https://git.example.test',
      apiUrl: 'https://git.example.test/api/v3',
    });
  });

  it.each([
    [{ GITHUB_CLIENT_SECRET: 's' }, 'GITHUB_CLIENT_SECRET: is set without GITHUB_CLIENT_ID'],
    [
      { GITHUB_CLIENT_ID: 'gh' },
      'GITHUB_CLIENT_SECRET: must be set with GITHUB_CLIENT_ID (or GITHUB_CLIENT_SECRET_PARAMETER)',
    ],
    [
      { GITHUB_CLIENT_ID: 'gh', GITHUB_CLIENT_SECRET: 's', GITHUB_CLIENT_SECRET_PARAMETER: '/p' },
      'GITHUB_CLIENT_SECRET: give it or GITHUB_CLIENT_SECRET_PARAMETER, not both',
    ],
    [
      { GITHUB_CLIENT_ID: 'gh', GITHUB_CLIENT_SECRET: 's', GITHUB_URL: 'http://git.example.test' },
      'GITHUB_URL: http://git.example.test must be https (http only on 127.0.0.1 or localhost)',
    ],
  ])('refuses GitHub settings %o', (env, problem) => {
    const read = readSignInProviders(env);
    expect(read.github).toBeUndefined();
    expect(read.problems).toEqual([problem]);
  });
});

describe('loadConfig with sign-in providers', () => {
  it('carries the issuers and GitHub, and SERVER_URL', () => {
    const config = loadConfig({
      ...base,
      ...twoIssuers,
      GITHUB_CLIENT_ID: 'gh',
      GITHUB_CLIENT_SECRET: 's',
      SERVER_URL: 'https://comments.example.test',
    });
    expect(config.oidcIssuers?.map(({ key }) => key)).toEqual(['oidc-1', 'oidc-2']);
    expect(config.github?.clientId).toBe('gh');
    expect(config.SERVER_URL).toBe('https://comments.example.test');
  });

  it('leaves them out when none is configured', () => {
    const config = loadConfig(base);
    expect(config).not.toHaveProperty('oidcIssuers');
    expect(config).not.toHaveProperty('github');
  });

  it('refuses to start with a bad provider setting, naming it', () => {
    expect(() => loadConfig({ ...base, ...twoIssuers, OIDC_CLIENT_ID: 'one' })).toThrow(
      /Invalid configuration: OIDC_CLIENT_ID: must have one entry per OIDC_ISSUER entry/,
    );
  });
});
