import { randomBytes } from 'node:crypto';
import type { Browser, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { parseRss } from '../support/rss.js';
import { type GuardedContext, openGuardedContext, saveFailureScreenshot } from './support/browser.js';
import { openHarness } from './support/harness.js';
import { WidgetPage } from './support/widget-page.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

type Posted = { data: { objectId: string } };

describe("the Waline v3 widget's feed links", () => {
  let server: WidgetServer;
  let browser: Browser;
  let current: GuardedContext;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startWidgetServer({ SITE_URL: 'https://blog.example', SITE_NAME: 'The Blog' }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    current = await openGuardedContext(browser);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await saveFailureScreenshot(current.page, `feeds ${task.name}`);
    await current.context.close();
  });

  /**
   * Clicks `link` (which opens in a new tab: `target="_blank"`) and answers the new tab and what the
   * server answered it: the feed as the browser received it.
   */
  async function follow(link: ReturnType<GuardedContext['page']['locator']>) {
    const feeds: Response[] = [];
    const collect = (response: Response) => {
      if (new URL(response.url()).pathname === '/api/comment/rss') feeds.push(response);
    };
    current.context.on('response', collect);
    try {
      const [tab] = await Promise.all([current.context.waitForEvent('page'), link.click()]);
      await expect.poll(() => feeds.length, { timeout: 5_000, interval: 50 }).toBe(1);
      const response = feeds[0] as Response;
      return { tab, response, body: await response.text() };
    } finally {
      current.context.off('response', collect);
    }
  }

  it("opens the page's feed and the site's feed from the links under the comments", async () => {
    const path = `/posts/café ${randomBytes(4).toString('hex')}`;
    const other = `/elsewhere-${randomBytes(4).toString('hex')}`;
    const post = async (url: string, nick: string, comment: string) =>
      ((await server.api('POST', '/api/comment', { url, nick, comment })) as Posted).data.objectId;
    const here = await post(path, 'Ann', 'A comment on **this** page');
    const there = await post(other, 'Bob', 'A comment on another page');
    const widget = new WidgetPage(current.page);
    await widget.load(() => openHarness(current.page, server.base, 'v3', { path, rss: true }));

    const links = current.page.locator('.wl-meta-foot .wl-rss a');
    await expect.poll(() => links.count(), { timeout: 5_000, interval: 50 }).toBe(2);
    expect(await links.nth(0).getAttribute('target')).toBe('_blank');

    const pageFeed = await follow(links.nth(0));
    expect(pageFeed.tab.url()).toBe(`${server.base}/api/comment/rss?path=${encodeURIComponent(path)}`);
    expect(pageFeed.response.status()).toBe(200);
    expect(pageFeed.response.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
    const page = parseRss(pageFeed.body);
    expect(page.title).toBe(`Comments on ${path} · The Blog`);
    expect(page.items.map((item) => [item.title, item.url])).toEqual([
      ['Ann: A comment on this page', `https://blog.example${encodeURI(path)}#${here}`],
    ]);

    const siteFeed = await follow(links.nth(1));
    expect(siteFeed.tab.url()).toBe(`${server.base}/api/comment/rss`);
    expect(siteFeed.response.status()).toBe(200);
    const site = parseRss(siteFeed.body);
    expect(site.title).toBe('Comments on The Blog');
    expect(site.items.map((item) => item.url).slice(0, 2)).toEqual([
      `https://blog.example${other}#${there}`,
      `https://blog.example${encodeURI(path)}#${here}`,
    ]);
    expect([current.blocked, current.pageErrors, current.dialogs]).toEqual([[], [], []]);
  });
});
