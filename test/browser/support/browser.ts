import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Where a failing test leaves its screenshot (git-ignored). */
export const failureScreenshotDir = join(import.meta.dirname, '..', '..', '..', 'test-results', 'browser');

/** A browser context that may reach only 127.0.0.1 and localhost, and lists every request it refused. */
export interface GuardedContext {
  readonly context: BrowserContext;
  readonly page: Page;
  /** URLs the page tried to load from anywhere else; a test expects this to stay empty. */
  readonly blocked: string[];
  /** Errors thrown by the page's scripts. */
  readonly pageErrors: string[];
  /** Messages of alert, confirm and prompt dialogs the page opened (each is dismissed at once). */
  readonly dialogs: string[];
}

/** Opens a fresh context (empty localStorage) and page whose requests off this machine are aborted. */
export async function openGuardedContext(browser: Browser): Promise<GuardedContext> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, locale: 'en-US' });
  const blocked: string[] = [];
  const pageErrors: string[] = [];
  const dialogs: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') return route.continue();
    blocked.push(url.href);
    return route.abort('blockedbyclient');
  });
  // Waits are on DOM state and on the local server's answers. Ten seconds, as expect.poll's (vitest.config.ts): a
  // post (rendered, written to DynamoDB Local with its stream) once took over five on a 2-core host running another
  // test run beside this one.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { context, page, blocked, pageErrors, dialogs };
}

/** Saves a full-page screenshot named after the test, for a test that failed. */
export async function saveFailureScreenshot(page: Page, testName: string): Promise<string> {
  await mkdir(failureScreenshotDir, { recursive: true });
  const file = join(failureScreenshotDir, `${testName.replace(/[^\w-]+/g, '-').slice(0, 120)}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
