import type { Browser } from 'playwright-core';
import { ulid } from 'ulid';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { type GuardedContext, openGuardedContext, saveFailureScreenshot } from './support/browser.js';
import { openHarness } from './support/harness.js';
import { WidgetPage } from './support/widget-page.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

const day = 86_400_000;

describe("the owner's rules as the real widget (v3) shows them", () => {
  let server: WidgetServer;
  let browser: Browser;
  let current: GuardedContext | undefined;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startWidgetServer({ READONLY_AGE: '7', BLOCKED_WORDS: 'casino' }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(async ({ task }) => {
    if (current && task.result?.state === 'fail') {
      await saveFailureScreenshot(current.page, `owner rules ${task.name}`).catch(() => {});
    }
    await current?.context.close();
    current = undefined;
  });

  /** Opens the widget on `path` and posts `text` through it, answering the dialogs it opened. */
  const postThroughWidget = async (path: string, nick: string, text: string) => {
    current = await openGuardedContext(browser);
    const widget = new WidgetPage(current.page);
    await widget.load(() => openHarness(current!.page, server.base, 'v3', { path }));
    // The page helper expects a 2xx; here the refusal is the point, and the widget's dialog shows it.
    const refused = await widget.post(nick, text).then(
      () => undefined,
      (error: unknown) => String(error),
    );
    await expect.poll(() => current!.dialogs.length, { timeout: 5_000, interval: 50 }).toBeGreaterThan(0);
    return { refused, dialogs: current.dialogs, errors: current.pageErrors, blocked: current.blocked };
  };

  it('shows the READONLY_AGE message when a visitor comments on an article closed by its age', async () => {
    const path = `/closed-${Date.now()}`;
    // The article's first comment, eight days old: stored with its time, as an import or an old post is.
    const at = Date.now() - 8 * day;
    const stored = await server.services.comments.insert(
      {
        id: ulid(at),
        url: path,
        nick: 'Early',
        mail: '',
        link: '',
        ua: '',
        ipHash: 'early',
        browser: '',
        os: '',
        orig: 'the first comment',
        html: '<p>the first comment</p>',
        status: 'approved',
        like: 0,
        sticky: false,
        insertedAt: at,
      },
      { contentHash: `early-${path}` },
    );
    expect(stored).toEqual({ ok: true });

    const shown = await postThroughWidget(path, 'Late', 'am I too late?');

    expect(shown.refused).toMatch(/answered 409$/);
    expect(shown.dialogs).toEqual([
      'This article is closed to new comments: it has been open for 7 days since its first comment.',
    ]);
    expect([shown.errors, shown.blocked]).toEqual([[], []]);
  });

  it('shows the BLOCKED_WORDS message naming the nick', async () => {
    const shown = await postThroughWidget(`/blocked-${Date.now()}`, 'Casino Carl', 'hello');

    expect(shown.dialogs).toEqual([
      'nick: contains a word this site does not accept; change it and send again.',
    ]);
  });
});
