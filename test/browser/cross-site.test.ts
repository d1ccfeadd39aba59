import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { saveFailureScreenshot } from './support/browser.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

type Posted = { data: { objectId: string } };
type Listed = { data: { count: number; data: Array<{ objectId: string; like: number }> } };

/**
 * What a stranger's page tries against `api`: a comment (on both routes), a reaction and a like, each as a
 * `no-cors` fetch of a Blob (no Content-Type: the kind a browser sends without asking first), and the like
 * also as a real CORS PUT. Each attempt's outcome as the page sees it lands in `window.attempts`.
 */
function attackerPage(api: string, path: string, commentId: string): string {
  const blob = (value: unknown) => `new Blob([${JSON.stringify(JSON.stringify(value))}])`;
  return `<!doctype html><script>
window.attempts = {};
const attempt = async (name, url, init) => {
  try {
    const response = await fetch(url, init);
    window.attempts[name] = response.type + ' ' + response.status;
  } catch (error) {
    window.attempts[name] = 'refused: ' + error.name;
  }
};
window.done = Promise.all([
  attempt('comment', '${api}/api/comment', { method: 'POST', mode: 'no-cors',
    body: ${blob({ comment: 'posted cross-site', url: path, nick: 'x' })} }),
  attempt('legacy comment', '${api}/comment', { method: 'POST', mode: 'no-cors',
    body: ${blob({ comment: 'posted cross-site too', url: path, nick: 'y' })} }),
  attempt('reaction', '${api}/api/article', { method: 'POST', mode: 'no-cors',
    body: ${blob({ path, type: 'reaction3' })} }),
  attempt('like', '${api}/api/comment/${commentId}', { method: 'PUT', mode: 'no-cors',
    body: ${blob({ like: true })} }),
  attempt('like with a preflight', '${api}/api/comment/${commentId}', { method: 'PUT',
    headers: { 'content-type': 'application/json' }, body: '{"like":true}' }),
]);
</script>`;
}

describe('a page on another site posting, reacting and liking through its visitors', () => {
  let browser: Browser;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let attackerServer: Server | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && page) await saveFailureScreenshot(page, `cross-site ${task.name}`);
    await context?.close();
    context = undefined;
    attackerServer?.closeAllConnections();
    await new Promise((resolve) => (attackerServer ? attackerServer.close(resolve) : resolve(undefined)));
    attackerServer = undefined;
  });

  /**
   * Serves the attacker's page from its own server at `http://localhost:<port>` (another origin than the
   * API's `http://127.0.0.1:<port>`, both loopback: a page the browser got from the network, not one it was
   * handed by the test's router, for which Chromium would refuse any request to a loopback address) and
   * runs its attempts. Returns what the page saw and the statuses the API answered.
   */
  async function attack(server: WidgetServer, path: string, commentId: string) {
    const html = attackerPage(server.base, path, commentId);
    attackerServer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    });
    await new Promise<void>((resolve) => attackerServer?.listen(0, '127.0.0.1', resolve));
    const attacker = `http://localhost:${(attackerServer.address() as AddressInfo).port}`;
    context = await browser.newContext();
    context.setDefaultTimeout(8_000);
    await context.route('**/*', (route) => {
      const { hostname } = new URL(route.request().url());
      return hostname === '127.0.0.1' || hostname === 'localhost'
        ? route.continue()
        : route.abort('blockedbyclient');
    });
    const answered: string[] = [];
    page = await context.newPage();
    page.on('response', (response) => {
      const request = response.request();
      if (request.url().startsWith(server.base)) {
        answered.push(`${request.method()} ${new URL(request.url()).pathname} ${response.status()}`);
      }
    });
    await page.goto(`${attacker}/attack.html`);
    await page.evaluate('window.done');
    return { seen: (await page.evaluate('window.attempts')) as Record<string, string>, answered };
  }

  /** What the API holds for `path`: comments, the like count of `commentId`, and reaction3. */
  async function stored(server: WidgetServer, path: string, commentId: string) {
    const list = (await server.api('GET', `/api/comment?path=${encodeURIComponent(path)}`)) as Listed;
    const counts = (await server.api(
      'GET',
      `/api/article?path=${encodeURIComponent(path)}&type=reaction3`,
    )) as {
      data: Array<{ reaction3: number }>;
    };
    return {
      comments: list.data.count,
      like: list.data.data.find((comment) => comment.objectId === commentId)?.like,
      reaction3: counts.data[0]?.reaction3,
    };
  }

  it('stores nothing under the default ALLOWED_ORIGINS (*): bodies without application/json get a 415', async () => {
    const server = await startWidgetServer();
    try {
      const path = `/p/csrf-${Date.now()}`;
      const target = (
        (await server.api('POST', '/api/comment', { url: path, nick: 'Ann', comment: 'like me' })) as Posted
      ).data.objectId;

      const { seen, answered } = await attack(server, path, target);

      // The no-cors posts went out and were refused; a no-cors PUT is not sent at all.
      expect(answered).toEqual(
        expect.arrayContaining(['POST /api/comment 415', 'POST /comment 415', 'POST /api/article 415']),
      );
      expect(seen).toMatchObject({
        comment: 'opaque 0',
        reaction: 'opaque 0',
        like: 'refused: TypeError',
      });
      const after = await stored(server, path, target);
      expect({ comments: after.comments, reaction3: after.reaction3 }).toEqual({ comments: 1, reaction3: 0 });
      // `*` lets any site send a JSON PUT after a preflight: a like from the visitor's own address, once per
      // voter, is what ALLOWED_ORIGINS is for. The next test sets it.
      expect(seen['like with a preflight']).toBe('cors 200');
    } finally {
      await server.stop();
    }
  });

  it('stores and changes nothing when ALLOWED_ORIGINS lists the real site only', async () => {
    const server = await startWidgetServer({ ALLOWED_ORIGINS: 'https://blog.example' });
    try {
      const path = `/p/csrf-listed-${Date.now()}`;
      const target = (
        (await server.api('POST', '/api/comment', { url: path, nick: 'Ann', comment: 'like me' })) as Posted
      ).data.objectId;

      const { seen, answered } = await attack(server, path, target);

      // The Origin is refused before the body is even looked at.
      expect(answered).toEqual(
        expect.arrayContaining(['POST /api/comment 403', 'POST /comment 403', 'POST /api/article 403']),
      );
      // The preflight of the JSON PUT names no allowed origin: the browser never sends the PUT.
      expect(answered).not.toContain(`PUT /api/comment/${target} 200`);
      expect(seen['like with a preflight']).toBe('refused: TypeError');
      expect(seen.like).toBe('refused: TypeError');
      expect(await stored(server, path, target)).toEqual({ comments: 1, like: 0, reaction3: 0 });
    } finally {
      await server.stop();
    }
  });
});
