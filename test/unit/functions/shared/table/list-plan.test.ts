import { describe, expect, it } from 'vitest';
import { limits } from '../../../../../functions/shared/domain/limits.js';
import type { RangeRead } from '../../../../../functions/shared/table/article-comments.js';
import {
  nextReads,
  type PagePlan,
  type PageShape,
  type PartRead,
  partKey,
  planPage,
  planRootKeys,
  type PlannedRead,
  type Progress,
  recordReads,
  startProgress,
} from '../../../../../functions/shared/table/list-plan.js';

const shape = (extra: Partial<PageShape> = {}): PageShape => ({
  url: '/p',
  page: 1,
  pageSize: 10,
  sortBy: 'insertedAt_desc',
  withHeld: false,
  ...extra,
});
const keysOf = (...ids: string[]) => ids.map((id) => ({ id, like: 0 }));
/** A plan read by hand: the page's roots, its parts, the span and each thread's share of replies. */
const plan = (extra: Partial<PagePlan> = {}): PagePlan => ({
  rootIds: ['01C', '01B', '01A'],
  parts: ['visible'],
  spanned: [],
  replies: 10,
  ...extra,
});
/** The sort-key range of one thread's part, as keys.ts writes it. */
const visibleRange = (id: string) => ({ from: `C#${id}`, to: `C#${id}#\uffff` });
const heldRange = (id: string) => ({ from: `H#${id}#`, to: `H#${id}#\uffff` });
/** A comment item as the reads project it: a root names itself, a reply its root. */
const item = (id: string, extra: { rid?: string; chars?: number } = {}) => ({
  commentId: id,
  ...(extra.rid ? { rid: extra.rid } : {}),
  orig: 'x'.repeat(extra.chars ?? 1),
  html: '',
});
/** Progress after a first round that read `parts` and spent `chars`, judging by `largest`. */
const after = (
  parts: Record<string, PartRead>,
  budget: { chars: number; largest: number } = { chars: 0, largest: 1 },
): Progress => ({ rounds: 1, parts: new Map(Object.entries(parts)), budget });
const complete = (...items: Record<string, unknown>[]): PartRead => ({ items, more: false });

describe('planRootKeys', () => {
  it("reads a visitor's approved roots, pinned and not, up to the page's end, beside the counters", () => {
    expect(planRootKeys(shape({ page: 3 }))).toEqual({
      pinned: ['R#approved#pinned#/p'],
      flow: ['R#approved#flow#/p'],
      limit: 30,
      before: 20,
      countersFirst: false,
    });
  });

  it("reads an administrator's waiting and spam roots too", () => {
    const keys = planRootKeys(shape({ withHeld: true }));

    expect([keys.pinned, keys.flow]).toEqual([
      ['R#approved#pinned#/p', 'R#waiting#pinned#/p', 'R#spam#pinned#/p'],
      ['R#approved#flow#/p', 'R#waiting#flow#/p', 'R#spam#flow#/p'],
    ]);
  });

  it('reads the counters first when listDeepPageKeys roots or more come before the page', () => {
    const deep = limits.listDeepPageKeys / 10;

    expect(planRootKeys(shape({ page: deep })).countersFirst).toBe(false);
    expect(planRootKeys(shape({ page: deep + 1 })).countersFirst).toBe(true);
  });
});

describe('planPage', () => {
  it("spans a time-sorted page's roots but a pinned one far from them, and shares the first read's replies", () => {
    // Page 1 of 3, newest first: the pinned 01B (older than the others), then 01I, 01G.
    const roots = { pinned: keysOf('01B'), flow: keysOf('01I', '01G', '01E') };

    expect(planPage(shape({ pageSize: 3 }), roots)).toEqual({
      rootIds: ['01B', '01I', '01G'],
      parts: ['visible'],
      spanned: ['01I', '01G'],
      replies: 33,
    });
  });

  it('spans nothing of a page sorted by likes, and reads the held part for an administrator', () => {
    const roots = { pinned: [], flow: keysOf('01B', '01A') };

    expect(planPage(shape({ sortBy: 'like_desc', withHeld: true, page: 2, pageSize: 1 }), roots)).toEqual({
      rootIds: ['01A'],
      parts: ['visible', 'held'],
      spanned: [],
      replies: limits.listFirstReadReplies,
    });
  });

  it('gives each thread at least one reply of the first read, however large the page', () => {
    const ids = Array.from({ length: limits.pageSizeMax }, (_, i) => `01${String(i).padStart(3, '0')}`);

    expect(
      planPage(shape({ pageSize: limits.pageSizeMax }), { pinned: [], flow: keysOf(...ids) }).replies,
    ).toBe(1);
  });
});

