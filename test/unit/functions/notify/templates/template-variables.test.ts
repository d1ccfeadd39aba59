import { describe, expect, it } from 'vitest';
import { templateVariables } from '../../../../../functions/notify/templates/template-variables.js';
import { config, parentComment, replyComment, replyNotice } from '../channels/notice-fixtures.js';

describe('templateVariables', () => {
  it('offers Waline’s fields of each comment, the HTML mail-safe, and the site', () => {
    expect(templateVariables(replyNotice(), config)).toStrictEqual({
      self: {
        objectId: replyComment.id,
        id: replyComment.id,
        nick: replyComment.nick,
        link: 'https://eve.example',
        url: '/posts/hello/',
        comment: '<p>See https://blog.example/login (https://evil.example/login) </p>',
        rawComment: replyComment.orig,
        orig: replyComment.orig,
        status: 'approved',
        time: replyComment.insertedAt,
        insertedAt: '2026-11-25T11:59:00.000Z',
        pid: parentComment.id,
        rid: parentComment.id,
      },
      // A root: no pid or rid at all.
      parent: {
        objectId: parentComment.id,
        id: parentComment.id,
        nick: 'Reader',
        link: '',
        url: '/posts/hello/',
        comment: parentComment.html,
        rawComment: parentComment.orig,
        orig: parentComment.orig,
        status: 'approved',
        time: parentComment.insertedAt,
        insertedAt: '2026-11-25T11:00:00.000Z',
      },
      site: {
        name: 'Notes & Queries',
        url: 'https://blog.example',
        postUrl: `https://blog.example/posts/hello/#${replyComment.id}`,
      },
    });
  });

  it('has only the site in a test, linking the site itself', () => {
    const test = replyNotice({ template: 'test', recipient: 'owner', self: undefined, parent: undefined });
    expect(templateVariables(test, config)).toEqual({
      site: { name: 'Notes & Queries', url: 'https://blog.example', postUrl: 'https://blog.example' },
    });
  });
});
