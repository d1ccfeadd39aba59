import type { AnswerBudget } from './answer-budget.js';
import { type Lang, translate } from './messages.js';
import type { PublicComment } from './present-comment.js';

/**
 * A comment without its text, for an answer that has no room left for it: a short note in the
 * reader's language stands for the HTML, `orig` is empty, and `textOmitted: true` marks it.
 */
export function omitText<T extends PublicComment>(comment: T, lang: Lang): T {
  return {
    ...comment,
    comment: `<p><em>${translate(lang, 'textOmitted')}</em></p>`,
    orig: '',
    textOmitted: true,
  };
}

/**
 * Every comment of `comments`, whole while `budget` allows and without its text past that: the list
 * keeps its length and order, whatever the comments hold. The shells are counted first, so the texts
 * never crowd a comment out. A comment already marked `textOmitted` (read without its text) stays a shell.
 */
export function fitTexts<T extends PublicComment>(
  comments: readonly T[],
  lang: Lang,
  budget: AnswerBudget,
): T[] {
  const shells = comments.map((comment) => omitText(comment, lang));
  for (const shell of shells) budget.force(shell);
  return comments.map((comment, index) =>
    !comment.textOmitted && budget.take({ comment: comment.comment, orig: comment.orig })
      ? comment
      : (shells[index] as T),
  );
}