describe('nextReads', () => {
  it("reads a time-sorted page's threads by one Query of their span, its roots and the first read's replies", () => {
    expect(nextReads(plan({ spanned: ['01C', '01B', '01A'] }), startProgress)).toEqual([
      {
        kind: 'span',
        part: 'visible',
        rootIds: ['01C', '01B', '01A'],
        range: { from: 'C#01A', to: 'C#01C#\uffff' },
        limit: 3 + limits.listFirstReadReplies,
      },
    ]);
  });

  it("reads an administrator's held replies by a second span, and a pinned root outside the span alone beside them", () => {
    const reads = nextReads(
      plan({ rootIds: ['01P', '01C', '01B'], parts: ['visible', 'held'], spanned: ['01C', '01B'] }),
      startProgress,
    );

    expect(reads).toEqual([
      { kind: 'thread', part: 'visible', rootId: '01P', range: visibleRange('01P'), limit: 11 },
      { kind: 'thread', part: 'held', rootId: '01P', range: heldRange('01P'), limit: 10 },
      {
        kind: 'span',
        part: 'visible',
        rootIds: ['01C', '01B'],
        range: { from: 'C#01B', to: 'C#01C#\uffff' },
        limit: 2 + limits.listFirstReadReplies,
      },
      {
        kind: 'span',
        part: 'held',
        rootIds: ['01C', '01B'],
        range: { from: 'H#01B#', to: 'H#01C#\uffff' },
        limit: limits.listFirstReadReplies,
      },
    ]);
  });

  it('reads the first listFirstWaveReads threads of a page sorted by likes alone, with nothing read yet to judge by', () => {
    const rootIds = Array.from({ length: 12 }, (_, i) => `01${String.fromCharCode(65 + i)}`);

    const reads = nextReads(plan({ rootIds, replies: 8 }), startProgress);

    expect(reads).toEqual(
      rootIds.slice(0, limits.listFirstWaveReads).map((rootId) => ({
        kind: 'thread',
        part: 'visible',
        rootId,
        range: visibleRange(rootId),
        limit: 9,
      })),
    );
  });

  it('reads the roots a span did not reach on their own, never the span again', () => {
    // The span stopped (at 1 MB) in the thread of a root not on the page: it reached none of the page's.
    const reads = nextReads(plan({ spanned: ['01C', '01B', '01A'] }), after({}));

    expect(reads).toEqual(
      ['01C', '01B', '01A'].map((rootId) => ({
        kind: 'thread',
        part: 'visible',
        rootId,
        range: visibleRange(rootId),
        limit: 11,
      })),
    );
  });

  it('reads the threads not read yet, in page order, as many at once as the budget holds at the largest comment read', () => {
    const fifth = limits.listReadChars / 5;
    // Two fifths read, the largest comment a fifth: a thread (a root and 10 replies) may bring 11 fifths,
    // more than is left, so one at a time.
    const progress = after(
      { [partKey('01A', 'visible')]: complete(item('01A')) },
      { chars: 2 * fifth, largest: fifth },
    );

    expect(nextReads(plan(), progress)).toEqual([
      { kind: 'thread', part: 'visible', rootId: '01C', range: visibleRange('01C'), limit: 11 },
    ]);
    // Comments of 1,000 characters: every thread left at once.
    expect(nextReads(plan(), { ...progress, budget: { chars: 2 * fifth, largest: 1000 } })).toHaveLength(2);
  });

  it('reads every thread not read yet at once without texts once the budget is spent: the root and one reply more', () => {
    const progress = after(
      { [partKey('01A', 'visible')]: complete(item('01A')) },
      { chars: limits.listReadChars, largest: 1 },
    );

    expect(nextReads(plan({ parts: ['visible', 'held'] }), progress)).toEqual([
      { kind: 'shell', part: 'visible', rootId: '01C', range: visibleRange('01C'), limit: 2 },
      { kind: 'shell', part: 'held', rootId: '01C', range: heldRange('01C'), limit: 1 },
      { kind: 'shell', part: 'visible', rootId: '01B', range: visibleRange('01B'), limit: 2 },
      { kind: 'shell', part: 'held', rootId: '01B', range: heldRange('01B'), limit: 1 },
      { kind: 'shell', part: 'held', rootId: '01A', range: heldRange('01A'), limit: 1 },
    ]);
  });

  it('reads on one part at a time, in page order, visible before held, once each, from where its first read stopped', () => {
    const stopped = (sk: string, ...items: Record<string, unknown>[]): PartRead => ({
      items,
      more: true,
      next: { pk: 'URL#/p', sk },
    });
    const parts: Record<string, PartRead> = {
      [partKey('01C', 'visible')]: complete(item('01C')),
      [partKey('01C', 'held')]: stopped('H#01C#01CA', item('01CA', { rid: '01C' })),
      [partKey('01B', 'visible')]: stopped('C#01B#01BB', item('01B'), item('01BB', { rid: '01B' })),
      [partKey('01B', 'held')]: stopped('H#01B#01BA', item('01BA', { rid: '01B' })),
      // Stopped by the budget without texts: nothing to go on from.
      [partKey('01A', 'visible')]: { items: [item('01A')], more: true, withoutText: true },
      [partKey('01A', 'held')]: complete(),
    };
    const page = plan({ parts: ['visible', 'held'] });
    /** Part `key` read on once, with more still to read. */
    const readOn = (progress: Record<string, PartRead>, key: string) => ({
      ...progress,
      [key]: { ...stopped('further'), readOn: true as const },
    });
    const onceHeld = readOn(parts, partKey('01C', 'held'));

    expect(nextReads(page, after(parts))).toEqual([
      {
        kind: 'further',
        part: 'held',
        rootId: '01C',
        range: heldRange('01C'),
        limit: limits.repliesPerThread - 1,
        after: { pk: 'URL#/p', sk: 'H#01C#01CA' },
      },
    ]);
    expect(nextReads(page, after(onceHeld))).toEqual([
      {
        kind: 'further',
        part: 'visible',
        rootId: '01B',
        range: visibleRange('01B'),
        limit: limits.repliesPerThread + 1 - 2,
        after: { pk: 'URL#/p', sk: 'C#01B#01BB' },
      },
    ]);
    expect(nextReads(page, after(readOn(onceHeld, partKey('01B', 'visible'))))).toEqual([
      {
        kind: 'further',
        part: 'held',
        rootId: '01B',
        range: heldRange('01B'),
        limit: limits.repliesPerThread - 1,
        after: { pk: 'URL#/p', sk: 'H#01B#01BA' },
      },
    ]);
    // Once the budget is spent, nothing more.
    expect(nextReads(page, after(parts, { chars: limits.listReadChars, largest: 1 }))).toEqual([]);
  });

  it('reads no further a thread that stopped at a root and repliesPerThread replies, and then is done', () => {
    const items = Array.from({ length: limits.repliesPerThread + 1 }, (_, i) => item(`01A${i}`));
    const progress = after({
      [partKey('01A', 'visible')]: { items, more: true, next: { pk: 'URL#/p', sk: 'C#01A#01Z' } },
    });

    expect(nextReads(plan({ rootIds: ['01A'] }), progress)).toEqual([]);
  });
});

