import { describe, expect, it } from 'vitest';
import { webhookPayload } from '../../../../../functions/notify/channels/webhook-payload.js';
import { testConfig } from '../../../../support/test-config.js';
import { config, now, parentComment, replyComment, replyNotice } from './notice-fixtures.js';

describe('webhookPayload', () => {
  it('types a confirmation notice, were one ever sent there, as a reply, with no comment', () => {
    const payload = webhookPayload(
      replyNotice({ template: 'confirm', self: undefined, parent: undefined }),
      config,
      now,
    );
    expect(payload.type).toBe('comment.replied');
    expect(payload.data).not.toHaveProperty('comment');
  });

  it('names each field of a reply and of the comment it answers, version 1', () => {
    expect(webhookPayload(replyNotice(), config, now)).toStrictEqual({
      type: 'comment.replied',
      version: 1,
      timestamp: '2026-11-25T12:00:00.000Z',
      data: {
        eventId: replyComment.id,
        site: { name: 'Notes & Queries', url: 'https://blog.example' },
        comment: {
          id: replyComment.id,
          url: '/posts/hello/',
          postUrl: `https://blog.example/posts/hello/#${replyComment.id}`,
          nick: replyComment.nick,
          link: 'https://eve.example',
          html: replyComment.html,
          text: replyComment.orig,
          status: 'approved',
          insertedAt: '2026-11-25T11:59:00.000Z',
          pid: parentComment.id,
          rid: parentComment.id,
        },
        // A root: no pid or rid key at all, and its own place on the page.
        parent: {
          id: parentComment.id,
          url: '/posts/hello/',
          postUrl: `https://blog.example/posts/hello/#${parentComment.id}`,
          nick: 'Reader',
          link: '',
          html: parentComment.html,
          text: parentComment.orig,
          status: 'approved',
          insertedAt: '2026-11-25T11:00:00.000Z',
        },
      },
    });
  });

  it('names the event of each template', () => {
    const typeOf = (template: 'owner-new' | 'owner-waiting' | 'reply') =>
      webhookPayload(replyNotice({ template }), config, now).type;
    expect([typeOf('owner-new'), typeOf('owner-waiting'), typeOf('reply')]).toEqual([
      'comment.created',
      'comment.waiting',
      'comment.replied',
    ]);
  });

  it('has no comment in a test, and the site’s host as its name without SITE_NAME', () => {
    const test = replyNotice({ template: 'test', recipient: 'webhook', self: undefined, parent: undefined });
    expect(webhookPayload(test, testConfig({ SITE_URL: 'https://notes.example/' }), now)).toEqual({
      type: 'test',
      version: 1,
      timestamp: '2026-11-25T12:00:00.000Z',
      data: { eventId: replyComment.id, site: { name: 'notes.example', url: 'https://notes.example/' } },
    });
  });

  it('links no comment without SITE_URL', () => {
    const payload = webhookPayload(replyNotice(), testConfig(), now);
    expect(payload.data.site).toEqual({ name: 'Marginalia', url: '' });
    expect([payload.data.comment?.postUrl, payload.data.parent?.postUrl]).toEqual(['', '']);
  });
});
