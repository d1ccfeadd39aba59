import { describe, expect, it } from 'vitest';
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