describe('recordReads', () => {
  it('splits a span read by root, leaving a root it did not reach unread, and spends the budget on all it read', () => {
    const span: PlannedRead = {
      kind: 'span',
      part: 'visible',
      rootIds: ['01C', '01B', '01A'],
      range: { from: 'C#01A', to: 'C#01C#\uffff' },
      limit: 103,
    };
    // 01AZ is a root the span holds but the page does not (held from visitors, say).
    const result: RangeRead = {
      items: [item('01A', { chars: 5 }), item('01AZ', { chars: 7 }), item('01B', { chars: 3 })],
      more: true,
      next: { pk: 'URL#/p', sk: 'C#01B' },
    };

    const progress = recordReads(startProgress, [{ read: span, result }]);

    expect(progress).toEqual({
      rounds: 1,
      parts: new Map([
        [partKey('01A', 'visible'), complete(item('01A', { chars: 5 }))],
        [partKey('01B', 'visible'), { items: [item('01B', { chars: 3 })], more: true, next: result.next }],
      ]),
      budget: { chars: 15, largest: 7 },
    });
  });

  it('keeps of a read without texts the root alone, and whether a reply follows; of a held part, only whether', () => {
    const shell = (rootId: string, part: 'visible' | 'held'): PlannedRead => ({
      kind: 'shell',
      part,
      rootId,
      range: part === 'visible' ? visibleRange(rootId) : heldRange(rootId),
      limit: part === 'visible' ? 2 : 1,
    });
    const reply = item('01AA', { rid: '01A' });

    const progress = recordReads(after({}), [
      // The range ends with the reply: still, the thread has one, left out.
      { read: shell('01A', 'visible'), result: { items: [item('01A'), reply], more: false } },
      { read: shell('01A', 'held'), result: { items: [reply], more: false } },
      { read: shell('01B', 'visible'), result: { items: [item('01B')], more: false } },
      { read: shell('01B', 'held'), result: { items: [], more: false } },
      // DynamoDB stopped after the root: what follows is unknown, maybe a reply.
      { read: shell('01C', 'visible'), result: { items: [item('01C')], more: true } },
    ]);

    expect(progress.parts).toEqual(
      new Map([
        [partKey('01A', 'visible'), { items: [item('01A')], more: true, withoutText: true }],
        [partKey('01A', 'held'), { items: [], more: true, withoutText: true }],
        [partKey('01B', 'visible'), { items: [item('01B')], more: false, withoutText: true }],
        [partKey('01B', 'held'), { items: [], more: false, withoutText: true }],
        [partKey('01C', 'visible'), { items: [item('01C')], more: true, withoutText: true }],
      ]),
    );
    expect(progress.rounds).toBe(2);
  });

  it('adds what a read further brought to the first read, and keeps where it stopped', () => {
    const first: PartRead = { items: [item('01A'), item('01AA')], more: true, next: { sk: 'C#01A#01AA' } };
    const further: PlannedRead = {
      kind: 'further',
      part: 'visible',
      rootId: '01A',
      range: visibleRange('01A'),
      limit: 199,
      after: { sk: 'C#01A#01AA' },
    };

    const progress = recordReads(after({ [partKey('01A', 'visible')]: first }), [
      {
        read: further,
        result: { items: [item('01AB', { chars: 4 })], more: true, next: { sk: 'C#01A#01AB' } },
      },
    ]);

    expect(progress.parts.get(partKey('01A', 'visible'))).toEqual({
      items: [item('01A'), item('01AA'), item('01AB', { chars: 4 })],
      more: true,
      next: { sk: 'C#01A#01AB' },
      readOn: true,
    });
    expect(progress.budget).toEqual({ chars: 4, largest: 4 });
  });
});

