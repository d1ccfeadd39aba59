import { describe, expect, it } from 'vitest';
import { createAnswerBudget, resultBytes } from '../../../../../functions/shared/domain/answer-budget.js';
import { fitTexts, omitText } from '../../../../../functions/shared/domain/bounded-comments.js';
import type { PublicComment } from '../../../../../functions/shared/domain/present-comment.js';

const presented = (id: string, text: string): PublicComment => ({
  objectId: id,
  comment: `<p>${text}</p>`,
  orig: text,
  nick: `nick-${id}`,
  link: '',
  avatar: 'https://avatar.example/x',
  status: 'approved',
  like: 0,
  time: 1_700_000_000_000,
});

describe('omitText', () => {
  it("replaces the text with a note in the reader's language, empties orig and marks textOmitted", () => {
    const comment = presented('01A', 'a long text');

    expect(omitText(comment, 'en')).toEqual({
      ...comment,
      comment: '<p><em>This comment is too long to show in this list.</em></p>',
      orig: '',
      textOmitted: true,
    });
    expect(omitText(comment, 'zh-CN').comment).toBe('<p><em>这条评论太长，无法在此列表中显示。</em></p>');
    expect(comment.orig).toBe('a long text');
  });
});

describe('fitTexts', () => {
  const shells = (comments: PublicComment[]) =>
    comments.reduce((sum, comment) => sum + resultBytes(omitText(comment, 'en')), 0);
  const textBytes = (comment: PublicComment) => resultBytes({ comment: comment.comment, orig: comment.orig });

  it('keeps every comment in its order, whole while the budget allows and without its text past it', () => {
    const comments = [
      presented('01A', 'a'.repeat(1000)),
      presented('01B', 'b'.repeat(1000)),
      presented('01C', 'c'),
    ];
    const [a, b, c] = comments as [PublicComment, PublicComment, PublicComment];
    // Room for every shell, the first text, and half the second: the third, short, still fits after it.
    const budget = createAnswerBudget(shells(comments) + textBytes(a) + textBytes(b) / 2);

    const fitted = fitTexts(comments, 'en', budget);

    expect(fitted.map((comment) => comment.objectId)).toEqual(['01A', '01B', '01C']);
    expect(fitted[0]).toEqual(a);
    expect(fitted[1]).toEqual(omitText(b, 'en'));
    expect(fitted[1]?.textOmitted).toBe(true);
    expect(fitted[2]).toEqual(c);
  });

  it('keeps every comment, each without its text, when the budget holds only their shells', () => {
    const comments = [presented('01A', 'x'.repeat(100)), presented('01B', 'y'.repeat(100))];

    const fitted = fitTexts(comments, 'en', createAnswerBudget(shells(comments)));

    expect(fitted.map((comment) => [comment.objectId, comment.orig, comment.textOmitted])).toEqual([
      ['01A', '', true],
      ['01B', '', true],
    ]);
  });

  it('keeps every comment even when the budget cannot hold their shells', () => {
    const comments = [presented('01A', 'x'), presented('01B', 'y')];

    expect(fitTexts(comments, 'en', createAnswerBudget(0)).map((comment) => comment.objectId)).toEqual([
      '01A',
      '01B',
    ]);
  });

  it('leaves comments whole and unmarked when the budget holds them all', () => {
    const comments = [presented('01A', 'x'), presented('01B', 'y')];

    const fitted = fitTexts(comments, 'en', createAnswerBudget());

    expect(fitted).toEqual(comments);
    for (const comment of fitted) expect(comment).not.toHaveProperty('textOmitted');
  });

  it('keeps a comment read without its text a shell with its note, and spends no budget on its text', () => {
    const readWithout = { ...presented('01A', ''), comment: '', textOmitted: true as const };
    const whole = presented('01B', 'b'.repeat(100));
    const budget = createAnswerBudget(shells([readWithout, whole]) + textBytes(whole));

    const fitted = fitTexts([readWithout, whole], 'en', budget);

    expect(fitted).toEqual([omitText(readWithout, 'en'), whole]);
    expect(fitted[0]?.comment).toBe('<p><em>This comment is too long to show in this list.</em></p>');
  });
});
