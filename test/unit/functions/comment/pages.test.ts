import { allRouteKeys } from '../../../../functions/api-routes.js';
import { describe, expect, it } from 'vitest';
import { createCommentHandler } from '../../../../functions/comment/comment-handler.js';
import { embedJson } from '../../../../functions/comment/pages/page-shell.js';
import { createCommentDependencies } from '../../../../functions/comment/dependencies.js';
import { buildEvent, testContext } from '../../../support/http-event.js';
import { testConfig } from '../../../support/test-config.js';

const handler = createCommentHandler(
  createCommentDependencies(
    testConfig({ ALLOWED_ORIGINS: 'https://blog.example', SITE_URL: 'https://blog.example' }),
  ),
  allRouteKeys,
);
const get = (path: string, method = 'GET') =>
  handler(buildEvent({ method, path, ...(method === 'GET' ? {} : { body: {} }) }), testContext);

describe('the sign-in, profile and moderation pages', () => {
  it('serves /ui/login with a nonce-only script policy that no other site can frame', async () => {
    const response = await get('/ui/login');
    const policy = response.headers['content-security-policy'] ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(nonce).toBeTruthy();
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.body).toContain(`<script nonce="${nonce}">`);
    expect(response.body).toContain(
      '{"allowedOrigins":["https://blog.example"],"siteUrl":"https://blog.example"}',
    );
    expect(response.body).toContain("type: 'userInfo'");
  });

  it('serves /ui/login with no way to consent to an unconfigured site, only the notice of what to set', async () => {
    const response = await get('/ui/login');

    expect(response.body).not.toMatch(/name="confirm"|I trust this site/);
    expect(response.body).toContain('<div id="refused" class="card" role="alert" hidden>');
    expect(response.body).toMatch(/set <code>SITE_URL<\/code>.*<code>ALLOWED_ORIGINS<\/code>/);
  });

  it('serves /ui/users as /ui: a nonce-only policy, never framed, no inline HTML from accounts, the list API', async () => {
    const first = await get('/ui/users');
    const second = await get('/ui/users');
    const policy = first.headers['content-security-policy'] ?? '';

    expect(first.statusCode).toBe(200);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toBe(second.headers['content-security-policy']);
    expect(first.body).not.toContain('innerHTML');
    expect(first.body).toContain("api('user?page='");
    expect((await get('/ui/users', 'POST')).statusCode).toBe(405);
  });

  it('serves /ui/my-data: a nonce-only policy, never framed, the request form, and the link page that clears its token', async () => {
    const response = await get('/ui/my-data');
    const policy = response.headers['content-security-policy'] ?? '';

    expect(response.statusCode).toBe(200);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(response.body).not.toContain('innerHTML');
    expect(response.body).toContain("send('POST', 'my-data'");
    expect(response.body).toContain("history.replaceState(null, '', location.pathname)");
    expect(response.body).toContain('confirm(');
    expect((await get('/ui/my-data', 'POST')).statusCode).toBe(405);
  });

  it('gives signed-in readers their data on /ui/profile and administrators the requests on /ui', async () => {
    const profile = await get('/ui/profile');
    const moderation = await get('/ui');

    expect(profile.body).toContain('<h3>Your data</h3>');
    expect(profile.body).toContain("eraseMyData('Bearer ' + token)");
    expect(moderation.body).toContain("api('my-data/log')");
  });

  it('serves /ui with a fresh nonce per response and no inline HTML from comments', async () => {
    const first = await get('/ui');
    const second = await get('/ui');

    expect(first.statusCode).toBe(200);
    expect(first.headers['content-security-policy']).not.toBe(second.headers['content-security-policy']);
    expect(first.body).not.toContain('innerHTML');
  });

  it('serves /ui/profile like /ui/login: nonce-only scripts, never framed, no Referer, the configured sites', async () => {
    const response = await get('/ui/profile');
    const policy = response.headers['content-security-policy'] ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];

    expect(response.statusCode).toBe(200);
    expect(nonce).toBeTruthy();
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.body).toContain(`<script nonce="${nonce}">`);
    expect(response.body).toContain(
      '{"allowedOrigins":["https://blog.example"],"siteUrl":"https://blog.example"}',
    );
    // The widget's message, posted to each configured origin, never to `*`.
    expect(response.body).toContain("postMessage({ type: 'profile', data }, origin)");
    expect(response.body).not.toMatch(/postMessage\([^)]*'\*'\)/);
  });

  it('serves /ui/profile with the token taken out of the address and nothing of it in the HTML', async () => {
    const token = '"><script>alert(1)</script>';
    const response = await handler(
      buildEvent({ path: '/ui/profile', query: `lng=en&token=${encodeURIComponent(token)}` }),
      testContext,
    );

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("params.delete('token')");
    expect(response.body).toContain('history.replaceState(');
    expect(response.body).not.toContain('alert(1)');
    // What the account holds is written as text by the script: nothing is parsed as HTML.
    expect(response.body).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it('serves /ui/profile with its notices: how to sign in or register, and what to configure', async () => {
    const response = await get('/ui/profile');

    expect(response.body).toContain('<div id="unsigned" class="card" role="alert" hidden>');
    expect(response.body).toContain('You are not signed in.');
    expect(response.body).toContain('<a href="register">create an account</a>');
    // And, for an opener on a site the server does not know, what to configure.
    expect(response.body).toContain('<div id="unknown-opener" class="card" role="alert" hidden>');
    expect(response.body).toMatch(/set <code>SITE_URL<\/code>.*<code>ALLOWED_ORIGINS<\/code>/);
  });

  it('offers passkeys on /ui/login and /ui/profile from the page script itself, with no script source added', async () => {
    const [login, profile] = await Promise.all([get('/ui/login'), get('/ui/profile')]);

    for (const page of [login, profile]) {
      expect(page.body).toContain('navigator.credentials');
      expect(page.body.match(/<script nonce=/g)).toHaveLength(1);
      expect(page.body).not.toMatch(/<script[^>]*\bsrc=/);
      expect(page.headers['content-security-policy']).toMatch(/script-src 'nonce-[^' ]+';/);
    }
    expect(login.body).toContain('Use a passkey');
    expect(login.body).toContain("'token/passkey/options'");
    expect(profile.body).toContain('<section id="passkeys"');
    expect(profile.body).toContain("'passkey/options'");
  });

  it('answers /api/ui with 404 and a POST to the pages with 405', async () => {
    expect((await get('/api/ui/login')).statusCode).toBe(404);
    expect((await get('/ui/login', 'POST')).statusCode).toBe(405);
    expect((await get('/ui/profile', 'PUT')).statusCode).toBe(405);
    expect((await get('/ui/elsewhere')).statusCode).toBe(404);
  });

  it('embeds settings so that no value can close the script element', () => {
    expect(embedJson({ siteUrl: '</script><script>alert(1)</script>' })).not.toContain('</script>');
  });

  describe('/ui/login with a captcha site key', () => {
    const loginWith = (env: Record<string, string>) =>
      createCommentHandler(createCommentDependencies(testConfig(env)), allRouteKeys)(
        buildEvent({ method: 'GET', path: '/ui/login' }),
        testContext,
      );

    it("loads Turnstile's script with the page's nonce and lets Cloudflare's scripts and frames in, this page only", async () => {
      const response = await loginWith({ TURNSTILE_KEY: '0x4AAAAAAAtest', RECAPTCHA_V3_KEY: '6Lctest' });
      const policy = response.headers['content-security-policy'] ?? '';
      const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];

      expect(policy).toContain(`script-src 'nonce-${nonce}' https://challenges.cloudflare.com;`);
      expect(policy).toContain('frame-src https://challenges.cloudflare.com;');
      expect(response.body).toContain(
        `<script nonce="${nonce}" src="https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit" async></script>`,
      );
      expect(response.body).toContain('<div id="captcha"></div>');
      expect(response.body).toContain(
        '<script type="application/json" id="captcha-settings">{"field":"turnstile","key":"0x4AAAAAAAtest"}</script>',
      );
      const profile = await get('/ui/profile');
      expect(profile.headers['content-security-policy']).not.toContain('cloudflare');
    });

    it("loads reCAPTCHA v3's script from recaptcha.net with the site key when only its key is set", async () => {
      const response = await loginWith({ RECAPTCHA_V3_KEY: '6Lc-test_key' });
      const policy = response.headers['content-security-policy'] ?? '';

      expect(response.body).toContain('src="https://recaptcha.net/recaptcha/api.js?render=6Lc-test_key"');
      expect(policy).toContain('https://www.gstatic.com/recaptcha/');
      expect(policy).toContain('frame-src https://recaptcha.net https://www.recaptcha.net');
      expect(response.body).not.toContain('<div id="captcha">');
    });

    it('loads no third-party script and allows no frame without a site key', async () => {
      const response = await get('/ui/login');
      const policy = response.headers['content-security-policy'] ?? '';

      expect(policy).not.toMatch(/frame-src|cloudflare|recaptcha/);
      expect(response.body).not.toMatch(/<script[^>]* src=/);
      expect(response.body).toContain('<script type="application/json" id="captcha-settings">null</script>');
    });
  });
});
