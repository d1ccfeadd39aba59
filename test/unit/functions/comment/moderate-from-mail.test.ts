import { describe, expect, it } from 'vitest';
import {
  createModerateFromMail,
  createShowModerationLink,
} from '../../../../functions/comment/moderate-from-mail.js';
import { createLinkReader } from '../../../../functions/comment/read-link.js';
import type { CommentStatus } from '../../../../functions/shared/domain/comment.js';
import type { Router } from '../../../../functions/shared/http/http-function.js';
import { toApiRequest } from '../../../../functions/shared/http/request.js';
import { type LinkClaims, signLinkToken } from '../../../../functions/shared/notify/link-token.js';
import type { CommentLocation, CommentRef } from '../../../../functions/shared/table/comment-repository.js';
import type { ModerationChange } from '../../../../functions/shared/table/moderation-items.js';
import type { ModeratedComment } from '../../../../functions/shared/table/moderation-repository.js';
import { buildEvent } from '../../../support/http-event.js';

const secret = 'k'.repeat(40);
const now = 1_800_000_000_000;
const path = '/api/notification/moderate';

const waiting: ModeratedComment = {
  id: '01WAITING',
  url: '/posts/hello',
  rid: '01ROOT',
  pid: '01ROOT',
  nick: '<i>Mallory</i>',
  mail: 'mallory@example.com',
  link: '',
  browser: '',
  os: '',
  orig: 'Hello **there**',
  html: '<p>Hello <strong>there</strong></p>\n',
  status: 'waiting',
  like: 0,
  sticky: false,
  insertedAt: Date.UTC(2026, 10, 20, 10, 0),
};

const token = (claims: LinkClaims, options: { key?: string; expiresAt?: number } = {}) =>
  signLinkToken(options.key ?? secret, claims, options.expiresAt ?? now + 3_600_000);
const moderation = (
  action: 'approve' | 'spam' | 'delete',
  commentId = waiting.id,
  status: CommentStatus = 'waiting',
) => token({ purpose: 'moderate', action, commentId, status });

/**
 * Both routes over fakes of the repositories: one stored comment (or none), whose status a `moderate`
 * that succeeds changes as the transaction would; every write recorded. `moderateAnswers` false is a
 * transaction refused (the comment changed meanwhile); `removeAnswer` what `remove` says. `concurrent` is
 * a status `/ui` gives the comment between the route's read and its write: the writes are conditioned on
 * the status as read, as the repository's are, so they are then refused.
 */
function mailModeration(
  options: {
    stored?: ModeratedComment;
    moderateAnswers?: boolean;
    removeAnswer?: number | 'conflict';
    concurrent?: CommentStatus;
  } = {},
) {
  let stored = 'stored' in options ? options.stored : waiting;
  const moderated: Array<{ comment: ModeratedComment; change: ModerationChange }> = [];
  const removed: CommentRef[] = [];
  const location = (): CommentLocation | undefined =>
    stored ? { url: stored.url, id: stored.id, rid: stored.rid, like: 0 } : undefined;
  const dependencies = {
    readLink: createLinkReader({ linkSecret: async () => secret, now: () => now }),
    comments: { locate: async (id: string) => (id === stored?.id ? location() : undefined) },
    moderation: {
      get: async (ref: CommentRef) => (ref.id === stored?.id ? stored : undefined),
      moderate: async (comment: ModeratedComment, change: ModerationChange) => {
        moderated.push({ comment, change });
        if (stored && options.concurrent) stored = { ...stored, status: options.concurrent };
        if (options.moderateAnswers === false || stored?.status !== comment.status) return false;
        if (stored && change.status) stored = { ...stored, status: change.status };
        return true;
      },
      remove: async (ref: CommentRef, expected?: { status: CommentStatus }) => {
        removed.push(ref);
        if (stored && options.concurrent) stored = { ...stored, status: options.concurrent };
        if (expected && stored && stored.status !== expected.status) return 'conflict';
        const answer = options.removeAnswer ?? 2;
        if (answer !== 'conflict') stored = undefined;
        return answer;
      },
    },
    siteUrl: 'https://blog.example/',
  };
  return {
    show: createShowModerationLink(dependencies),
    act: createModerateFromMail(dependencies),
    moderated,
    removed,
  };
}

