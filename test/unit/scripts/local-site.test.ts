import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { demoMember } from '../../../scripts/demo-site-backend.js';
import { createLocalSite } from '../../../scripts/local-site.js';

describe('createLocalSite and a captcha site key', () => {
  it("hands the demo's widget the Turnstile key and lets only Cloudflare's scripts and frames into its policy", async () => {
    const page = await createLocalSite({ captcha: { field: 'turnstile', key: '0x4AAAAAAAtest' } })('/');
    const policy = page?.headers['content-security-policy'] ?? '';

    expect(page?.body.toString()).toContain(
      '<script type="application/json" id="demo-settings">{"turnstileKey":"0x4AAAAAAAtest"}</script>',
    );
    expect(policy).toContain("script-src 'self' https://challenges.cloudflare.com;");
    expect(policy).toContain('frame-src https://challenges.cloudflare.com;');
  });

  it('hands the v2 page the reCAPTCHA v3 key under the name the widget reads', async () => {
    const page = await createLocalSite({ captcha: { field: 'recaptchaV3', key: '6Lctest' } })('/v2/');

    expect(page?.body.toString()).toContain('{"recaptchaV3Key":"6Lctest"}');
    expect(page?.headers['content-security-policy']).toContain('https://recaptcha.net');
  });

  it('lets nothing leave the machine without a key', async () => {
    const page = await createLocalSite()('/');
    const policy = page?.headers['content-security-policy'] ?? '';

    expect(page?.body.toString()).toContain('<script type="application/json" id="demo-settings">{}</script>');
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("frame-src 'none'");
  });
});

describe('createLocalSite and the demo site of single sign-on', () => {
  const sso = {
    secret: 'the demo site backend and the server share this',
    audience: 'http://127.0.0.1:8360',
  };

  it('serves the site sign-in page at /demo/site-login under the demo policy, and not as a plain file', async () => {
    const site = createLocalSite({ sso: () => sso });

    const page = await site('/demo/site-login');

    expect(page?.body.toString()).toContain('<script type="module" src="/demo/site-login.js"></script>');
    expect(page?.headers['content-security-policy']).toContain("script-src 'self';");
    expect(await site('/demo/site-login.html')).toBeUndefined();
  });

  it("mints an assertion for the demo member on POST, signed with the server's key and naming it as audience", async () => {
    const site = createLocalSite({ sso: () => sso });

    const answer = await site('/demo/site-login/assertion', 'POST');
    const { assertion } = JSON.parse(answer?.body.toString() ?? '{}') as { assertion: string };
    const { payload } = await jwtVerify(assertion, new TextEncoder().encode(sso.secret), {
      algorithms: ['HS256'],
      audience: sso.audience,
    });

    expect(answer?.headers['cache-control']).toBe('no-store');
    expect(payload).toMatchObject({ sub: demoMember.sub, name: demoMember.name, email_verified: true });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
    expect(payload.picture).toMatch(/^http:\/\/127\.0\.0\.1:8360\/avatar\/[0-9a-f]{32}\.svg$/);
    // A new jti each time: every assertion is taken once.
    const again = await site('/demo/site-login/assertion', 'POST');
    expect(again?.body.toString()).not.toBe(answer?.body.toString());
  });

  it('says why it signs nobody in without the SSO settings, and answers no other POST, nor a GET of that path', async () => {
    const site = createLocalSite();

    const answer = await site('/demo/site-login/assertion', 'POST');

    expect(answer?.statusCode).toBe(503);
    expect(answer?.body.toString()).toContain('SSO_SECRET and SSO_AUDIENCE are not set');
    expect(await site('/demo/site-login', 'POST')).toBeUndefined();
    expect(await site('/demo/site-login/assertion')).toBeUndefined();
  });
});
