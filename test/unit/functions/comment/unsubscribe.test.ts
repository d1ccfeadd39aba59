import { describe, expect, it } from 'vitest';
import { createLinkReader } from '../../../../functions/comment/read-link.js';
import { createShowUnsubscribe, createUnsubscribe } from '../../../../functions/comment/unsubscribe.js';
import type { Router } from '../../../../functions/shared/http/http-function.js';
import { toApiRequest } from '../../../../functions/shared/http/request.js';
import { createAddressHasher } from '../../../../functions/shared/notify/address-hash.js';
import { type LinkClaims, signLinkToken } from '../../../../functions/shared/notify/link-token.js';
import type { SuppressionScope } from '../../../../functions/shared/table/keys.js';
import type { SuppressionReason } from '../../../../functions/shared/table/outbox-repository.js';
import { buildEvent, type EventSpec } from '../../../support/http-event.js';

/** The keyed address hash under the test configuration's salt (test/support/test-config.ts). */
const addressHash = createAddressHasher('test-salt-0123456789abcdef');

const secret = 'k'.repeat(40);
const now = 1_800_000_000_000;
const hour = 3_600_000;
const reader = addressHash('Ann@Example.com');
const path = '/api/notification/unsubscribe';

const token = (claims: LinkClaims, options: { key?: string; expiresAt?: number } = {}) =>
  signLinkToken(options.key ?? secret, claims, options.expiresAt ?? now + hour);
const threadToken = () => token({ purpose: 'unsubscribe', addressHash: reader, rootId: '01ROOT' });
const siteToken = () => token({ purpose: 'unsubscribe', addressHash: reader });

/** Both routes over a fake outbox that records each suppression it is asked for. */
function unsubscribeRoutes(site: { name?: string; url?: string } = { name: 'Blog' }) {
  const suppressed: Array<{ hash: string; scope: SuppressionScope; reason: SuppressionReason; at: number }> =
    [];
  const dependencies = {
    readLink: createLinkReader({ linkSecret: async () => secret, now: () => now }),
    outbox: {
      suppress: async (hash: string, scope: SuppressionScope, reason: SuppressionReason, at: number) => {
        suppressed.push({ hash, scope, reason, at });
      },
    },
    now: () => now,
    site,
  };
  return {
    show: createShowUnsubscribe(dependencies),
    unsubscribe: createUnsubscribe(dependencies),
    suppressed,
  };
}

const call = (route: Router, spec: EventSpec) => route(toApiRequest(buildEvent(spec)));
const get = (route: Router, query: string) => call(route, { path, query });
const post = (route: Router, query: string, body?: { text: string; type: string }) =>
  call(route, {
    method: 'POST',
    path,
    query,
    ...(body ? { body: body.text, contentType: body.type } : {}),
  });
const q = (values: Record<string, string>) => new URLSearchParams(values).toString();

/** The query strings of the forms a page posts back with. */
const formActions = (html: string) =>
  [...html.matchAll(/<form method="post" action="\?([^"]*)">/g)].map((match) =>
    Object.fromEntries(new URLSearchParams((match[1] ?? '').replaceAll('&#38;', '&'))),
  );

describe('GET /api/notification/unsubscribe', () => {
  it('offers muting the thread and leaving the site, as two forms, and records nothing when the link names a thread', async () => {
    const { show, suppressed } = unsubscribeRoutes();
    const link = await threadToken();

    const page = await get(show, q({ token: link }));

    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Mute this thread');
    expect(page.body).toContain('No more mail from this site');
    expect(formActions(page.body)).toEqual([
      { token: link, scope: 'thread' },
      { token: link, scope: 'site' },
    ]);
    expect(suppressed).toEqual([]);
  });

  it('offers only leaving the site when the link names no thread', async () => {
    const { show } = unsubscribeRoutes();
    const link = await siteToken();

    const page = await get(show, q({ token: link }));

    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Mute this thread');
    expect(formActions(page.body)).toEqual([{ token: link, scope: 'site' }]);
  });

  it('names the site, escaped, and speaks Chinese for lang=zh-CN, keeping the language in its forms', async () => {
    const { show } = unsubscribeRoutes({ name: '<b>Blog</b> & co' });
    const link = await threadToken();

    const english = await get(show, q({ token: link }));
    const chinese = await get(show, q({ token: link, lang: 'zh-CN' }));

    expect(english.body).toContain('&#60;b&#62;Blog&#60;/b&#62; &#38; co');
    expect(english.body).not.toContain('<b>Blog');
    expect(chinese.body).toContain('静音此讨论');
    expect(formActions(chinese.body)[0]).toEqual({ token: link, lang: 'zh-CN', scope: 'thread' });
  });

  it.each([
    ['no token', async () => ''],
    ['a token cut short', async () => (await threadToken()).slice(0, -3)],
    [
      'an expired token',
      () => token({ purpose: 'unsubscribe', addressHash: reader }, { expiresAt: now - 1 }),
    ],
    [
      'a token signed with another key',
      () => token({ purpose: 'unsubscribe', addressHash: reader }, { key: 'o'.repeat(40) }),
    ],
    [
      'a moderation token',
      () => token({ purpose: 'moderate', action: 'approve', commentId: '01C', status: 'waiting' }),
    ],
  ])('answers a 400 page that names no detail of the token for %s', async (_case, make) => {
    const { show, suppressed } = unsubscribeRoutes();
    const link = await make();

    const page = await get(show, link ? q({ token: link }) : '');

    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('The link is not valid, or it has expired.');
    expect(page.body).not.toMatch(/<form/);
    if (link) expect(page.body).not.toContain(link);
    expect(suppressed).toEqual([]);
  });
});