const q = (values: Record<string, string>) => new URLSearchParams(values).toString();
const call = (route: Router, method: string, query: string) =>
  route(toApiRequest(buildEvent({ method, path, query })));
const withStatus = (status: CommentStatus): ModeratedComment => ({ ...waiting, status });

describe('GET /api/notification/moderate', () => {
  it('shows the comment (nick escaped, its sanitised HTML, its page, its status) and one button for the action, changing nothing', async () => {
    const { show, moderated, removed } = mailModeration();
    const link = await moderation('approve');

    const page = await call(show, 'GET', q({ token: link }));

    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'nonce-");
    expect(page.body).toContain('Approve this comment?');
    expect(page.body).toContain('&#60;i&#62;Mallory&#60;/i&#62;');
    expect(page.body).toContain('<div class="comment"><p>Hello <strong>there</strong></p>\n</div>');
    expect(page.body).toContain('<a href="https://blog.example/posts/hello"');
    expect(page.body).toContain('waiting for approval');
    expect(page.body).not.toContain('mallory@example.com');
    expect(page.body.match(/<form /g)).toHaveLength(1);
    expect(page.body).toContain(
      `<form method="post" action="?token=${link}"><button type="submit">Approve</button>`,
    );
    expect({ moderated, removed }).toEqual({ moderated: [], removed: [] });
  });

  it.each(['@evil.example/x', '.evil.example/x'])(
    'links a comment whose url is %s to a page of the site, never to another host',
    async (url) => {
      const { show } = mailModeration({ stored: { ...waiting, url } });

      const page = await call(show, 'GET', q({ token: await moderation('approve') }));

      const href = /<a href="([^"]+)" rel="noopener noreferrer">/.exec(page.body)?.[1] ?? '';
      expect(new URL(href.replaceAll('&#38;', '&')).host).toBe('blog.example');
    },
  );

  it("loads no image from another site: a comment's image would tell its author when the owner opened the link", async () => {
    const { show } = mailModeration({
      stored: { ...waiting, html: '<p><img src="https://tracker.example/p.gif" loading="lazy"></p>\n' },
    });

    const page = await call(show, 'GET', q({ token: await moderation('approve') }));

    expect(page.headers['content-security-policy']).toContain("img-src 'self' data:;");
    expect(page.headers['content-security-policy']).not.toMatch(/img-src[^;]*https:/);
  });

  it.each([
    ['spam', 'Mark this comment as spam?', 'Mark as spam'],
    ['delete', 'Delete this comment?', 'Delete'],
  ] as const)('asks to confirm %s with its own button', async (action, title, label) => {
    const { show, moderated, removed } = mailModeration();

    const page = await call(show, 'GET', q({ token: await moderation(action) }));

    expect(page.body).toContain(title);
    expect(page.body).toMatch(new RegExp(`<button type="submit" class="danger">${label}</button>`));
    expect({ moderated, removed }).toEqual({ moderated: [], removed: [] });
  });

  it('says an approved comment is approved already, with no button', async () => {
    const { show } = mailModeration({ stored: withStatus('approved') });

    const page = await call(show, 'GET', q({ token: await moderation('approve') }));

    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Already approved');
    expect(page.body).not.toContain('<form');
  });

  it.each([
    ['approve', 'spam', 'This comment was marked spam in the meantime'],
    ['spam', 'approved', 'This comment was approved in the meantime'],
    ['delete', 'approved', 'This comment was approved in the meantime'],
    ['delete', 'spam', 'This comment was marked spam in the meantime'],
  ] as const)(
    'says what happened when the owner decided otherwise in /ui: a %s link on a comment now %s, no button',
    async (action, status, title) => {
      const { show, moderated, removed } = mailModeration({ stored: withStatus(status) });

      const page = await call(show, 'GET', q({ token: await moderation(action) }));

      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(title);
      expect(page.body).toContain(
        'Nothing was changed: this link acts only on the comment as your mail showed it.',
      );
      expect(page.body).not.toContain('<form');
      expect({ moderated, removed }).toEqual({ moderated: [], removed: [] });
    },
  );

  it('offers the action on a comment still in the status the link was issued for, whatever that status', async () => {
    const { show } = mailModeration({ stored: withStatus('spam') });

    const page = await call(show, 'GET', q({ token: await moderation('approve', waiting.id, 'spam') }));

    expect(page.body).toContain('Approve this comment?');
    expect(page.body.match(/<form /g)).toHaveLength(1);
  });

  it('answers a 404 page when the comment is gone', async () => {
    const { show } = mailModeration({ stored: undefined });

    const page = await call(show, 'GET', q({ token: await moderation('delete') }));

    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Comment not found');
  });

  it.each([
    ['an unsubscribe token', () => token({ purpose: 'unsubscribe', addressHash: 'a'.repeat(43) })],
    [
      'an expired token',
      () =>
        token(
          { purpose: 'moderate', action: 'approve', commentId: waiting.id, status: 'waiting' },
          { expiresAt: now - 1 },
        ),
    ],
    [
      'a forged token',
      () =>
        token(
          { purpose: 'moderate', action: 'approve', commentId: waiting.id, status: 'waiting' },
          { key: 'f'.repeat(40) },
        ),
    ],
    ['garbage', async () => 'not.a.token'],
  ])('refuses %s with a 400 page and shows nothing of the comment', async (_case, make) => {
    const { show } = mailModeration();

    const page = await call(show, 'GET', q({ token: await make() }));

    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('The link is not valid, or it has expired.');
    expect(page.body).not.toContain('Mallory');
  });
});

