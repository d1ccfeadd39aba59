import { createHash } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { demoMember } from '../../scripts/demo-site-backend.js';
import { createLocalSite } from '../../scripts/local-site.js';
import { type GuardedContext, openGuardedContext, saveFailureScreenshot } from './support/browser.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

/**
 * Single sign-on with the site (issue 28): a member signs in on the demo site's page (`/demo/site-login`), whose
 * fake backend signs an assertion with SSO_SECRET; the page exchanges it at `POST /api/token/sso`, stores the
 * answer as WALINE_USER, and the unmodified widget (v3, 3.13.0) posts as the member's SSO account.
 */

const ssoSecret = 'the demo site backend and the server share this key';

/** What the comment routes answer (Waline's envelope around the comment). */
interface CommentAnswer {
  readonly errno: number;
  readonly data: { objectId: string; nick: string; avatar: string; user_id?: string; type?: string };
}

describe('single sign-on from the site, through the real widget (v3)', () => {
  let server: WidgetServer;
  let browser: Browser;
  let opened: GuardedContext | undefined;
  // The demo site's backend signs for this server, whose address is known only once it listens.
  let base = '';

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startWidgetServer(
        (address) => ({
          JWT_TOKEN: 'j'.repeat(48),
          SSO_SECRET: ssoSecret,
          SSO_AUDIENCE: address,
          LIST_CACHE_MS: '0',
        }),
        { site: createLocalSite({ sso: () => ({ secret: ssoSecret, audience: base }) }) },
      ),
      launchChromium(),
    ]);
    base = server.base;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(async ({ task }) => {
    if (opened && task.result?.state === 'fail') {
      await saveFailureScreenshot(opened.page, `single-sign-on ${task.name}`).catch(() => {});
    }
    await opened?.context.close();
    opened = undefined;
  });

  it("signs the site's member in from the site's page, who then comments as themselves; a replayed assertion is refused", async () => {
    opened = await openGuardedContext(browser);
    const { page, blocked, pageErrors, dialogs } = opened;
    await page.goto(`${base}/demo/site-login`);
    await page.locator('#site-status', { hasText: 'You are not signed in to this site.' }).waitFor();

    // 1. The member signs in on the site: its backend mints the assertion, the page exchanges and stores it.
    const minted = page.waitForResponse((response) => response.url().endsWith('/demo/site-login/assertion'));
    const exchanged = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/token/sso',
    );
    await page.locator('#site-sign-in').click();
    const { assertion } = (await (await minted).json()) as { assertion: string };
    expect((await exchanged).status()).toBe(200);
    await page.locator('#site-status', { hasText: `Signed in to the site as ${demoMember.name}.` }).waitFor();

    const account = await server.services.accounts.findByIdentity('sso:site', demoMember.sub);
    expect(account).toMatchObject({
      displayName: demoMember.name,
      email: demoMember.email,
      emailVerified: true,
    });
    const stored = JSON.parse(
      (await page.evaluate<string | null>("localStorage.getItem('WALINE_USER')")) ?? 'null',
    ) as { objectId?: string; token?: string; remember?: boolean } | null;
    expect(stored).toMatchObject({
      objectId: account?.id,
      remember: true,
      token: expect.any(String) as string,
    });

    // 2. The widget shows the member as signed in (its login bar), with no name or address fields.
    const box = page.locator('[data-waline] > .wl-comment');
    await expect
      .poll(() => box.locator('a.wl-login-nick', { hasText: /\S/ }).textContent())
      .toBe(demoMember.name);
    expect(await box.locator('.wl-header').count()).toBe(0);

    // 3. The member comments: the answer and the card carry the SSO account, its name and its picture.
    await box.locator('.wl-editor').fill('Ada writes as a member of the site');
    const posted = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/comment',
    );
    await box.locator('.wl-btn.primary').click();
    const answer = (await (await posted).json()) as CommentAnswer;
    const picture = `${base}/avatar/${createHash('md5').update(demoMember.email).digest('hex')}.svg`;
    expect(answer).toMatchObject({
      errno: 0,
      data: { nick: demoMember.name, user_id: account?.id, type: 'guest', avatar: picture },
    });
    await page.reload();
    const card = page.locator(`[id="${answer.data.objectId}"] > .wl-card`);
    await card.locator('.wl-content', { hasText: 'Ada writes as a member of the site' }).waitFor();
    expect(await card.locator('.wl-nick').innerText()).toBe(demoMember.name);
    expect(await page.locator(`[id="${answer.data.objectId}"] > .wl-user img`).getAttribute('src')).toBe(
      picture,
    );

    // 4. The assertion the page used is spent: the page sending it again is refused, naming the rule.
    const replay = await page.evaluate(async (used) => {
      const response = await fetch('/api/token/sso', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ assertion: used }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    }, assertion);
    expect(replay).toEqual({
      status: 401,
      body: { errno: 401, errmsg: 'assertion: jti already used (every assertion is exchanged once)' },
    });

    expect(blocked).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});
