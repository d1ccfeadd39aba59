import { describe, expect, it } from 'vitest';
import {
  createAuthorTally,
  createFeedKeysOf,
  feedKeysOf,
} from '../../../../../functions/shared/domain/author-tally.js';

const hashAddress = (address: string) => `H(${address.toLowerCase()})`;
const avatarFor = () => 'https://avatar.example/a';
const comment = (extra: { userId?: string; mail: string }) => ({ nick: 'Ann', link: '', ...extra });

describe('the author keys a comment is counted and filed under', () => {
  const tallyOf = createAuthorTally({ hashAddress, avatarFor });
  const keysOf = createFeedKeysOf(hashAddress);

  it("counts an account's comment for the account and files it under its address too", () => {
    const tally = tallyOf(comment({ userId: '01ACC', mail: 'Ann@example.com' }));
    expect(tally).toEqual({ authorKey: 'user:01ACC', addressKey: 'mail:H(ann@example.com)' });
    expect(feedKeysOf(tally)).toEqual(['user:01ACC', 'mail:H(ann@example.com)']);
    expect(keysOf(comment({ userId: '01ACC', mail: 'Ann@example.com' }))).toEqual(feedKeysOf(tally));
  });

  it("files an account's comment without a plain address under the account alone", () => {
    for (const mail of ['', 'not an address']) {
      const tally = tallyOf(comment({ userId: '01ACC', mail }));
      expect(tally).toEqual({ authorKey: 'user:01ACC' });
      expect(keysOf(comment({ userId: '01ACC', mail }))).toEqual(['user:01ACC']);
    }
  });

  it('counts and files an anonymous comment under its address once, and one without an address nowhere', () => {
    const tally = tallyOf(comment({ mail: 'ann@example.com' }));
    expect(tally).toMatchObject({ authorKey: 'mail:H(ann@example.com)' });
    expect(tally).not.toHaveProperty('addressKey');
    expect(feedKeysOf(tally)).toEqual(['mail:H(ann@example.com)']);
    expect(keysOf(comment({ mail: '' }))).toEqual([]);
    expect(feedKeysOf(undefined)).toEqual([]);
  });
});
