import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { hashPassword } from '../../functions/shared/auth/password.js';
import { type GuardedContext, openGuardedContext, saveFailureScreenshot } from './support/browser.js';
import { openHarness } from './support/harness.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

const password = 'correct horse battery staple';
/** One administrator per test: the tests run in any order, and one changes its password. */
const renamed = { id: '01ADMINPROFILETEST0000000A', email: 'renamed@example.com' };
const rotated = { id: '01ADMINPROFILETEST0000000B', email: 'rotated@example.com' };

/**
 * The widget's own error on each `profile` message: @waline/client 3.13.0 merges the message into its user
 * (a localStorage-backed ref, so it is stored), then calls `JSON.stringify(ref)` instead of
 * `JSON.stringify(ref.value)` and throws. Waline's admin page meets the same. Any other error fails a test.
 */
const widgetsOwnError = /^Converting circular structure to JSON/;
const unexpected = (errors: readonly string[]) => errors.filter((error) => !widgetsOwnError.test(error));

describe('the profile page, opened from the real widget (v3)', () => {
  let server: WidgetServer;
  let browser: Browser;
  let opened: GuardedContext[] = [];
  /** Errors thrown by the popups' scripts (openGuardedContext watches only its first page). */
  let popupErrors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startWidgetServer({ JWT_TOKEN: 'j'.repeat(48) }),
      launchChromium(),
    ]);
    const passwordHash = await hashPassword(password);
    for (const account of [renamed, rotated]) {
      await server.services.accounts.create({
        type: 'administrator',
        state: 'active',
        sessionVersion: 0,
        ...account,
        displayName: 'Site Admin',
        passwordHash,
        createdAt: 0,
      });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      for (const { context } of opened) {
        for (const [i, page] of context.pages().entries())
          await saveFailureScreenshot(page, `profile ${task.name} ${i}`).catch(() => {});
      }
    }
    for (const { context } of opened) await context.close();
    opened = [];
    popupErrors = [];
  });

  const open = async () => {
    const guarded = await openGuardedContext(browser);
    opened.push(guarded);
    guarded.context.on('page', (page) => page.on('pageerror', (error) => popupErrors.push(error.message)));
    return guarded;
  };
  /** Waits for the popup `click` opens. */
  const popupOf = async (page: Page, click: () => Promise<void>) => {
    const popup = page.waitForEvent('popup');
    await click();
    return popup;
  };
  /** Opens the widget on a new path and signs `email` in through its login button and /ui/login. */
  const signInThroughWidget = async (page: Page, email: string) => {
    await openHarness(page, server.base, 'v3', { path: `/profile-${Date.now()}`, login: true });
    const login = await popupOf(page, () => page.getByRole('button', { name: /login/i }).first().click());
    await login.locator('input[name=email]').fill(email);
    await login.locator('input[name=password]').fill(password);
    await login.getByRole('button', { name: 'Sign in' }).click();
    await login.waitForEvent('close');
    // The widget shows the user as two links to the profile: the avatar, and the name.
    return page.locator('a.wl-login-nick', { hasText: /\S/ });
  };

  it('signs in through the widget, renames the administrator from the avatar, and the widget shows the new name', async () => {
    const { page, blocked, pageErrors } = await open();
    const nick = await signInThroughWidget(page, renamed.email);
    await expect.poll(() => nick.textContent()).toBe('Site Admin');

    // The widget opens /ui/profile?lng=..&token=.. from the avatar, as from the name.
    const profile = await popupOf(page, () => page.locator('a.wl-login-nick:has(img)').click());
    await expect.poll(() => profile.locator('#name').textContent()).toBe('Site Admin');
    expect(await profile.locator('#email').textContent()).toBe(renamed.email);
    const address = new URL(profile.url());
    expect(address.pathname).toBe('/ui/profile');
    expect(address.searchParams.has('token')).toBe(false);
    expect(address.searchParams.get('lng')).toBeTruthy();

    await profile.locator('input[name=display_name]').fill('Renamed Admin');
    await profile.locator('input[name=url]').fill('https://admin.example/');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(() => profile.locator('#status').textContent()).toBe('Profile saved.');

    // The `profile` message: the widget shows the new name without a reload.
    await expect.poll(() => nick.textContent()).toBe('Renamed Admin');
    expect(await profile.locator('#name').textContent()).toBe('Renamed Admin');
    expect(await server.services.accounts.findByEmail(renamed.email)).toMatchObject({
      displayName: 'Renamed Admin',
      link: 'https://admin.example/',
    });
    // The widget stored it too: a reload shows the new name.
    await page.reload();
    await expect.poll(() => nick.textContent()).toBe('Renamed Admin');
    expect(pageErrors.filter((error) => widgetsOwnError.test(error))).toHaveLength(1);
    expect([...blocked, ...unexpected(pageErrors), ...popupErrors]).toEqual([]);
  });

  it('hands the widget the new token after a password change, so it still posts as the administrator', async () => {
    const { page, pageErrors } = await open();
    const nick = await signInThroughWidget(page, rotated.email);
    await nick.waitFor();

    const profile = await popupOf(page, () => nick.click());
    await profile.locator('#name').waitFor();
    const newPassword = 'a different staple of horses';
    // The password form's own fields: the two-factor section has a password field too.
    const form = profile.locator('form', { has: profile.getByRole('button', { name: 'Change password' }) });
    await form.locator('input[name=current]').fill(password);
    await form.locator('input[name=password]').fill(newPassword);
    await form.locator('input[name=confirm]').fill(newPassword);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => profile.locator('#status').textContent()).toMatch(/^Password changed/);
    // The page keeps working with the token it got back.
    await profile.locator('input[name=display_name]').fill('Rotated Admin');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(() => profile.locator('#status').textContent()).toBe('Profile saved.');
    await profile.close();
    // The widget stored the new token: it holds after a reload.
    await page.reload();
    await expect.poll(() => nick.textContent()).toBe('Rotated Admin');

    // A token from before the change would make the post anonymous, and an anonymous post with the
    // administrator's address is refused: the post below only succeeds with the new token.
    const posted = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().includes('/api/comment'),
    );
    await page.locator('[data-waline] > .wl-comment .wl-editor').fill('posted after a new password');
    await page.locator('[data-waline] > .wl-comment .wl-btn.primary').click();
    const answer = (await (await posted).json()) as { errno: number; data: { type?: string; nick: string } };
    expect(answer).toMatchObject({ errno: 0, data: { type: 'administrator', nick: 'Rotated Admin' } });
    expect((await server.services.accounts.findByEmail(rotated.email))?.sessionVersion).toBe(1);
    expect([...unexpected(pageErrors), ...popupErrors]).toEqual([]);
  });

  it('tells no opener on an origin the server is not configured for, and says what to set', async () => {
    const { page, pageErrors } = await open();
    const signedIn = (await server.api('POST', '/api/token', { email: renamed.email, password })) as {
      data: { token: string };
    };
    // Another origin than the server's (localhost, not 127.0.0.1), under the defaults: ALLOWED_ORIGINS `*`
    // and no SITE_URL.
    const opener = `${server.base.replace('127.0.0.1', 'localhost')}/opener.html`;
    await page.route(opener, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<script>window.received = []; addEventListener("message", (e) => received.push(e.data));</script>',
      }),
    );
    await page.goto(opener);

    const profile = await popupOf(page, async () => {
      await page.evaluate(
        `void window.open(${JSON.stringify(`${server.base}/ui/profile?lng=en&token=${signedIn.data.token}`)}, '_blank', 'width=800,height=800')`,
      );
    });
    await profile.locator('#name').waitFor();
    expect(await profile.locator('#unknown-site').textContent()).toBe(new URL(opener).origin);
    expect(await profile.locator('#unknown-opener').innerText()).toMatch(/SITE_URL.*ALLOWED_ORIGINS/s);
    // The change is saved, and told to nobody.
    await profile.locator('input[name=url]').fill('https://elsewhere.example/');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(() => profile.locator('#status').textContent()).toBe('Profile saved.');
    expect((await server.services.accounts.findByEmail(renamed.email))?.link).toBe(
      'https://elsewhere.example/',
    );
    expect(await page.evaluate('window.received')).toEqual([]);
    expect([...pageErrors, ...popupErrors]).toEqual([]);
  });

  it('tells a visitor without a token how to sign in or register', async () => {
    const { page, blocked, pageErrors } = await open();

    for (const url of ['/ui/profile', '/ui/profile?lng=en&token=not.a.token']) {
      await page.goto(`${server.base}${url}`);
      const notice = page.locator('#unsigned');
      await notice.waitFor();
      expect(await notice.innerText()).toContain('You are not signed in.');
      expect(await page.locator('#profile').isVisible()).toBe(false);
      expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    }
    expect([...blocked, ...pageErrors]).toEqual([]);
  });
});
