import { githubProvider } from '../../functions/comment/github-sign-in.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { type FakeGithub, startFakeGithub } from '../support/fake-github.js';
import { type GuardedContext, openGuardedContext, saveFailureScreenshot } from './support/browser.js';
import { openHarness } from './support/harness.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

/**
 * A reader signs in with GitHub from the unmodified v3 widget: its login button opens /ui/login in a popup, whose
 * "Sign in with GitHub" button takes the popup to (a fake) GitHub and back to the callback, whose page posts the
 * user to the widget and closes: the cookie, the flow and the hand-off in a real browser.
 */
describe('sign-in with GitHub, through the real widget (v3)', () => {
  let github: FakeGithub;
  let server: WidgetServer;
  let browser: Browser;
  let opened: GuardedContext | undefined;
  const popupErrors: string[] = [];

  beforeAll(async () => {
    github = await startFakeGithub('github-client', 'github-secret-0123456789');
    [server, browser] = await Promise.all([
      startWidgetServer({
        JWT_TOKEN: 'j'.repeat(48),
        GITHUB_CLIENT_ID: 'github-client',
        GITHUB_CLIENT_SECRET: 'github-secret-0123456789',
        GITHUB_URL: github.url,
        GITHUB_API_URL: github.url,
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await github?.close();
  });
  afterEach(async ({ task }) => {
    if (opened && task.result?.state === 'fail') {
      for (const [i, page] of opened.context.pages().entries())
        await saveFailureScreenshot(page, `github-sign-in ${task.name} ${i}`).catch(() => {});
    }
    await opened?.context.close();
    opened = undefined;
  });

  const popupOf = async (page: Page, click: () => Promise<void>) => {
    const popup = page.waitForEvent('popup');
    await click();
    return popup;
  };

  it('signs the reader in from the login popup, and the widget shows them signed in', async () => {
    github.signInAs({
      id: 9001,
      login: 'gina',
      name: 'Gina Hub',
      emails: [{ email: 'gina@example.test', primary: true, verified: true }],
    });
    opened = await openGuardedContext(browser);
    const { context, page } = opened;
    context.on('page', (popup) => popup.on('pageerror', (error) => popupErrors.push(error.message)));
    await openHarness(page, server.base, 'v3', { path: '/github-sign-in', login: true });

    const loginButton = page.getByRole('button', { name: /login/i }).first();
    const popup = await popupOf(page, () => loginButton.click());
    await popup.waitForURL((url) => url.pathname === '/ui/login');
    // Listened for before the click: the hops (the fake GitHub, the callback, the hand-off) can close the popup
    // before the click's own wait returns.
    const closed = popup.waitForEvent('close', { timeout: 20_000 });
    await popup.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await closed;

    const signedInAs = page.locator('a.wl-login-nick', { hasText: /\S/ });
    await expect.poll(() => signedInAs.textContent()).toBe('Gina Hub');
    const stored = JSON.parse(
      (await page.evaluate<string | null>("localStorage.getItem('WALINE_USER')")) ?? 'null',
    ) as { objectId?: string } | null;
    expect(stored?.objectId).toBe(
      (await server.services.accounts.findByIdentity(githubProvider(github.url), '9001'))?.id,
    );
    expect(popupErrors).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
  });
});
