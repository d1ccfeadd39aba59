import { describe, expect, it } from 'vitest';
import { findForbiddenWord } from '../../../../../functions/shared/spam/forbidden-words.js';

describe('findForbiddenWord', () => {
  it('matches Latin words whole and case-insensitively', () => {
    expect(findForbiddenWord('Buy CASINO chips', ['casino'])).toBe('casino');
    expect(findForbiddenWord('a classic class', ['ass'])).toBeUndefined();
    expect(findForbiddenWord('ass.', ['ass'])).toBe('ass');
  });

  it('matches words of scripts without spaces as substrings', () => {
    expect(findForbiddenWord('这里有赌博网站', ['赌博'])).toBe('赌博');
  });

  it('treats regular-expression characters as plain text', () => {
    expect(findForbiddenWord('anything at all', ['.*'])).toBeUndefined();
    expect(findForbiddenWord('price: $5.*', ['$5.*'])).toBe('$5.*');
  });

  it('finds nothing, and does not hang, when a list that would be a catastrophic regex meets a long text', () => {
    // As a regular expression, '(a+)+$' against 200,000 'a's followed by '!' never finishes;
    // as plain words it is a quick miss (the test timeout is the hang detector).
    expect(findForbiddenWord(`${'a'.repeat(200_000)}!`, ['(a+)+$', `${'a'.repeat(30)}b`])).toBeUndefined();
  });
});
