import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../functions/shared/auth/password.js';
import { launchChromium } from '../../scripts/chromium.js';
import { createLocalSite } from '../../scripts/local-site.js';
import {
  type FakeCaptchaVerifier,
  startFakeCaptchaVerifier,
  turnstilePass,
} from '../support/fake-captcha-verifier.js';
import { type GuardedContext, openGuardedContext, saveFailureScreenshot } from './support/browser.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';
import { WidgetPage } from './support/widget-page.js';

const admin = { email: 'admin@example.com', password: 'correct horse battery staple' };
const siteKey = '0x4AAAAAAAbrowsertest';

/**
 * Turnstile's script as the browser gets it here: the real one lives on challenges.cloudflare.com, which the
 * tests never reach. It renders nothing and solves at once, recording what each render asked for.
 */
const fakeTurnstile = `
window.renders = [];
window.tokens = [];
window.turnstile = {
  ready: (callback) => callback(),
  render: (container, options) => {
    window.renders.push({ sitekey: options.sitekey, action: options.action });
    // A token of its own on every page: one used before would be refused.
    const token = 'browser-token-' + crypto.randomUUID();
    window.tokens.push(token);
    setTimeout(() => options.callback(token), 0);
    return 'widget';
  },
  reset: () => {},
};`;

describe('the captcha in the browser: the real widget and the sign-in page with Turnstile', () => {
  let server: WidgetServer;
  let browser: Browser;
  let verifier: FakeCaptchaVerifier;
  let opened: GuardedContext | undefined;

  beforeAll(async () => {
    verifier = await startFakeCaptchaVerifier();
    [server, browser] = await Promise.all([
      startWidgetServer(
        {
          JWT_TOKEN: 'j'.repeat(48),
          ALLOWED_ORIGINS: 'https://blog.example',
          TURNSTILE_SECRET: 'turnstile-secret',
          TURNSTILE_KEY: siteKey,
          TURNSTILE_VERIFY_URL: verifier.turnstileUrl,
        },
        { site: createLocalSite({ captcha: { field: 'turnstile', key: siteKey } }) },
      ),
      launchChromium(),
    ]);
    await server.services.accounts.create({
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      id: '01ADMINCAPTCHATEST00000000',
      email: admin.email,
      displayName: 'Site Admin',
      passwordHash: await hashPassword(admin.password),
      createdAt: 0,
    });
    // The pages are on 127.0.0.1: the provider names the host the challenge was solved on.
    verifier.answerWith(turnstilePass('127.0.0.1'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await verifier?.close();
  });
  afterEach(async ({ task }) => {
    if (opened && task.result?.state === 'fail') {
      await saveFailureScreenshot(opened.page, `captcha ${task.name}`).catch(() => {});
    }
    await opened?.context.close();
    opened = undefined;
  });

  const open = async () => {
    opened = await openGuardedContext(browser);
    await opened.context.route('https://challenges.cloudflare.com/turnstile/v0/api.js*', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: fakeTurnstile }),
    );
    return opened;
  };

  it("posts a comment from the demo's widget with the Turnstile token, which the server verifies", async () => {
    const { page, blocked, pageErrors, dialogs } = await open();
    const widget = new WidgetPage(page);
    await widget.load(() => page.goto(`${server.base}/`));
    const asked = verifier.questions.length;

    await widget.post('Ann', 'verified by a captcha');
    const [token] = (await page.evaluate('window.tokens')) as string[];

    await expect.poll(() => widget.rootTexts()).toContain('verified by a captcha');
    expect(await page.evaluate('window.renders')).toEqual([{ sitekey: siteKey, action: 'social' }]);
    expect(verifier.questions.slice(asked)).toEqual([
      {
        path: '/turnstile',
        form: { secret: 'turnstile-secret', response: token, remoteip: '127.0.0.1' },
      },
    ]);
    expect({ blocked, pageErrors, dialogs }).toEqual({ blocked: [], pageErrors: [], dialogs: [] });
  });

  it('signs in from /ui/login with the token of the challenge it shows', async () => {
    const { page, blocked, pageErrors } = await open();
    await page.goto(`${server.base}/ui/login`);
    await expect
      .poll(() => page.evaluate('window.renders'))
      .toEqual([{ sitekey: siteKey, action: 'social' }]);
    await expect.poll(() => page.evaluate('window.tokens.length')).toBe(1);
    const [token] = (await page.evaluate('window.tokens')) as string[];
    const asked = verifier.questions.length;

    await page.fill('input[name=email]', admin.email);
    await page.fill('input[name=password]', admin.password);
    await page.click('button[type=submit]');

    // The password check (scrypt) and the next page take a while on a loaded machine.
    await expect.poll(() => page.url(), { timeout: 15_000 }).toBe(`${server.base}/ui`);
    expect(verifier.questions.slice(asked).map(({ form }) => form.response)).toEqual([token]);
    expect({ blocked, pageErrors }).toEqual({ blocked: [], pageErrors: [] });
  });
});
