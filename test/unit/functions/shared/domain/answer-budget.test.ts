import { describe, expect, it } from 'vitest';
import {
  createAnswerBudget,
  quickBound,
  resultBytes,
} from '../../../../../functions/shared/domain/answer-budget.js';

/**
 * What `value` adds to a Lambda proxy result, measured the long way: its JSON is the body, a string
 * inside the JSON of the result, so its quotes and backslashes are escaped a second time.
 */
const measured = (value: unknown) =>
  Buffer.byteLength(JSON.stringify({ body: JSON.stringify(value) })) -
  Buffer.byteLength(JSON.stringify({ body: '' }));

const strings: [string, string][] = [
  ['plain ASCII', 'hello, world'],
  ['quotes', 'she said "hi" and "bye"'],
  ['backslashes', 'C:\\path\\to\\file \\n'],
  ['C0 control characters', '\u0000\u0001\u0008\u001b\u001f'],
  ['tab, newline, carriage return', 'a\tb\nc\r\n'],
  ['DEL and C1', '\u007f\u0085\u009f'],
  ['CJK', '评论很长，中文字符'],
  ['emoji', '😀🎉👩‍👩‍👧'],
  ['lone surrogates', '\ud800x\udfff'],
  ['line and paragraph separators', '\u2028\u2029'],
  ['HTML', '<p>a &amp; b</p>\n'],
  ['empty', ''],
];

const values: [string, unknown][] = [
  ...strings,
  ['a number', -1.7976931348623157e308],
  ['a small number', 5e-324],
  ['booleans and null', [true, false, null]],
  ['an empty object', {}],
  ['an empty array', []],
  ['keys that need escaping', { 'a"b': 1, 'c\\d': '\u0001', 中文: '😀' }],
  [
    'a comment as the list shows it',
    {
      objectId: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      comment: '<p>"quoted" \\ 中文 😀</p>\n',
      orig: '"quoted" \\ 中文 😀\t',
      nick: 'Ann',
      link: 'https://example.com/?a=1&b="2"',
      like: 3,
      time: 1_700_000_000_000,
      sticky: true,
      children: [{ objectId: '01B', comment: '\u0001\u001f', reply_user: { nick: '"', link: '\\' } }],
    },
  ],
];

/** A deterministic stream of strings made of the characters that cost the most. */
function* trickyStrings(count: number): Generator<string> {
  const pieces = ['"', '\\', '\u0001', '\n', 'a', '中', '😀', '\ud800', '\udc00', '\u007f', '\u2028', '/'];
  let seed = 42;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed;
  };
  for (let i = 0; i < count; i++) {
    const length = next() % 40;
    yield Array.from({ length }, () => pieces[next() % pieces.length]).join('');
  }
}

describe('resultBytes', () => {
  it.each(values)('measures %s exactly as the serialised result grows', (_name, value) => {
    expect(resultBytes(value)).toBe(measured(value));
  });

  it('measures strings of the costliest characters exactly', () => {
    for (const text of trickyStrings(500))
      expect(resultBytes(text), JSON.stringify(text)).toBe(measured(text));
  });
});

describe('quickBound', () => {
  it.each(values)('is at least what %s adds to the result', (_name, value) => {
    expect(quickBound(value)).toBeGreaterThanOrEqual(resultBytes(value));
  });

  it('holds for long runs of each costliest character, where the bound is tightest', () => {
    for (const piece of ['\u0000', '\u001f', '"', '\\', '\ud800', '\udfff', '中', '😀']) {
      const text = piece.repeat(10_000);
      expect(quickBound(text), JSON.stringify(piece)).toBeGreaterThanOrEqual(resultBytes(text));
      expect(quickBound({ [text]: text }), JSON.stringify(piece)).toBeGreaterThanOrEqual(
        resultBytes({ [text]: text }),
      );
    }
  });

  it('holds for strings of the costliest characters, alone, in objects and in arrays', () => {
    const texts = [...trickyStrings(500)];
    for (const text of texts) {
      expect(quickBound(text)).toBeGreaterThanOrEqual(resultBytes(text));
      expect(quickBound({ [text]: [text, { text }] })).toBeGreaterThanOrEqual(
        resultBytes({ [text]: [text, { text }] }),
      );
    }
    expect(quickBound(texts)).toBeGreaterThanOrEqual(resultBytes(texts));
  });
});

describe('createAnswerBudget', () => {
  it('takes values while they fit and refuses, counting nothing, one that does not', () => {
    const budget = createAnswerBudget(1000);

    expect(budget.take('a'.repeat(60))).toBe(true);
    expect(budget.take('b'.repeat(2000))).toBe(false);
    // The refused value took nothing: what was left still takes a value that fits it.
    expect(budget.take('c'.repeat(60))).toBe(true);
  });

  it('measures exactly a value whose quick bound does not fit but whose bytes do', () => {
    const text = 'x'.repeat(50);
    expect(quickBound(text)).toBeGreaterThan(100);
    const budget = createAnswerBudget(100);

    expect(budget.take(text)).toBe(true);
    expect(budget.take('y'.repeat(100 - resultBytes(text) - 4))).toBe(true);
    expect(budget.take('z')).toBe(false);
  });

  it('counts forced values even past the limit, after which nothing more is taken', () => {
    const budget = createAnswerBudget(100);

    budget.force('x'.repeat(200));
    expect(budget.take('')).toBe(false);
  });
});
