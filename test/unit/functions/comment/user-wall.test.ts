import { describe, expect, it } from 'vitest';
import { wallEntry } from '../../../../functions/comment/user-wall.js';

const avatarFor = ({ mail }: { mail: string }) => `https://avatar.example/${mail.length}`;

describe('wallEntry', () => {
  it("shows an account's profile, its label and its avatar or the computed one, never its address", () => {
    const profile = { id: '01A', displayName: 'Carol', email: 'carol@example.com', type: 'guest' as const };
    expect(wallEntry({ authorKey: 'user:01A', count: 12, profile }, { avatarFor, levels: [0, 10] })).toEqual({
      count: 12,
      level: 1,
      nick: 'Carol',
      link: '',
      avatar: 'https://avatar.example/17',
    });
    expect(
      wallEntry(
        {
          authorKey: 'user:01A',
          count: 1,
          profile: { ...profile, label: 'Ed', avatar: 'https://a/b.png', link: 'https://c' },
        },
        { avatarFor, levels: undefined },
      ),
    ).toEqual({ count: 1, nick: 'Carol', link: 'https://c', avatar: 'https://a/b.png', label: 'Ed' });
  });

  it('leaves off a banned account, an account deleted since, and an address with nothing to show', () => {
    const options = { avatarFor, levels: undefined };
    const banned = { id: '01B', displayName: 'B', email: 'b@example.com', type: 'banned' as const };
    expect(wallEntry({ authorKey: 'user:01B', count: 3, profile: banned }, options)).toBeUndefined();
    expect(
      wallEntry({ authorKey: 'user:01C', count: 3, display: { nick: 'x', link: '', avatar: '' } }, options),
    ).toBeUndefined();
    expect(wallEntry({ authorKey: 'mail:h', count: 3 }, options)).toBeUndefined();
  });

  it('escapes the texts, which the widget writes into innerHTML', () => {
    expect(
      wallEntry(
        {
          authorKey: 'mail:h',
          count: 2,
          display: { nick: '<img onerror=x>', link: 'https://a/"x', avatar: 'https://b/' },
        },
        { avatarFor, levels: undefined },
      ),
    ).toEqual({ count: 2, nick: '&#60;img onerror=x&#62;', link: 'https://a/&#34;x', avatar: 'https://b/' });
  });
});