describe('POST /api/notification/unsubscribe', () => {
  it("mutes the link's thread for the link's address hash with scope=thread", async () => {
    const { unsubscribe, suppressed } = unsubscribeRoutes();

    const page = await post(unsubscribe, q({ token: await threadToken(), scope: 'thread' }), {
      text: '',
      type: 'application/x-www-form-urlencoded',
    });

    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This thread is muted');
    expect(suppressed).toEqual([
      { hash: reader, scope: { kind: 'thread', rootId: '01ROOT' }, reason: 'unsubscribe', at: now },
    ]);
  });

  it('leaves the whole site with scope=site, and again with the same answer when repeated', async () => {
    const { unsubscribe, suppressed } = unsubscribeRoutes();
    const query = q({ token: await threadToken(), scope: 'site' });

    const first = await post(unsubscribe, query);
    const second = await post(unsubscribe, query);

    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.body).toContain('No more mail from Blog');
    const site = { hash: reader, scope: { kind: 'site' }, reason: 'unsubscribe', at: now };
    expect(suppressed).toEqual([site, site]);
  });

  it.each([
    ['a urlencoded form', 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded'],
    [
      'multipart/form-data',
      '--b1\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b1--\r\n',
      'multipart/form-data; boundary=b1',
    ],
  ])("leaves the whole site on RFC 8058's one-click body as %s, with no scope", async (_case, text, type) => {
    const { unsubscribe, suppressed } = unsubscribeRoutes();

    const page = await post(unsubscribe, q({ token: await threadToken() }), { text, type });

    expect(page.statusCode).toBe(200);
    expect(suppressed).toEqual([{ hash: reader, scope: { kind: 'site' }, reason: 'unsubscribe', at: now }]);
  });

  it('refuses a POST with no scope and no one-click body with a 400 naming scope, recording nothing', async () => {
    const { unsubscribe, suppressed } = unsubscribeRoutes();
    const link = await threadToken();

    const empty = await post(unsubscribe, q({ token: link }));
    const other = await post(unsubscribe, q({ token: link }), {
      text: 'List-Unsubscribe=Later',
      type: 'application/x-www-form-urlencoded',
    });
    const unknown = await post(unsubscribe, q({ token: link, scope: 'everything' }));

    expect([empty.statusCode, other.statusCode, unknown.statusCode]).toEqual([400, 400, 400]);
    expect(empty.body).toContain('scope: must be thread or site');
    expect(suppressed).toEqual([]);
  });

  it('refuses scope=thread with a 400 when the link names no thread', async () => {
    const { unsubscribe, suppressed } = unsubscribeRoutes();

    const page = await post(unsubscribe, q({ token: await siteToken(), scope: 'thread' }));

    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('this link names no thread');
    expect(suppressed).toEqual([]);
  });

  it.each([
    [
      'a moderation token',
      () => token({ purpose: 'moderate', action: 'delete', commentId: '01C', status: 'waiting' }),
    ],
    [
      'an expired token',
      () => token({ purpose: 'unsubscribe', addressHash: reader }, { expiresAt: now - 1 }),
    ],
    ['a forged token', () => token({ purpose: 'unsubscribe', addressHash: reader }, { key: 'f'.repeat(40) })],
  ])('refuses %s with a 400 page, one-click body or not, and records nothing', async (_case, make) => {
    const { unsubscribe, suppressed } = unsubscribeRoutes();
    const link = await make();

    const oneClick = await post(unsubscribe, q({ token: link }), {
      text: 'List-Unsubscribe=One-Click',
      type: 'application/x-www-form-urlencoded',
    });
    const site = await post(unsubscribe, q({ token: link, scope: 'site' }));

    expect([oneClick.statusCode, site.statusCode]).toEqual([400, 400]);
    expect(site.body).toContain('The link is not valid, or it has expired.');
    expect(suppressed).toEqual([]);
  });
});
