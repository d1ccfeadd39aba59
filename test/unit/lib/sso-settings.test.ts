import { describe, expect, it } from 'vitest';
import type { MarginaliaStackProps } from '../../../lib/marginalia-stack.js';
import { environmentOf, parameterGrants, synthUnbundled } from './fixtures/unbundled-stack.js';

/** The stack synthesized without bundling (props only reach the template), with `context` set. */
const synth = (props: MarginaliaStackProps = {}, context: Record<string, unknown> = {}) =>
  synthUnbundled('Sso', props, context);

describe('MarginaliaStack and single sign-on with the site', () => {
  it('sets no SSO variable and grants no SSO parameter by default: SSO is off', () => {
    const { stack, template } = synth();

    const environment = environmentOf(template, stack, stack.commentFunction);
    for (const name of ['SSO_SECRET_PARAMETER', 'SSO_ISSUER', 'SSO_AUDIENCE']) {
      expect(environment).not.toHaveProperty(name);
    }
  });

  it('names the key parameter to the comment function, lets it read it, and defaults the audience to the API', () => {
    const { stack, template } = synth({ ssoSecretParameterName: '/blog/sso-secret' });

    const environment = environmentOf(template, stack, stack.commentFunction);
    expect(environment.SSO_SECRET_PARAMETER).toBe('/blog/sso-secret');
    // The HTTP API's own address, resolved at deploy time.
    expect(JSON.stringify(environment.SSO_AUDIENCE)).toMatch(/"Fn::GetAtt":\["HttpApi\w+","ApiEndpoint"\]/);
    expect(parameterGrants(template, stack, stack.commentFunction)).toContain(':parameter/blog/sso-secret');
    expect(parameterGrants(template, stack, stack.articleFunction)).toBe('[]');
  });

  it('takes an issuer and an audience as given', () => {
    const { stack, template } = synth({
      ssoIssuer: 'https://id.site.example',
      ssoAudience: 'https://comments.site.example',
    });

    expect(environmentOf(template, stack, stack.commentFunction)).toMatchObject({
      SSO_ISSUER: 'https://id.site.example',
      SSO_AUDIENCE: 'https://comments.site.example',
    });
  });

  it('refuses an http issuer, and an SSO key given as context (it would be in the template)', () => {
    expect(() => synth({ ssoIssuer: 'http://id.site.example' })).toThrow(/SSO_ISSUER: must be an https URL/);
    expect(() => synth({}, { ssoSecret: 'k'.repeat(40) })).toThrow(/not taken from context/);
  });
});
