import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { hashPassword } from '../../functions/shared/auth/password.js';
import { saveFailureScreenshot } from './support/browser.js';
import { openHarness } from './support/harness.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

const admin = { email: 'admin@example.com', password: 'correct horse battery staple' };
type Json = { data: { objectId: string; status: string; sticky?: boolean; token: string } };

/** A context that may reach only the server, accepts the widget's confirm() and records page errors. */
async function openContext(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, locale: 'en-US' });
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    problems.push(`blocked ${url.href}`);
    return route.abort('blockedbyclient');
  });
  context.setDefaultTimeout(8_000);
  context.on('page', (page) => {
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // Deleting asks "Are you sure?": an administrator says yes.
    page.on('dialog', (dialog) => void dialog.accept());
  });
  return { context, page: await context.newPage(), problems };
}

/** Fills and submits the sign-in form from the page's own context, as a script could even while it is hidden. */
const submitHiddenForm = `(() => {
  const form = document.getElementById('login');
  form.email.value = ${JSON.stringify(admin.email)};
  form.password.value = ${JSON.stringify(admin.password)};
  form.requestSubmit();
})()`;

describe('moderating with the real widget (v3)', () => {
  let server: WidgetServer;
  let browser: Browser;
  let opened: Array<{ context: BrowserContext; page: Page }> = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // Every visitor comment waits for approval, so there is a queue to moderate.
      startWidgetServer({ JWT_TOKEN: 'j'.repeat(48), COMMENT_AUDIT: 'true' }),
      launchChromium(),
    ]);
    await server.services.accounts.create({
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      id: '01ADMINBROWSERTEST0000000A',
      email: admin.email,
      displayName: 'Site Admin',
      passwordHash: await hashPassword(admin.password),
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
        await saveFailureScreenshot(page, `moderation ${task.name}`).catch(() => {});
    }
    for (const { context } of opened) await context.close();
    opened = [];
  });

  // One sign-in for the whole file: sign-ins are limited per IP, and every request here is from 127.0.0.1.
  let token: string | undefined;
  const asAdmin = async (method: string, path: string, body?: unknown) => {
    token ??= ((await server.api('POST', '/api/token', admin)) as Json).data.token;
    const response = await fetch(`${server.base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as { data: unknown };
  };

  it('signs in through /ui/login, approves, marks spam, pins and deletes, and the public view follows', async () => {
    const path = `/moderated-${Date.now()}`;
    const post = async (nick: string, from: string) =>
      (
        (await server.api(
          'POST',
          '/api/comment',
          { url: path, nick, comment: `${nick} says hi` },
          from,
        )) as Json
      ).data;
    const waiting = await post('Waiting', '127.0.0.2');
    const spammy = await post('Spammy', '127.0.0.3');
    const pinned = await post('Pinned', '127.0.0.4');
    const doomed = await post('Doomed', '127.0.0.5');
    expect([waiting, spammy, pinned, doomed].map((c) => c.status)).toEqual(Array(4).fill('waiting'));
    for (const comment of [spammy, pinned, doomed]) {
      await asAdmin('PUT', `/api/comment/${comment.objectId}`, { status: 'approved' });
    }

    const moderator = await openContext(browser);
    opened.push(moderator);
    await openHarness(moderator.page, server.base, 'v3', { path, login: true });
    await moderator.page.locator(`[id="${doomed.objectId}"]`).waitFor();
    const popup = moderator.page.waitForEvent('popup');
    await moderator.page.getByRole('button', { name: /login/i }).first().click();
    const login = await popup;
    await login.locator('input[name=email]').fill(admin.email);
    await login.locator('input[name=password]').fill(admin.password);
    const closed = login.waitForEvent('close');
    await login.getByRole('button', { name: 'Sign in' }).click();
    // The widget takes the user from the sign-in page's message, closes it, and shows its admin controls.
    await closed;
    const card = (id: string) => moderator.page.locator(`[id="${id}"]`);
    await card(waiting.objectId).locator('.wl-admin-actions').waitFor();

    await card(waiting.objectId).locator('.wl-admin-actions .wl-approved').click();
    await card(spammy.objectId).locator('.wl-admin-actions .wl-spam').click();
    await card(pinned.objectId).locator('.wl-sticky').click();
    await card(doomed.objectId).locator('.wl-delete').click();
    await card(doomed.objectId).waitFor({ state: 'detached' });
    await expect
      .poll(async () => {
        const list = (await asAdmin('GET', `/api/comment?type=list&pageSize=10`)).data as {
          data: Array<{ objectId: string; status: string; sticky?: boolean }>;
        };
        return Object.fromEntries(
          list.data
            .filter((c) => c.objectId !== undefined)
            .map((c) => [c.objectId, `${c.status}${c.sticky ? '+sticky' : ''}`]),
        );
      })
      .toMatchObject({
        [waiting.objectId]: 'approved',
        [spammy.objectId]: 'spam',
        [pinned.objectId]: 'approved+sticky',
      });

    const visitor = await openContext(browser);
    opened.push(visitor);
    await openHarness(visitor.page, server.base, 'v3', { path });
    await visitor.page.locator(`[id="${waiting.objectId}"]`).waitFor();
    const shown = await visitor.page
      .locator('.wl-cards > .wl-card-item')
      .evaluateAll((cards) => cards.map((c) => c.id));
    expect(shown).toEqual([pinned.objectId, waiting.objectId]);
    expect(
      (
        (await server.api('GET', `/api/comment?type=count&url=${encodeURIComponent(path)}`)) as {
          data: number[];
        }
      ).data,
    ).toEqual([2]);
    expect([...moderator.problems, ...visitor.problems]).toEqual([]);
  });

  it('moderates the waiting queue from /ui after signing in there directly', async () => {
    const path = `/queue-${Date.now()}`;
    const posted = (
      (await server.api(
        'POST',
        '/api/comment',
        { url: path, nick: 'Queued', comment: 'hold me' },
        '127.0.0.9',
      )) as Json
    ).data;

    const moderator = await openContext(browser);
    opened.push(moderator);
    await moderator.page.goto(`${server.base}/ui`);
    // No token yet: /ui sends the administrator to sign in, which comes back to /ui.
    await moderator.page.waitForURL(`${server.base}/ui/login`);
    await moderator.page.locator('input[name=email]').fill(admin.email);
    await moderator.page.locator('input[name=password]').fill(admin.password);
    await moderator.page.getByRole('button', { name: 'Sign in' }).click();
    await moderator.page.waitForURL(`${server.base}/ui`);
    const item = moderator.page.locator('li.comment', { hasText: 'hold me' });
    await item.waitFor();
    expect(await item.locator('.text').textContent()).toBe('hold me');

    await item.getByRole('button', { name: 'Approve' }).click();
    await item.waitFor({ state: 'detached' });

    const count = (await server.api('GET', `/api/comment?type=count&url=${encodeURIComponent(path)}`)) as {
      data: number[];
    };
    expect(count.data).toEqual([1]);
    expect(posted.status).toBe('waiting');
    expect(moderator.problems).toEqual([]);
  });

  it('shows under each held comment in /ui why it was held', async () => {
    const path = `/why-${Date.now()}`;
    await server.api(
      'POST',
      '/api/comment',
      { url: path, nick: 'Audited', comment: 'why was I held' },
      '127.0.0.11',
    );
    token ??= ((await server.api('POST', '/api/token', admin)) as Json).data.token;

    const moderator = await openContext(browser);
    opened.push(moderator);
    await moderator.page.addInitScript(
      `sessionStorage.setItem('MARGINALIA_TOKEN', ${JSON.stringify(token)})`,
    );
    await moderator.page.goto(`${server.base}/ui`);
    const item = moderator.page.locator('li.comment', { hasText: 'why was I held' });
    await item.waitFor();

    expect(await item.locator('.reason').textContent()).toBe(
      'Held because: every comment waits for approval (COMMENT_AUDIT)',
    );
    expect(moderator.problems).toEqual([]);
  });

  it('shows a queued comment that carries markup as text: nothing a visitor typed runs in /ui', async () => {
    const payload = '<img src="x" onerror="window.__pwned = 1"><b>bold?</b>';
    const path = `/xss-${Date.now()}`;
    await server.api('POST', '/api/comment', { url: path, nick: 'Mallory', comment: payload }, '127.0.0.10');
    token ??= ((await server.api('POST', '/api/token', admin)) as Json).data.token;

    const injected = 'node.insertAdjacentHTML("beforeend", text)';
    /**
     * Opens /ui signed in (as /ui/login leaves it), lists the queue and reports what the page did. The
     * controls serve /ui changed to parse comment text as HTML (`inject`), and without its
     * Content-Security-Policy (`withoutCsp`), the second layer that keeps injected handlers from running.
     */
    const openQueue = async (control: { inject?: boolean; withoutCsp?: boolean } = {}) => {
      const moderator = await openContext(browser);
      opened.push(moderator);
      const { page } = moderator;
      await page.addInitScript(`sessionStorage.setItem('MARGINALIA_TOKEN', ${JSON.stringify(token)})`);
      if (control.inject) {
        await page.route(`${server.base}/ui`, async (route) => {
          const response = await route.fetch();
          const html = (await response.text()).replace('node.textContent = text', injected);
          expect(html).toContain(injected);
          const headers = { ...response.headers() };
          if (control.withoutCsp) delete headers['content-security-policy'];
          await route.fulfill({ response, headers, body: html });
        });
      }
      await page.goto(`${server.base}/ui`);
      const item = page.locator('li.comment', { hasText: 'Mallory' });
      await item.waitFor();
      // Whatever the text would load (the broken image) has been asked for and has failed by now.
      await page.waitForLoadState('networkidle');
      return {
        text: await item.locator('.text').textContent(),
        elements: await item.locator('.text *').count(),
        pwned: await page.evaluate('window.__pwned'),
        problems: moderator.problems,
      };
    };

    const shown = await openQueue();
    const parsed = await openQueue({ inject: true });
    const parsedWithoutCsp = await openQueue({ inject: true, withoutCsp: true });

    expect(shown).toEqual({ text: payload, elements: 0, pwned: undefined, problems: [] });
    // The controls: a page that parses the text fails the check on elements, and once its CSP is gone
    // too, the one on the flag. Both checks above can fail.
    expect([parsed.elements, parsed.pwned]).toEqual([2, undefined]);
    expect([parsedWithoutCsp.elements, parsedWithoutCsp.pwned]).toEqual([2, 1]);
  });

  it('refuses to send a sign-in to a redirect the server is not configured for', async () => {
    const visitor = await openContext(browser);
    opened.push(visitor);
    const login = `${server.base}/ui/login?redirect=${encodeURIComponent('https://attacker.example/steal')}`;
    await visitor.page.goto(login);

    await visitor.page.locator('#refused').waitFor();
    expect(await visitor.page.locator('#unknown-site').textContent()).toBe('https://attacker.example');
    expect(await visitor.page.locator('#login').isVisible()).toBe(false);
    // Submitted anyway (by a script), the sign-in still goes nowhere.
    await visitor.page.evaluate(submitHiddenForm);
    await expect
      .poll(() => visitor.page.locator('#error').textContent())
      .toContain('Refusing to send a sign-in');
    expect(visitor.page.url()).toBe(login);
    expect(visitor.problems).toEqual([]);
  });

  /**
   * Opens /ui/login of `base` from a page served (by the browser's router) at `opener`, another origin than
   * the server's, that records every message it receives. Resolves with the visitor and the sign-in popup.
   */
  const openLoginFrom = async (base: string, opener: string) => {
    const visitor = await openContext(browser);
    opened.push(visitor);
    await visitor.context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      if (url.href === `${opener}/opener.html`) {
        return route.fulfill({
          contentType: 'text/html',
          body: '<script>window.received = []; addEventListener("message", (e) => received.push(e.data));</script>',
        });
      }
      return route.abort('blockedbyclient');
    });
    await visitor.page.goto(`${opener}/opener.html`);
    const popupOpened = visitor.page.waitForEvent('popup');
    await visitor.page.evaluate(`void window.open('${base}/ui/login', '_blank', 'width=450,height=450')`);
    return { visitor, login: await popupOpened };
  };
  const received = async (page: Page) =>
    (await page.evaluate('window.received')) as Array<{
      type: string;
      data: { email: string; token?: string };
    }>;

  it('hands a sign-in to no opener on an origin the server is not configured for, and says what to set', async () => {
    // Another origin than the server's (localhost, not 127.0.0.1), under the defaults: ALLOWED_ORIGINS `*`
    // and no SITE_URL.
    const other = server.base.replace('127.0.0.1', 'localhost');
    const { visitor, login } = await openLoginFrom(server.base, other);

    const notice = login.locator('#refused');
    await notice.waitFor();
    expect(await login.locator('#unknown-site').textContent()).toBe(other);
    expect(await notice.innerText()).toMatch(/SITE_URL.*ALLOWED_ORIGINS/s);
    // No form to fill, and no way to consent to the site.
    expect(await login.locator('#login').isVisible()).toBe(false);
    expect(await login.locator('input[name=confirm]').count()).toBe(0);

    // Even a sign-in sent from the page's own script reaches only configured origins: none of them is this one.
    const closedAfterSubmit = login.waitForEvent('close');
    await login.evaluate(submitHiddenForm);
    await closedAfterSubmit;
    expect(await received(visitor.page)).toEqual([]);
  });

  it('hands a sign-in to an opener on the origin SITE_URL names', async () => {
    const site = 'http://localhost:9';
    const configured = await startWidgetServer({ JWT_TOKEN: 'j'.repeat(48), SITE_URL: `${site}/blog/` });
    try {
      await configured.services.accounts.create({
        type: 'administrator',
        state: 'active',
        sessionVersion: 0,
        id: '01ADMINBROWSERTEST0000000B',
        email: admin.email,
        displayName: 'Site Admin',
        passwordHash: await hashPassword(admin.password),
        createdAt: 0,
      });
      const { visitor, login } = await openLoginFrom(configured.base, site);

      expect(await login.locator('#target').textContent()).toBe(`Signing in for ${site}`);
      expect(await login.locator('#refused').isVisible()).toBe(false);
      await login.locator('input[name=email]').fill(admin.email);
      await login.locator('input[name=password]').fill(admin.password);
      const closed = login.waitForEvent('close');
      await login.getByRole('button', { name: 'Sign in' }).click();
      await closed;

      const messages = await received(visitor.page);
      expect(messages.map((message) => [message.type, message.data.email])).toEqual([
        ['userInfo', admin.email],
      ]);
      expect(messages[0]?.data.token).toBeTruthy();
    } finally {
      await configured.stop();
    }
  });
});
