import { describe, expect, it } from 'vitest';
import type { ListedComment } from '../../../../../functions/shared/domain/comment.js';
import { presentComment } from '../../../../../functions/shared/domain/present-comment.js';

const options = { avatarFor: () => 'https://avatar.test/a.png', showUserAgent: true, legacy: false };
const comment: ListedComment = {
  id: '01A',
  url: '/p',
  nick: 'Owner',
  mail: 'owner@example.com',
  link: '',
  browser: 'Chrome120.0',
  os: 'Linux',
  orig: 'hi',
  html: '<p>hi</p>\n',
  status: 'approved',
  like: 0,
  sticky: false,
  insertedAt: 1,
};

describe('presentComment', () => {
  it('shows type administrator, as Waline does, when an administrator wrote the comment signed in', () => {
    const shown = presentComment({ ...comment, type: 'administrator' }, options);

    expect(shown.type).toBe('administrator');
    expect(shown).not.toHaveProperty('mail');
  });

  it('leaves type out when a visitor wrote the comment', () => {
    expect(presentComment(comment, options)).not.toHaveProperty('type');
  });

  it('marks textOmitted a comment a list read without its text, and no other', () => {
    expect(presentComment({ ...comment, orig: '', html: '', textLeftOut: true }, options)).toMatchObject({
      comment: '',
      orig: '',
      textOmitted: true,
    });
    expect(presentComment(comment, options)).not.toHaveProperty('textOmitted');
  });
});
