import { describe, expect, it } from 'vitest';
import type { MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import { environmentOf, parameterGrants, synthUnbundled } from './fixtures/unbundled-stack.js';

/** The stack synthesized without bundling (props only reach the template), with `context` set. */
const synth = (props: MarginaliaStackProps = {}, context: Record<string, unknown> = {}) =>
  synthUnbundled('SignInProviders', props, context);

const providers = {
  OIDC_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc,https://accounts.google.com',
  OIDC_CLIENT_ID: 'cognito-client,google-client',
  OIDC_CLIENT_SECRET_PARAMETER: '/blog/cognito-secret,/blog/google-secret',
  OIDC_LABEL: 'Members,Google',
  GITHUB_CLIENT_ID: 'github-client',
  GITHUB_CLIENT_SECRET_PARAMETER: '/blog/github-secret',
};

describe('MarginaliaStack and the sign-in providers', () => {
  it('configures no provider by default', () => {
    const { stack, template } = synth();
    const environment = environmentOf(template, stack, stack.commentFunction);
    expect(environment).not.toHaveProperty('OIDC_ISSUER');
    expect(environment).not.toHaveProperty('GITHUB_CLIENT_ID');
    expect(environment).not.toHaveProperty('SERVER_URL');
  });

  it('passes the lists to the comment function and lets only it read each client secret', () => {
    const { stack, template } = synth({
      signInProviders: providers,
      notifications: { SERVER_URL: 'https://comments.example.com' },
    });

    expect(environmentOf(template, stack, stack.commentFunction)).toMatchObject({
      ...providers,
      SERVER_URL: 'https://comments.example.com',
    });
    const grants = parameterGrants(template, stack, stack.commentFunction);
    for (const name of ['/blog/cognito-secret', '/blog/google-secret', '/blog/github-secret']) {
      expect(grants).toContain(`:parameter${name}`);
    }
    expect(environmentOf(template, stack, stack.articleFunction)).not.toHaveProperty('OIDC_ISSUER');
    expect(parameterGrants(template, stack, stack.articleFunction)).toBe('[]');
  });

  it('refuses a client secret given as context rather than publish it in the template', () => {
    expect(() => synth({}, { OIDC_CLIENT_SECRET: 'x' })).toThrow(/not taken from context/);
    expect(() => synth({}, { GITHUB_CLIENT_SECRET: 'x' })).toThrow(/not taken from context/);
  });

  it('stops synth on lists the function would refuse at every cold start', () => {
    expect(() => synth({ signInProviders: { ...providers, OIDC_CLIENT_ID: 'one' } })).toThrow(
      /signInProviders: OIDC_CLIENT_ID: must have one entry per OIDC_ISSUER entry/,
    );
    expect(() => synth({ signInProviders: { GITHUB_CLIENT_ID: 'github-client' } })).toThrow(
      /GITHUB_CLIENT_SECRET: must be set/,
    );
  });
});
