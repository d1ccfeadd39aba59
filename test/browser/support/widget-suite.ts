import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../scripts/chromium.js';
import { type GuardedContext, openGuardedContext, saveFailureScreenshot } from './browser.js';
import { type ClientVersion, type HarnessOptions, openHarness } from './harness.js';
import { WidgetPage } from './widget-page.js';
import { startWidgetServer, type WidgetServer } from './widget-server.js';

type Posted = { data: { objectId: string } };

/** The browser tests of one client version: the real widget, driven through its UI, against the real server. */
export function describeWidget(version: ClientVersion): void {
  const demoPage = version === 'v3' ? '/' : '/v2/';
  const apiPrefix = version === 'v3' ? '/api' : '';

  describe(`the Waline ${version} widget`, () => {
    let server: WidgetServer;
    let browser: Browser;
    let current: GuardedContext;
    let widget: WidgetPage;

    beforeAll(async () => {
      [server, browser] = await Promise.all([startWidgetServer(), launchChromium()]);
    });

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    beforeEach(async () => {
      current = await openGuardedContext(browser);
      widget = new WidgetPage(current.page);
    });

    afterEach(async ({ task }) => {
      let failure: unknown;
      try {
        expect(current.blocked, 'requests to anything but 127.0.0.1').toEqual([]);
        expect(current.pageErrors, 'errors thrown in the page').toEqual([]);
        expect(current.dialogs, 'dialogs the page opened').toEqual([]);
      } catch (error) {
        failure = error;
      }
      if (failure !== undefined || task.result?.state === 'fail') {
        await saveFailureScreenshot(current.page, `${version} ${task.name}`).catch(() => {});
      }
      await current.context.close();
      if (failure !== undefined) throw failure;
    });

    /** A path no other test uses. */
    const freshPath = (label: string) => `/${version}/${label}-${randomBytes(4).toString('hex')}`;
    const open = (options: HarnessOptions) =>
      widget.load(() => openHarness(current.page, server.base, version, options), {
        reactions: options.reaction === true,
      });
    const postRoot = async (path: string, nick: string, comment: string) =>
      ((await server.api('POST', '/api/comment', { url: path, nick, comment })) as Posted).data.objectId;

    it('shows no comments and no error when the page has none', async () => {
      await open({ path: freshPath('empty') });

      await current.page.locator('.wl-empty').waitFor();
      expect(await widget.roots.count()).toBe(0);
      expect(await current.page.locator('.wl-operation').count()).toBe(0);
      expect(await widget.count()).toBe('');
    });

    it('shows a posted comment at once and after a reload, and counts it when one is posted', async () => {
      await open({ path: freshPath('post') });

      await widget.post('Ann', 'Hello from the **widget**');

      await widget.card('Hello from the widget').waitFor();
      expect(await widget.card('Hello from the widget').locator('.wl-nick').innerText()).toBe('Ann');
      expect(await widget.count()).toBe('1');
      await widget.reload();
      await expect.poll(() => widget.rootTexts()).toEqual(['Hello from the widget']);
      expect(await widget.count()).toBe('1');
    });

    it('nests replies under their root, naming each parent, at once and after a reload when replies are posted', async () => {
      const path = freshPath('reply');
      const rootId = await postRoot(path, 'Ann', 'The root comment');
      await open({ path });

      await widget.reply(widget.card('The root comment'), 'Bob', 'A reply to Ann');
      await widget.card('A reply to Ann').waitFor();
      await widget.reply(widget.card('A reply to Ann'), 'Cid', 'A reply to Bob');
      await widget.card('A reply to Bob').waitFor();

      const assertThread = async () => {
        const root = widget.card('The root comment');
        await expect.poll(() => widget.replies(root).count()).toBe(2);
        const [first, second] = [widget.replies(root).nth(0), widget.replies(root).nth(1)];
        expect(await first.locator('.wl-nick').innerText()).toBe('Bob');
        expect(await second.locator('.wl-nick').innerText()).toBe('Cid');
        await expect.poll(() => first.locator(`a[href="#${rootId}"]`).innerText()).toBe('@Ann');
        const bobId = await first.getAttribute('id');
        expect(await second.locator(`a[href="#${bobId}"]`).innerText()).toBe('@Bob');
        expect(await widget.roots.count()).toBe(1);
      };
      await assertThread();
      // The widget adds 1 to its count for a new root only; after a reload the server's count shows replies too.
      await widget.reload();
      await assertThread();
      expect(await widget.count()).toBe('3');
    });

    it('shows a like as 1 after a reload and takes it back to 0 when clicked again', async () => {
      const path = freshPath('like');
      await postRoot(path, 'Ann', 'Like me');
      await open({ path });
      const card = widget.card('Like me');
      await card.waitFor();
      expect(await widget.likes(card)).toBe('0');

      await widget.toggleLike(card);
      await expect.poll(() => widget.likes(card)).toBe('1');
      await widget.reload();
      await expect.poll(() => widget.likes(card)).toBe('1');

      await widget.toggleLike(card);
      await expect.poll(() => widget.likes(card)).toBe('0');
      await widget.reload();
      await expect.poll(() => widget.likes(card)).toBe('0');
    });

    it('orders roots by the sort tab when latest, oldest and hottest are chosen', async () => {
      const path = freshPath('sort');
      const [older, , newest] = [
        await postRoot(path, 'Ann', 'first'),
        await postRoot(path, 'Bob', 'second'),
        await postRoot(path, 'Cid', 'third'),
      ];
      // Likes count once per voter (an IP), so other voters come from other loopback addresses.
      await server.api('PUT', `/api/comment/${newest}`, { like: true }, '127.0.0.2');
      await server.api('PUT', `/api/comment/${newest}`, { like: true }, '127.0.0.3');
      await server.api('PUT', `/api/comment/${older}`, { like: true }, '127.0.0.2');
      await open({ path });

      await expect.poll(() => widget.rootTexts()).toEqual(['third', 'second', 'first']);
      await widget.sortBy('Oldest');
      await expect.poll(() => widget.rootTexts()).toEqual(['first', 'second', 'third']);
      await widget.sortBy('Hottest');
      await expect.poll(() => widget.rootTexts()).toEqual(['third', 'first', 'second']);
      await widget.sortBy('Latest');
      await expect.poll(() => widget.rootTexts()).toEqual(['third', 'second', 'first']);
    });

    it('reveals 4 and then 5 roots when "load more" is clicked with pageSize 2', async () => {
      const path = freshPath('more');
      for (const n of [1, 2, 3, 4]) await postRoot(path, 'Ann', `root ${n}`);
      const last = await postRoot(path, 'Bob', 'root 5');
      // A reply counts as a comment but not as a root: pages hold roots.
      await server.api('POST', '/api/comment', { url: path, comment: 'a reply', pid: last, rid: last });
      await open({ path, pageSize: 2, commentSorting: 'oldest' });

      await expect.poll(() => widget.rootTexts()).toEqual(['root 1', 'root 2']);
      expect(await widget.count()).toBe('6');
      await widget.loadMore();
      await expect.poll(() => widget.rootTexts()).toEqual(['root 1', 'root 2', 'root 3', 'root 4']);
      await widget.loadMore();
      await expect.poll(() => widget.rootTexts()).toEqual(['root 1', 'root 2', 'root 3', 'root 4', 'root 5']);
      expect(await widget.loadMoreButton.count()).toBe(0);
    });

    it('counts a pageview per load and shows each path its own counts when the page has counters for three paths', async () => {
      const [path, busy, quiet] = [freshPath('views'), freshPath('busy'), freshPath('quiet')];
      await postRoot(path, 'Ann', 'one here');
      await postRoot(busy, 'Ann', 'one there');
      await postRoot(busy, 'Bob', 'two there');
      for (let view = 0; view < 3; view++) {
        await server.api('POST', '/api/article', { path: busy, type: 'time', action: 'inc' });
      }
      const counter = (kind: 'pageview' | 'comment', of: string) =>
        current.page.locator(`.waline-${kind}-count[data-path="${of}"]`).innerText();

      await open({ path, counters: [path, busy, quiet] });
      await expect.poll(() => counter('pageview', path)).toBe('1');
      await expect.poll(() => counter('comment', path)).toBe('1');
      await expect.poll(() => counter('pageview', busy)).toBe('3');
      await expect.poll(() => counter('comment', busy)).toBe('2');
      await expect.poll(() => counter('pageview', quiet)).toBe('0');
      await expect.poll(() => counter('comment', quiet)).toBe('0');

      await widget.reload();
      await expect.poll(() => counter('pageview', path)).toBe('2');
      await expect.poll(() => counter('pageview', busy)).toBe('3');
    });

    it('counts a reaction and keeps it after a reload when one is clicked', async () => {
      await open({ path: freshPath('reaction'), reaction: true });
      const votes = (index: number) => widget.reactions.nth(index).locator('.wl-reaction-votes').innerText();
      await expect.poll(() => widget.reactions.count()).toBe(4);
      expect(await votes(1)).toBe('0');

      await widget.react(1);
      await expect.poll(() => votes(1)).toBe('1');
      await widget.reload();
      await expect.poll(() => votes(1)).toBe('1');
      expect(await votes(0)).toBe('0');
      expect(await widget.reactions.nth(1).getAttribute('class')).toContain('active');
    });

    const payload = [
      'Some **bold** markdown.',
      '<script>window.__pwned = 1</script>',
      '<img src="x" onerror="window.__pwned = 1">',
      '<a href="javascript:window.__pwned = 1">click me</a>',
      '<svg onload="window.__pwned = 1"></svg>',
      '<iframe srcdoc="<script>parent.__pwned = 1</script>"></iframe>',
      '[or me](javascript:window.__pwned=1) <img src=y onerror=alert(1)>',
    ].join('\n\n');
    const pwned = () => current.page.evaluate('window.__pwned');
    const imagesSettled = () =>
      current.page.evaluate('Array.from(document.images).every((image) => image.complete)');

    it('renders the markdown of a hostile comment and runs none of its scripts when others read it', async () => {
      const path = freshPath('xss');
      // The author posts through the widget in a page of their own. Both clients' live preview renders what is
      // typed without sanitising it, so that page runs the payload as it is typed: a self-XSS in the widget that
      // no server can prevent (the demo pages' Content-Security-Policy stops it). What the server controls is
      // what every reader gets back, which is what this test checks.
      const author = await openGuardedContext(browser);
      try {
        const authorWidget = new WidgetPage(author.page);
        await authorWidget.load(() => openHarness(author.page, server.base, version, { path }));
        await authorWidget.post('Mallory', payload);
        await authorWidget.card('Some bold markdown.').waitFor();
      } finally {
        await author.context.close();
      }

      await open({ path });
      const card = widget.card('Some bold markdown.');
      const check = async () => {
        await card.waitFor();
        expect(await card.locator('.wl-content strong').innerText()).toBe('bold');
        for (const link of await card.locator('.wl-content a').all()) await link.click();
        await expect.poll(imagesSettled).toBe(true);
        expect(await pwned()).toBeUndefined();
      };
      await check();
      await widget.reload();
      await check();
    });

    it('detects the script when a payload reaches the page unsanitised (the XSS check can fail)', async () => {
      const path = freshPath('control');
      await postRoot(path, 'Ann', 'harmless');
      // Serve the list with the raw payload in place of the server's sanitised HTML.
      const isList = (url: URL) =>
        url.pathname === `${apiPrefix}/comment` && url.searchParams.get('path') === path;
      await current.page.route(isList, async (route) => {
        const response = await route.fetch();
        const json = (await response.json()) as { data: unknown };
        const list = (version === 'v3' ? json.data : json) as { data: Array<{ comment: string }> };
        for (const comment of list.data) comment.comment = payload;
        await route.fulfill({ response, json });
      });

      await open({ path });

      await expect.poll(pwned).toBe(1);
      current.dialogs.length = 0;
    });

    it(`runs nothing typed into the editor when on the demo page at ${demoPage}, whose CSP stops the preview`, async () => {
      await widget.load(() => current.page.goto(`${server.base}${demoPage}`));

      await widget.mainBox.locator('.wl-editor').fill(payload);

      // The preview holds the raw handler (the widget does not sanitise it): only the policy stops it.
      await current.page.locator('.wl-preview img[onerror]').first().waitFor({ state: 'attached' });
      await expect.poll(imagesSettled).toBe(true);
      expect(await pwned()).toBeUndefined();
    });

    it(`shows the widget, its counters and the recent comments when the demo page at ${demoPage} is opened`, async () => {
      const article = '/posts/notes-in-the-margin';
      await postRoot(article, 'Ann', 'Seen on the demo page');

      await widget.load(() => current.page.goto(`${server.base}${demoPage}`));

      await widget.card('Seen on the demo page').waitFor();
      const counter = (kind: 'pageview' | 'comment', of: string) =>
        current.page.locator(`.waline-${kind}-count[data-path="${of}"]`).innerText();
      await expect.poll(() => counter('pageview', article)).toMatch(/^[1-9]\d*$/);
      await expect.poll(() => counter('comment', article)).toBe('1');
      await expect.poll(() => counter('comment', '/posts/a-field-guide-to-footnotes')).toBe('0');
      await expect
        .poll(() => current.page.locator('#recent li').first().innerText())
        .toContain('Seen on the demo page');
      await expect.poll(() => widget.reactions.count()).toBe(4);
      await expect.poll(imagesSettled).toBe(true);
      const broken = await current.page.evaluate(
        'Array.from(document.images).filter((image) => image.naturalWidth === 0).map((image) => image.src)',
      );
      expect(broken, 'images that did not load').toEqual([]);
    });
  });
}
