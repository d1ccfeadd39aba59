import { describe, expect, it } from 'vitest';
import { spanRange, splitSpanRead, threadSpan } from '../../../../../functions/shared/table/thread-span.js';

const roots = (...ids: string[]) => ids.map((id) => ({ id }));
const root = (id: string) => ({ commentId: id });
const reply = (rid: string, id: string) => ({ commentId: id, rid });

describe('threadSpan', () => {
  it('spans the unpinned roots of a page, and the pinned ones whose ids fall between theirs', () => {
    expect(threadSpan(roots('01P', '01Z', '01C', '01B'), new Set(['01P']))).toEqual([
      '01P',
      '01Z',
      '01C',
      '01B',
    ]);
    expect(threadSpan(roots('01P', '01Z', '01C', '01B'), new Set(['01P', '01Z']))).toEqual(['01C', '01B']);
    expect(threadSpan(roots('01C', '01Z', '01B', '01D'), new Set(['01C', '01Z']))).toEqual([
      '01C',
      '01B',
      '01D',
    ]);
  });

  it('spans nothing when the page holds pinned roots only, or nothing at all', () => {
    expect(threadSpan(roots('01P', '01Q'), new Set(['01P', '01Q']))).toEqual([]);
    expect(threadSpan([], new Set())).toEqual([]);
  });
});

describe('spanRange', () => {
  it("runs from the smallest id's thread range to the largest's, whatever the order given", () => {
    expect(spanRange(['01C', '01A', '01B'], 'visible')).toEqual({ from: 'C#01A', to: 'C#01C#\uffff' });
    expect(spanRange(['01C', '01A', '01B'], 'held')).toEqual({ from: 'H#01A#', to: 'H#01C#\uffff' });
  });
});

describe('splitSpanRead', () => {
  it('gives every root its items, complete, when the read reached the end of the span', () => {
    const reads = splitSpanRead(['01A', '01C'], 'visible', {
      items: [root('01A'), reply('01A', '01D'), root('01B'), reply('01B', '01E'), root('01C')],
      more: false,
    });

    expect(Object.fromEntries(reads)).toEqual({
      '01A': { items: [root('01A'), reply('01A', '01D')], more: false },
      '01C': { items: [root('01C')], more: false },
    });
  });

  it('completes the roots the read passed, goes on in the one it stopped in, and leaves out those it did not reach', () => {
    const next = { pk: 'URL#/p', sk: 'C#01B#01E' };

    const reads = splitSpanRead(['01A', '01B', '01C'], 'visible', {
      items: [root('01A'), root('01B'), reply('01B', '01E')],
      more: true,
      next,
    });

    expect(Object.fromEntries(reads)).toEqual({
      '01A': { items: [root('01A')], more: false },
      '01B': { items: [root('01B'), reply('01B', '01E')], more: true, next },
    });
  });

  it("places a stop by its key's range, not by the items read: a held range can hold none of a root", () => {
    // Stopped on a held reply of 01B, a root not on the page: 01A is passed, 01C not reached.
    const reads = splitSpanRead(['01A', '01C'], 'held', {
      items: [reply('01B', '01E')],
      more: true,
      next: { pk: 'URL#/p', sk: 'H#01B#01E' },
    });

    expect(Object.fromEntries(reads)).toEqual({ '01A': { items: [], more: false } });
  });

  it('tells apart the threads of ids of which one begins the other', () => {
    const next = { pk: 'URL#/p', sk: 'C#ab#x' };

    const reads = splitSpanRead(['ab', 'abc'], 'visible', {
      items: [root('ab'), reply('ab', 'x')],
      more: true,
      next,
    });

    expect(Object.fromEntries(reads)).toEqual({
      ab: { items: [root('ab'), reply('ab', 'x')], more: true, next },
    });
  });
});