describe('POST /api/notification/moderate', () => {
  it.each([
    ['approve', 'approved', 'Approved'],
    ['spam', 'spam', 'Marked as spam'],
  ] as const)(
    '%s: changes the status once, through moderation.moderate, with the comment as read',
    async (action, status, title) => {
      const { act, moderated, removed } = mailModeration();

      const page = await call(act, 'POST', q({ token: await moderation(action) }));

      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(title);
      expect(moderated).toEqual([{ comment: waiting, change: { status } }]);
      expect(removed).toEqual([]);
    },
  );

  it('delete: removes the comment once, through moderation.remove, and says how many went', async () => {
    const { act, moderated, removed } = mailModeration({ removeAnswer: 3 });

    const page = await call(act, 'POST', q({ token: await moderation('delete') }));

    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Deleted 3 comment(s)');
    expect(removed).toEqual([{ url: waiting.url, id: waiting.id, rid: waiting.rid, like: 0 }]);
    expect(moderated).toEqual([]);
  });

  it('is single use in effect: a second approval says it is done already and changes nothing', async () => {
    const { act, moderated } = mailModeration();
    const query = q({ token: await moderation('approve') });

    const first = await call(act, 'POST', query);
    const second = await call(act, 'POST', query);

    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.body).toContain('Already approved');
    expect(moderated).toHaveLength(1);
  });

  it.each([
    ['approve', 'approved', 'Already approved'],
    ['spam', 'spam', 'Already marked as spam'],
  ] as const)('%s on a comment that is %s already changes nothing', async (action, status, title) => {
    const { act, moderated } = mailModeration({ stored: withStatus(status) });

    const page = await call(act, 'POST', q({ token: await moderation(action) }));

    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(title);
    expect(moderated).toEqual([]);
  });

  it.each(['approve', 'spam', 'delete'] as const)(
    '%s on a deleted comment answers a 404 page and writes nothing',
    async (action) => {
      const { act, moderated, removed } = mailModeration({ stored: undefined });

      const page = await call(act, 'POST', q({ token: await moderation(action) }));

      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('Comment not found');
      expect({ moderated, removed }).toEqual({ moderated: [], removed: [] });
    },
  );

  it('answers a 409 page when the comment changed meanwhile (the transaction was refused)', async () => {
    const refused = mailModeration({ moderateAnswers: false });
    const conflict = mailModeration({ removeAnswer: 'conflict' });

    const approve = await call(refused.act, 'POST', q({ token: await moderation('approve') }));
    const remove = await call(conflict.act, 'POST', q({ token: await moderation('delete') }));

    expect([approve.statusCode, remove.statusCode]).toEqual([409, 409]);
    expect(approve.body).toContain('The comment changed while this was being done.');
  });

  it.each([
    ['approve', 'spam', 'This comment was marked spam in the meantime'],
    ['spam', 'approved', 'This comment was approved in the meantime'],
    ['delete', 'approved', 'This comment was approved in the meantime'],
  ] as const)(
    'a %s link on a comment the owner has since made %s in /ui changes nothing and says so (409)',
    async (action, status, title) => {
      const { act, moderated, removed } = mailModeration({ stored: withStatus(status) });

      const page = await call(act, 'POST', q({ token: await moderation(action) }));

      expect(page.statusCode).toBe(409);
      expect(page.body).toContain(title);
      expect(page.body).toContain('Nothing was changed');
      expect({ moderated, removed }).toEqual({ moderated: [], removed: [] });
    },
  );

  it.each(['approve', 'delete'] as const)(
    '%s: a decision in /ui between the read and the write refuses the write, and the page says what it was',
    async (action) => {
      const { act, moderated, removed } = mailModeration({ concurrent: 'spam' });

      const page = await call(act, 'POST', q({ token: await moderation(action) }));

      expect(page.statusCode).toBe(409);
      expect(page.body).toContain('This comment was marked spam in the meantime');
      // The write was tried once, with the comment as read in the link's status, and refused.
      expect(moderated.length + removed.length).toBe(1);
      expect(moderated.every(({ comment }) => comment.status === 'waiting')).toBe(true);
    },
  );

  it('says in Chinese that the comment changed since the mail', async () => {
    const { act } = mailModeration({ stored: withStatus('spam') });

    const page = await call(act, 'POST', q({ token: await moderation('approve'), lang: 'zh-CN' }));

    expect(page.statusCode).toBe(409);
    expect(page.body).toContain('这条评论在此期间已被标记为垃圾评论');
  });

  it('answers a 404 when the thread was already gone by the time remove read it', async () => {
    const { act } = mailModeration({ removeAnswer: 0 });

    const page = await call(act, 'POST', q({ token: await moderation('delete') }));

    expect(page.statusCode).toBe(404);
  });

  it.each([
    [
      'an unsubscribe token',
      400,
      () => token({ purpose: 'unsubscribe', addressHash: 'a'.repeat(43), rootId: '01ROOT' }),
    ],
    [
      'an expired token',
      400,
      () =>
        token(
          { purpose: 'moderate', action: 'delete', commentId: waiting.id, status: 'waiting' },
          { expiresAt: now - 1 },
        ),
    ],
    ['a token for another comment', 404, () => moderation('approve', '01OTHER')],
  ])('does nothing with %s (answers %i)', async (_case, status, make) => {
    const { act, moderated, removed } = mailModeration();

    const page = await call(act, 'POST', q({ token: await make() }));

    expect(page.statusCode).toBe(status);
    expect({ moderated, removed }).toEqual({ moderated: [], removed: [] });
  });

  it('answers in Chinese with lang=zh-CN', async () => {
    const { act } = mailModeration();

    const page = await call(act, 'POST', q({ token: await moderation('approve'), lang: 'zh-CN' }));

    expect(page.body).toContain('已通过');
    expect(page.body).toContain('<main lang="zh-CN">');
  });
});
