import { describe, expect, it } from 'vitest';
import {
  commentTextSchema,
  submitBodySchema,
} from '../../../../../functions/shared/domain/comment-schemas.js';
import { AppError } from '../../../../../functions/shared/domain/errors.js';
import { limits } from '../../../../../functions/shared/domain/limits.js';
import { parseInput } from '../../../../../functions/shared/http/request.js';

/** Parses a submission as the route does, returning the 400's details, or undefined when it parses. */
const refusal = (body: Record<string, unknown>) => {
  try {
    parseInput(submitBodySchema, { url: '/p', ...body }, 'en');
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.code).toBe('invalid_input');
    return { message: error.message, details: error.details ?? {} };
  }
};

describe('submitBodySchema', () => {
  it('refuses a C1 control character in the comment and in the nick', () => {
    for (const c1 of ['\u0080', '\u0085', '\u009b', '\u009f']) {
      expect(refusal({ comment: `a${c1}b` })?.details.comment, JSON.stringify(c1)).toBe(
        'must not contain control characters other than tab, newline and carriage return',
      );
      expect(refusal({ comment: 'x', nick: `Ann${c1}` })?.details.nick, JSON.stringify(c1)).toBe(
        'must not contain control characters',
      );
    }
  });

  it('refuses C0 control characters and DEL in the comment, but for tab, newline and carriage return', () => {
    for (const c0 of ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f']) {
      expect(refusal({ comment: `a${c0}b` })?.details, JSON.stringify(c0)).toHaveProperty('comment');
    }
  });

  it('keeps tab, newline and carriage return in the comment as they were sent', () => {
    const comment = 'line\tone\nline two\r\nline three';

    expect(parseInput(submitBodySchema, { comment, url: '/p' }, 'en').comment).toBe(comment);
  });

  it('refuses a lone surrogate in the comment and in the nick, and keeps a well-formed pair', () => {
    for (const lone of ['\ud800', '\udbff', '\udc00', '\udfff', '😀'.slice(1), '😀'.slice(0, 1)]) {
      expect(refusal({ comment: `a${lone}b` })?.details.comment, JSON.stringify(lone)).toBe(
        'must be well-formed Unicode (no lone surrogates)',
      );
      expect(refusal({ comment: 'x', nick: `Ann${lone}` })?.details.nick, JSON.stringify(lone)).toBe(
        'must be well-formed Unicode (no lone surrogates)',
      );
    }
    expect(refusal({ comment: 'smile 😀', nick: '👩‍👩‍👧' })).toBeUndefined();
  });

  it('takes a comment of exactly 64 KiB and refuses one character more with a message naming comment', () => {
    expect(limits.commentChars).toBe(64 * 1024);
    expect(refusal({ comment: 'x'.repeat(limits.commentChars) })).toBeUndefined();

    const refused = refusal({ comment: 'x'.repeat(limits.commentChars + 1) });

    expect(Object.keys(refused?.details ?? {})).toEqual(['comment']);
    expect(refused?.message).toMatch(/comment: .*65536/);
  });

  it('refuses a blank comment', () => {
    expect(refusal({ comment: ' \n\t ' })?.details.comment).toBe('must not be blank');
  });
});

describe('commentTextSchema', () => {
  it('counts the limit in UTF-16 units, so 64 KiB of CJK text passes and one more does not', () => {
    expect(commentTextSchema.safeParse('中'.repeat(limits.commentChars)).success).toBe(true);
    expect(commentTextSchema.safeParse('中'.repeat(limits.commentChars + 1)).success).toBe(false);
  });
});
