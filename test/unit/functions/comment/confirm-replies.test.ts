import { describe, expect, it } from 'vitest';
import {
  createConfirmReplies,
  createShowConfirmReplies,
} from '../../../../functions/comment/confirm-replies.js';
import { createLinkReader } from '../../../../functions/comment/read-link.js';
import type { Router } from '../../../../functions/shared/http/http-function.js';
import { toApiRequest } from '../../../../functions/shared/http/request.js';
import { createAddressHasher } from '../../../../functions/shared/notify/address-hash.js';
import { type LinkClaims, signLinkToken } from '../../../../functions/shared/notify/link-token.js';
import { buildEvent } from '../../../support/http-event.js';

const secret = 'k'.repeat(40);
const now = 1_800_000_000_000;
const hour = 3_600_000;
const reader = createAddressHasher('test-salt-0123456789abcdef')('ann+blog@example.com');
const path = '/api/notification/confirm';
const confirmClaims = { purpose: 'confirm', addressHash: reader, eventId: '01EVENT' } as const;

const token = (claims: LinkClaims, expiresAt = now + hour) => signLinkToken(secret, claims, expiresAt);

/** Both routes over fake confirmations that record each call. */
function confirmRoutes() {
  const calls: string[] = [];
  const dependencies = {
    readLink: createLinkReader({ linkSecret: async () => secret, now: () => now }),
    confirmations: {
      confirm: async (hash: string, at: number) => {
        calls.push(`confirm ${hash} ${at}`);
      },
      releasePending: async (eventId: string, at: number) => {
        calls.push(`release ${eventId} ${at}`);
        return true;
      },
    },
    now: () => now,
    site: { name: 'Blog <b>' },
  };
  return { show: createShowConfirmReplies(dependencies), confirm: createConfirmReplies(dependencies), calls };
}

const call = (route: Router, method: 'GET' | 'POST', query: string) =>
  route(toApiRequest(buildEvent({ method, path, query })));
const q = (values: Record<string, string>) => new URLSearchParams(values).toString();

describe('the confirmation link routes', () => {
  it('show what a click does, one form posting the token back, and change nothing on GET', async () => {
    const routes = confirmRoutes();
    const linkToken = await token(confirmClaims);

    const page = await call(routes.show, 'GET', q({ token: linkToken }));

    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Blog &#60;b&#62;');
    expect(page.body).not.toContain('<b>');
    expect(page.body).toContain(`<form method="post" action="?${q({ token: linkToken })}">`);
    expect(page.headers?.['content-security-policy']).toContain("default-src 'none'");
    expect(routes.calls).toEqual([]);
  });

  it("record the link's address confirmed and hand its waiting event back on POST", async () => {
    const routes = confirmRoutes();

    const answer = await call(
      routes.confirm,
      'POST',
      q({ token: await token(confirmClaims), lang: 'zh-CN' }),
    );

    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('已开启回复通知');
    expect(routes.calls).toEqual([`confirm ${reader} ${now}`, `release 01EVENT ${now}`]);
  });

  it('refuse an unsubscribe or moderation token, an expired one and junk with a 400, recording nothing', async () => {
    const routes = confirmRoutes();
    const refused = [
      await token({ purpose: 'unsubscribe', addressHash: reader }),
      await token({ purpose: 'moderate', action: 'approve', commentId: '01C', status: 'waiting' }),
      await token(confirmClaims, now - 1000),
      'junk',
    ];

    for (const linkToken of refused) {
      for (const [route, method] of [
        [routes.show, 'GET'],
        [routes.confirm, 'POST'],
      ] as const) {
        const answer = await call(route, method, q({ token: linkToken }));
        expect(answer.statusCode, `${method} ${linkToken.slice(0, 20)}`).toBe(400);
      }
    }
    expect(routes.calls).toEqual([]);
  });
});
