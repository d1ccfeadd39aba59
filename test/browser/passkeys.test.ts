import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { hashPassword } from '../../functions/shared/auth/password.js';
import { type GuardedContext, openGuardedContext, saveFailureScreenshot } from './support/browser.js';
import { openHarness } from './support/harness.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

const password = 'correct horse battery staple';
const reader = {
  id: '01PASSKEYBROWSERTEST00000A',
  email: 'passkey-reader@example.com',
  name: 'Petra Passkey',
};

/**
 * A virtual authenticator in `page` (Chrome DevTools' WebAuthn domain, through Playwright's public CDP session):
 * CTAP2 on the internal transport, with resident keys and user verification that always succeeds.
 */
async function virtualAuthenticator(page: Page): Promise<{ session: CDPSession; authenticatorId: string }> {
  const session = await page.context().newCDPSession(page);
  await session.send('WebAuthn.enable');
  const { authenticatorId } = await session.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { session, authenticatorId };
}

/**
 * A reader adds a passkey on /ui/profile, signs out, signs in with the passkey alone from the widget's login popup,
 * and removes it. WebAuthn needs a secure context and a domain RP ID: the pages load from `http://localhost`.
 */
describe('passkeys in Chromium with a virtual authenticator', () => {
  let server: WidgetServer;
  let browser: Browser;
  let opened: GuardedContext | undefined;
  const popupErrors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startWidgetServer({ JWT_TOKEN: 'j'.repeat(48) }),
      launchChromium(),
    ]);
    await server.services.accounts.create({
      id: reader.id,
      email: reader.email,
      displayName: reader.name,
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
    if (task.result?.state === 'fail' && opened) {
      for (const [i, page] of opened.context.pages().entries())
        await saveFailureScreenshot(page, `passkeys ${task.name} ${i}`).catch(() => {});
    }
    await opened?.context.close();
    opened = undefined;
  });

  it('adds a passkey on the profile, signs in with it alone from the widget, and removes it', async () => {
    opened = await openGuardedContext(browser);
    const { context, page, blocked, pageErrors } = opened;
    context.on('page', (popup) => popup.on('pageerror', (error) => popupErrors.push(error.message)));
    const base = server.base.replace('127.0.0.1', 'localhost');
    const signedIn = (await server.api('POST', '/api/token', { email: reader.email, password })) as {
      data: { token: string };
    };

    // 1. Add a passkey on the profile, after the current password.
    const profileAuthenticator = await virtualAuthenticator(page);
    await page.goto(`${base}/ui/profile?lng=en&token=${signedIn.data.token}`);
    await page.locator('#name').waitFor();
    await page.locator('#passkey-add input[name=name]').fill('Virtual key');
    await page.locator('#passkey-add input[name=password]').fill(password);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.locator('#passkey-status').textContent()).toMatch(/^Passkey added/);
    await expect.poll(() => page.locator('#passkey-list li').count()).toBe(1);
    expect(await page.locator('#passkey-list li').innerText()).toMatch(
      /Virtual key added .* last used never/,
    );
    const stored = await server.services.passkeys.list(reader.id);
    expect(stored).toHaveLength(1);
    const { credentials } = await profileAuthenticator.session.send('WebAuthn.getCredentials', {
      authenticatorId: profileAuthenticator.authenticatorId,
    });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    expect(Buffer.from(credentials[0]!.userHandle!, 'base64').toString('utf8')).toBe(reader.id);

    // 2. Signed out, the widget's login popup signs in with the passkey alone: no address, no password.
    await openHarness(page, base, 'v3', { path: '/passkey-article', login: true });
    const loginButton = page.getByRole('button', { name: /login/i }).first();
    const popupOpened = page.waitForEvent('popup');
    await loginButton.click();
    const login = await popupOpened;
    await login.waitForURL((url) => url.pathname === '/ui/login');
    // The popup is a page of its own: its authenticator holds the same credential, as a synced passkey would.
    const popupAuthenticator = await virtualAuthenticator(login);
    await popupAuthenticator.session.send('WebAuthn.addCredential', {
      authenticatorId: popupAuthenticator.authenticatorId,
      credential: credentials[0]!,
    });
    // Listened for before the click: the sign-in can close the popup before the click's own wait returns.
    const closed = login.waitForEvent('close');
    await login.getByRole('button', { name: 'Use a passkey' }).click();
    await closed;
    const signedInAs = page.locator('a.wl-login-nick', { hasText: /\S/ });
    await expect.poll(() => signedInAs.textContent()).toBe(reader.name);
    const user = JSON.parse(
      (await page.evaluate<string | null>("localStorage.getItem('WALINE_USER')")) ?? 'null',
    ) as { objectId?: string; token?: string } | null;
    expect(user?.objectId).toBe(reader.id);
    expect((await server.services.passkeys.list(reader.id))[0]?.lastUsedAt).toEqual(expect.any(Number));

    // 3. Remove it on the profile (the password again): it signs in no more.
    await page.goto(`${base}/ui/profile?lng=en&token=${user?.token ?? ''}`);
    await page.locator('#passkey-list li').waitFor();
    await page.locator('#passkey-add input[name=password]').fill(password);
    await page.getByRole('button', { name: 'Remove passkey Virtual key' }).click();
    await expect.poll(() => page.locator('#passkey-status').textContent()).toBe('Passkey removed.');
    await expect.poll(() => page.locator('#passkey-list li').count()).toBe(0);
    expect(await server.services.passkeys.list(reader.id)).toEqual([]);
    await page.goto(`${base}/ui/login`);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect.poll(() => page.locator('#error').textContent()).toMatch(/not accepted/);

    expect([...blocked, ...pageErrors, ...popupErrors]).toEqual([]);
  });
});
