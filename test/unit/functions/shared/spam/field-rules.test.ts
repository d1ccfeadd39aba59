import { describe, expect, it } from 'vitest';
import { fieldWithWord, isRestrictedName } from '../../../../../functions/shared/spam/field-rules.js';

const clean = { text: 'A fine article', nick: 'Alice', link: 'https://alice.example' };

describe('fieldWithWord', () => {
  it('names the first field holding a word: the text, then the nick, then the link', () => {
    expect(fieldWithWord({ ...clean, text: 'casino', nick: 'casino' }, ['casino'])).toBe('comment');
    expect(fieldWithWord({ ...clean, nick: 'Casino Bob', link: 'https://casino.example' }, ['casino'])).toBe(
      'nick',
    );
    expect(fieldWithWord({ ...clean, link: 'https://www.casino.example/x' }, ['casino'])).toBe('link');
  });

  it('matches as forbidden-words does: a Latin word whole, other scripts inside words', () => {
    expect(fieldWithWord({ ...clean, nick: 'Casinoville' }, ['casino'])).toBeUndefined();
    expect(fieldWithWord({ ...clean, nick: '网上赌博网' }, ['赌博'])).toBe('nick');
  });

  it('finds nothing with no words, or none present', () => {
    expect(fieldWithWord(clean, [])).toBeUndefined();
    expect(fieldWithWord(clean, ['casino', 'pills'])).toBeUndefined();
  });
});

describe('isRestrictedName', () => {
  it('is true for a nick equal to a name, ignoring case and surrounding spaces on either side', () => {
    expect(isRestrictedName('  ADMIN ', ['admin'])).toBe(true);
    expect(isRestrictedName('Site Owner', [' site owner '])).toBe(true);
  });

  it('sees through invisible characters and compatibility forms, which display like the name', () => {
    expect(isRestrictedName('Admin\u200B', ['admin'])).toBe(true);
    expect(isRestrictedName('\u200Ead\u200Dmin', ['admin'])).toBe(true);
    expect(isRestrictedName('Ａｄｍｉｎ', ['admin'])).toBe(true);
    expect(isRestrictedName('admin', ['Ａdmin'])).toBe(true);
  });

  it('is false for a nick that only contains a name, and for an empty nick', () => {
    expect(isRestrictedName('admin2', ['admin'])).toBe(false);
    expect(isRestrictedName('the admin', ['admin'])).toBe(false);
    expect(isRestrictedName('  ', ['', ' '])).toBe(false);
  });
});
