import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { MarginaliaStack } from '../../../lib/marginalia-stack.js';
import { originsFromSecureDomains } from '../../../functions/shared/http/secure-domains.js';
import { siteOrigins } from '../../../lib/site-origins.js';

const unbundled = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });

describe('siteOrigins', () => {
  it('refuses a stack that names no site, saying what to set', () => {
    expect(() => siteOrigins({})).toThrow(
      /needs your site.*-c siteUrl=https:\/\/blog\.example.*SECURE_DOMAINS/,
    );
    expect(() => siteOrigins({ allowedOrigins: [] })).toThrow(/needs your site/);
  });

  it('refuses * even beside a site, since any page could then post through its visitors', () => {
    expect(() => siteOrigins({ allowedOrigins: ['*'], siteUrl: 'https://blog.example' })).toThrow(
      /allowedOrigins: \* lets any web page post.*-c siteUrl=/,
    );
    expect(() => siteOrigins({ allowedOrigins: ['https://blog.example', '*'] })).toThrow(
      /allowedOrigins: \*/,
    );
  });

  it('takes the origin of siteUrl when no origins are listed', () => {
    expect(siteOrigins({ siteUrl: 'https://blog.example/posts/' })).toEqual(['https://blog.example']);
    expect(siteOrigins({ siteUrl: 'http://127.0.0.1:4000/' })).toEqual(['http://127.0.0.1:4000']);
  });

  it('takes the listed origins over siteUrl', () => {
    expect(
      siteOrigins({
        allowedOrigins: ['https://a.example', 'https://www.a.example'],
        siteUrl: 'https://b.example',
      }),
    ).toEqual(['https://a.example', 'https://www.a.example']);
  });

  it.each([
    ['a path', 'https://blog.example/blog'],
    ['a wildcard', 'https://*.blog.example'],
    ['no scheme', 'blog.example'],
    ['another scheme', 'ftp://blog.example'],
  ])('refuses an origin with %s', (_case, origin) => {
    expect(() => siteOrigins({ allowedOrigins: [origin] })).toThrow(
      `allowedOrigins: "${origin}" is not an origin`,
    );
  });

  it('refuses a siteUrl that is not an http or https URL', () => {
    expect(() => siteOrigins({ siteUrl: 'blog.example' })).toThrow(/siteUrl: "blog.example" is not an http/);
    expect(() => siteOrigins({ siteUrl: 'javascript:alert(1)' })).toThrow(/siteUrl/);
  });
});

describe('originsFromSecureDomains', () => {
  it("reads Waline's bare hosts as https origins and keeps entries that have a scheme", () => {
    expect(originsFromSecureDomains(['blog.example', 'http://localhost:4000', 'HTTPS://b.example'])).toEqual([
      'https://blog.example',
      'http://localhost:4000',
      'HTTPS://b.example',
    ]);
  });
});

describe('MarginaliaStack and the site', () => {
  it('does not synthesize without a site', () => {
    expect(() => new MarginaliaStack(unbundled(), 'NoSite')).toThrow(/needs your site/);
  });

  it('allows CORS and writes from the origin of siteUrl alone when only siteUrl is given', () => {
    const stack = new MarginaliaStack(unbundled(), 'SiteOnly', { siteUrl: 'https://blog.example/' });
    const template = Template.fromStack(stack);

    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: { AllowOrigins: ['https://blog.example'] },
    });
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (fn) => fn.Properties.Environment?.Variables?.ALLOWED_ORIGINS !== undefined,
    );
    expect(functions.length).toBeGreaterThanOrEqual(2);
    for (const fn of functions) {
      expect(fn.Properties.Environment.Variables.ALLOWED_ORIGINS).toBe('https://blog.example');
    }
  });
});
