import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { hashPassword } from '../../functions/shared/auth/password.js';
import { saveFailureScreenshot } from './support/browser.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

const admin = { email: 'admin@example.com', password: 'correct horse battery staple' };

describe('the notification log in /ui', () => {
  let server: WidgetServer;
  let browser: Browser;
  let token: string;
  let opened: Array<{ context: BrowserContext; page: Page }> = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startWidgetServer({ JWT_TOKEN: 'j'.repeat(48) }),
      launchChromium(),
    ]);
    await server.services.accounts.create({
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      id: '01ADMINNOTIFYBROWSER00000A',
      email: admin.email,
      displayName: 'Site Admin',
      passwordHash: await hashPassword(admin.password),
      createdAt: 0,
    });
    token = ((await server.api('POST', '/api/token', admin)) as { data: { token: string } }).data.token;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      for (const { page } of opened)
        await saveFailureScreenshot(page, `notifications ${task.name}`).catch(() => {});
    }
    for (const { context } of opened) await context.close();
    opened = [];
  });

  /** /ui signed in (as /ui/login leaves it), reaching only the server; page errors are collected. */
  async function openUi(prepare?: (page: Page) => Promise<void>) {
    const context = await browser.newContext({ locale: 'en-US' });
    context.setDefaultTimeout(8_000);
    const page = await context.newPage();
    opened.push({ context, page });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.addInitScript(`sessionStorage.setItem('MARGINALIA_TOKEN', ${JSON.stringify(token)})`);
    await prepare?.(page);
    await page.goto(`${server.base}/ui`);
    return { page, problems, log: page.locator('#log') };
  }

  it("lists a comment's notification, sends a test mail and re-drives the pending test event", async () => {
    const path = `/notify-ui-${Date.now()}`;
    await server.api('POST', '/api/comment', { url: path, nick: 'Ann', comment: 'Hello' }, '127.0.0.21');

    const { page, problems, log } = await openUi();
    await log.locator('li.event', { hasText: path }).waitFor();
    await page.getByRole('button', { name: 'Send a test mail' }).click();
    const test = log.locator('li.event', { hasText: ' · test · ' });
    await test.waitFor();
    expect(await page.locator('#notify-result').textContent()).toMatch(/^Test mail \w{26} queued/);
    const id = /\b([0-9A-Z]{26})$/.exec((await test.locator('.head').textContent()) ?? '')?.[1];

    await test.getByRole('button', { name: 'Re-drive' }).click();
    await page.locator('#notify-result', { hasText: 'handed to the sender again' }).waitFor();

    expect(await page.locator('#notify-result').textContent()).toBe(
      `Notification ${id} handed to the sender again.`,
    );
    expect(problems).toEqual([]);
  });

  it('shows every field of the log as text, and offers a re-drive only for what was not sent', async () => {
    const markup = '<img src="x" onerror="window.__pwned = 1">';
    const event = (id: string, state: string) => ({
      id,
      cause: 'comment.submitted',
      at: Date.UTC(2026, 10, 25, 12),
      state,
      attempts: 3,
      lastError: `smtp ${markup}`,
      comment: { url: `/p/${markup}`, id: '01C', status: 'approved', byAdmin: false },
      ...(state === 'failed' ? { gaveUp: true } : {}),
      deliveries: [
        { recipient: 'parent', state, attempts: 3, lastError: `550 ${markup}`, updatedAt: 0 },
        ...(state === 'failed'
          ? [{ recipient: 'webhook', state, attempts: 1, retryAt: Date.UTC(2026, 10, 25, 13), updatedAt: 0 }]
          : []),
      ],
    });
    const redrives: unknown[] = [];
    const { page, problems, log } = await openUi(async (page) => {
      await page.route(`${server.base}/api/notification?**`, (route) =>
        route.fulfill({
          json: {
            errno: 0,
            errmsg: '',
            data: {
              days: 7,
              limit: 50,
              data: [
                event('01KFAILED0000000000000000A', 'failed'),
                event('01KSENT00000000000000000A', 'sent'),
              ],
            },
          },
        }),
      );
      await page.route(`${server.base}/api/notification`, (route) => {
        redrives.push(route.request().postDataJSON());
        return route.fulfill({ json: { errno: 0, errmsg: '', data: { id: '01KFAILED0000000000000000A' } } });
      });
    });

    const failed = log.locator('li.event', { hasText: '01KFAILED' });
    const sent = log.locator('li.event', { hasText: '01KSENT' });
    await failed.waitFor();
    await page.waitForLoadState('networkidle');

    expect(await failed.textContent()).toContain(`Last error: smtp ${markup}`);
    expect(await failed.textContent()).toContain(`parent: failed · 3 attempts · 550 ${markup}`);
    // A delivery waiting for its next try says when; an event given up says so.
    expect(await failed.textContent()).toMatch(/webhook: failed · 1 attempt · next try \S/);
    expect(await failed.textContent()).toContain('3 attempts · given up (re-drive to try again)');
    expect(await failed.textContent()).toContain(`on /p/${markup}`);
    expect(await log.locator('img').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await sent.getByRole('button').count()).toBe(0);

    await failed.getByRole('button', { name: 'Re-drive' }).click();
    await page.locator('#notify-result', { hasText: 'handed to the sender again' }).waitFor();

    expect(redrives).toEqual([{ action: 'redrive', id: '01KFAILED0000000000000000A' }]);
    expect(problems).toEqual([]);
  });
});
