import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { hashPassword } from '../../functions/shared/auth/password.js';
import { totpCodeAt, totpStep } from '../../functions/shared/auth/totp.js';
import { type GuardedContext, openGuardedContext, saveFailureScreenshot } from './support/browser.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

const password = 'correct horse battery staple';
const reader = { id: '01TWOFACTORBROWSERTEST000A', email: 'reader@example.com' };

describe('two-factor sign-in on the profile and login pages', () => {
  let server: WidgetServer;
  let browser: Browser;
  let opened: GuardedContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startWidgetServer({ JWT_TOKEN: 'j'.repeat(48) }),
      launchChromium(),
    ]);
    await server.services.accounts.create({
      ...reader,
      displayName: 'Reader',
      type: 'guest',
      state: 'active',
      passwordHash: await hashPassword(password),
      sessionVersion: 0,
      createdAt: 0,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      for (const { page } of opened)
        await saveFailureScreenshot(page, `two-factor ${task.name}`).catch(() => {});
    }
    for (const { context } of opened) await context.close();
    opened = [];
  });

  it('enrols from the profile (QR and key once, recovery codes once), then the login page asks for a code', async () => {
    const guarded = await openGuardedContext(browser);
    opened.push(guarded);
    const { page, blocked, pageErrors } = guarded;
    const signedIn = (await server.api('POST', '/api/token', { email: reader.email, password })) as {
      data: { token: string };
    };

    await page.goto(`${server.base}/ui/profile?lng=en&token=${signedIn.data.token}`);
    await page.locator('#name').waitFor();
    await page.getByRole('button', { name: /two-factor/i }).click();
    const key = page.locator('#two-factor-secret');
    await expect.poll(() => key.textContent()).toMatch(/^[A-Z2-7]{32}$/);
    const secret = (await key.textContent())!;
    expect(await page.locator('#two-factor-qr').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    // The QR is an image the page's policy lets in, and it rendered.
    expect(
      await page
        .locator('#two-factor-qr')
        .evaluate((image) => (image as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);

    await page.locator('#two-factor-enrol input[name=code]').fill(totpCodeAt(secret, totpStep(Date.now())));
    await page.locator('#two-factor-enrol input[name=password]').fill(password);
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const codes = page.locator('#two-factor-code-list li');
    await expect.poll(() => codes.count()).toBe(10);
    const recoveryCode = (await codes.nth(0).textContent())!;
    // The key is gone from the page once it served.
    expect(await key.textContent()).toBe('');

    // The login page: the password alone is answered with a request for the code, which then signs in.
    await page.goto(`${server.base}/ui/login`);
    await page.locator('input[name=email]').fill(reader.email);
    await page.locator('input[name=password]').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const code = page.locator('input[name=code]');
    await code.waitFor({ state: 'visible' });
    expect(await page.locator('#error').textContent()).toMatch(/^code:/);
    await code.fill(recoveryCode);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.base}/ui`);
    expect([...blocked, ...pageErrors]).toEqual([]);
  });
});