describe('a page read by its plan', () => {
  /** The root a read is of, or the roots of a span. */
  const idOf = (read: PlannedRead) => (read.kind === 'span' ? read.rootIds.join(',') : read.rootId);
  /** The rounds of a page's reads (`kind rootId part`), DynamoDB answering each read with `answer`. */
  const rounds = (page: PagePlan, answer: (read: PlannedRead) => RangeRead) => {
    const sent: string[][] = [];
    let progress = startProgress;
    for (let reads = nextReads(page, progress); reads.length > 0; reads = nextReads(page, progress)) {
      sent.push(reads.map((read) => `${read.kind} ${idOf(read)}`));
      progress = recordReads(
        progress,
        reads.map((read) => ({ read, result: answer(read) })),
      );
    }
    return sent;
  };

  it('reads a page of common comments in one round: one Query of its span', () => {
    const page = plan({ spanned: ['01C', '01B', '01A'] });

    expect(rounds(page, () => complete(item('01A'), item('01B'), item('01C')))).toEqual([
      ['span 01C,01B,01A'],
    ]);
  });

  it('reads a page of the largest comments a thread at a time once it knows their size, the rest without texts', () => {
    // 13 roots sorted by likes, each a twelfth of the budget: the first wave reads 10 of them (nothing read
    // yet to judge by), then the budget holds one thread at a time (a root and 10 replies might come).
    const twelfth = Math.ceil(limits.listReadChars / 12);
    const page = plan({ rootIds: Array.from({ length: 13 }, (_, i) => `01${String.fromCharCode(65 + i)}`) });
    const answer = (read: PlannedRead) =>
      complete(item(idOf(read), { chars: read.kind === 'shell' ? 0 : twelfth }));

    expect(rounds(page, answer)).toEqual([
      page.rootIds.slice(0, limits.listFirstWaveReads).map((id) => `thread ${id}`),
      ['thread 01K'],
      ['thread 01L'],
      ['shell 01M'],
    ]);
  });

  it('goes on in the threads that have more, one after another, while the budget lasts', () => {
    const page = plan({ rootIds: ['01A', '01B'] });
    const answer = (read: PlannedRead): RangeRead =>
      read.kind === 'further'
        ? complete(item(`${read.rootId}Z`, { chars: 10 }))
        : { items: [item(idOf(read))], more: true, next: { sk: 'x' } };

    expect(rounds(page, answer)).toEqual([['thread 01A', 'thread 01B'], ['further 01A'], ['further 01B']]);
  });
});
