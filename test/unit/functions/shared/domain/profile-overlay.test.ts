import { describe, expect, it } from 'vitest';
import type { AuthorProfile } from '../../../../../functions/shared/domain/account.js';
import { authorsOf, presentAuthor } from '../../../../../functions/shared/domain/profile-overlay.js';

const avatarFor = ({ nick, mail }: { nick: string; mail: string }) =>
  `https://avatar.example/${nick}/${mail}`;
const stored = { nick: 'Then', mail: 'then@mail.example', link: 'https://then.example' };
const profile: AuthorProfile = {
  id: 'acct-1',
  displayName: 'Now',
  email: 'now@mail.example',
  link: 'https://now.example',
  label: 'Patron',
  type: 'guest',
};
const authors = new Map([[profile.id, profile]]);

describe('presentAuthor', () => {
  it("replaces a comment's name, link, avatar, type and label by its account's current ones", () => {
    expect(presentAuthor({ ...stored, userId: 'acct-1' }, avatarFor, authors)).toEqual({
      nick: 'Now',
      link: 'https://now.example',
      avatar: 'https://avatar.example/Now/now@mail.example',
      type: 'guest',
      label: 'Patron',
      user_id: 'acct-1',
    });
  });

  it("shows the account's own avatar when it chose one, and no link when it has none", () => {
    const chosen = { ...profile, avatar: 'https://img.example/me.png', link: undefined, label: undefined };
    const shown = presentAuthor({ ...stored, userId: 'acct-1' }, avatarFor, new Map([['acct-1', chosen]]));

    expect(shown).toEqual({
      nick: 'Now',
      link: '',
      avatar: 'https://img.example/me.png',
      type: 'guest',
      user_id: 'acct-1',
    });
  });

  it("shows an administrator's badge from the account, and none for a banned account", () => {
    const admin = { ...profile, type: 'administrator' as const };
    const banned = { ...profile, type: 'banned' as const };

    expect(presentAuthor({ ...stored, userId: 'acct-1' }, avatarFor, new Map([['acct-1', admin]])).type).toBe(
      'administrator',
    );
    expect(
      presentAuthor({ ...stored, userId: 'acct-1' }, avatarFor, new Map([['acct-1', banned]])),
    ).not.toHaveProperty('type');
  });

  it('shows an anonymous comment as stored, without user_id', () => {
    expect(presentAuthor(stored, avatarFor, authors)).toEqual({
      nick: 'Then',
      link: 'https://then.example',
      avatar: 'https://avatar.example/Then/then@mail.example',
    });
    expect(presentAuthor({ ...stored, type: 'administrator' }, avatarFor, undefined)).toMatchObject({
      type: 'administrator',
    });
  });

  it('shows the comment of an account whose profile was not read as stored, with its user_id', () => {
    expect(presentAuthor({ ...stored, userId: 'acct-2' }, avatarFor, authors)).toEqual({
      nick: 'Then',
      link: 'https://then.example',
      avatar: 'https://avatar.example/Then/then@mail.example',
      user_id: 'acct-2',
    });
  });
});

describe('authorsOf', () => {
  it('reads the distinct account ids of the comments at once, parents included, and nothing when there are none', async () => {
    const reads: string[][] = [];
    const read = async (ids: readonly string[]) => {
      reads.push([...ids]);
      return authors;
    };

    expect(await authorsOf(read, [{}, { userId: 'a' }, undefined, { userId: 'b' }, { userId: 'a' }])).toBe(
      authors,
    );
    expect((await authorsOf(read, [{}, undefined])).size).toBe(0);
    expect(reads).toEqual([['a', 'b']]);
  });
});
