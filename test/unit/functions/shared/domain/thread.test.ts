import { describe, expect, it } from 'vitest';
import type { ListedComment } from '../../../../../functions/shared/domain/comment.js';
import { sortOrders } from '../../../../../functions/shared/domain/comment-schemas.js';
import {
  mergeRootKeys,
  pageOfRoots,
  pairReplies,
  type RootKey,
  rootOrders,
} from '../../../../../functions/shared/domain/thread.js';

const comment = (id: string, extra: Partial<ListedComment> = {}): ListedComment => ({
  id,
  url: '/p',
  nick: `nick-${id}`,
  mail: '',
  link: '',
  browser: '',
  os: '',
  orig: id,
  html: `<p>${id}</p>`,
  status: 'approved',
  like: 0,
  sticky: false,
  insertedAt: 0,
  ...extra,
});
const root = (id: string, like = 0): RootKey => ({ id, like });
const ids = (roots: readonly RootKey[]) => roots.map((r) => r.id);

describe('rootOrders', () => {
  // Deliberately out of every order; B and C tie on likes.
  const shuffled = [root('01B', 5), root('01D', 0), root('01A', 1), root('01C', 5)];

  it('orders roots newest first by id when sorting by insertedAt_desc', () => {
    expect(ids([...shuffled].sort(rootOrders.insertedAt_desc))).toEqual(['01D', '01C', '01B', '01A']);
  });

  it('orders roots oldest first by id when sorting by insertedAt_asc', () => {
    expect(ids([...shuffled].sort(rootOrders.insertedAt_asc))).toEqual(['01A', '01B', '01C', '01D']);
  });

  it('orders roots by likes, ties newest first, when sorting by like_desc', () => {
    expect(ids([...shuffled].sort(rootOrders.like_desc))).toEqual(['01C', '01B', '01A', '01D']);
  });

  it('compares as a comparator must: negative, zero or positive as the first root goes before, with or after the second', () => {
    const sign = (order: (a: RootKey, b: RootKey) => number, a: RootKey, b: RootKey) =>
      Math.sign(order(a, b));

    expect(sign(rootOrders.insertedAt_asc, root('01A'), root('01B'))).toBe(-1);
    expect(sign(rootOrders.insertedAt_asc, root('01B'), root('01A'))).toBe(1);
    expect(sign(rootOrders.insertedAt_asc, root('01A'), root('01A'))).toBe(0);
    expect(sign(rootOrders.insertedAt_desc, root('01B'), root('01A'))).toBe(-1);
    expect(sign(rootOrders.insertedAt_desc, root('01A'), root('01B'))).toBe(1);
    expect(sign(rootOrders.insertedAt_desc, root('01A'), root('01A'))).toBe(0);
    expect(sign(rootOrders.like_desc, root('01A', 2), root('01B', 1))).toBe(-1);
    expect(sign(rootOrders.like_desc, root('01A', 1), root('01B', 1))).toBe(1);
    expect(sign(rootOrders.like_desc, root('01B', 1), root('01B', 1))).toBe(0);
  });

  it('keeps roots of the same id in the order given, in every order', () => {
    // The same root read from two partitions (its status changed between the reads).
    const first = root('01A', 1);
    const second = root('01A', 1);

    for (const sortBy of sortOrders) {
      const sorted = [first, second].sort(rootOrders[sortBy]);

      expect(sorted[0], sortBy).toBe(first);
      expect(sorted[1], sortBy).toBe(second);
    }
  });

  it('orders ids of different lengths as the index orders their C#<id> keys, in every time order', () => {
    // Imported ids: `12` is a prefix of `123`, and `9` is greater than both as text.
    const imported = [root('9'), root('123'), root('12'), root('A1')];
    const byKey = [...imported].sort((a, b) =>
      Buffer.compare(Buffer.from(`C#${a.id}`), Buffer.from(`C#${b.id}`)),
    );

    expect(ids([...imported].sort(rootOrders.insertedAt_asc))).toEqual(ids(byKey));
    expect(ids([...imported].sort(rootOrders.insertedAt_desc))).toEqual(ids(byKey).reverse());
  });
});

describe('mergeRootKeys', () => {
  it('merges the partitions of each status into one list in the sort order when each arrives in it', () => {
    const approved = [root('01E'), root('01C'), root('01A')];
    const waiting = [root('01F'), root('01B')];
    const spam = [root('01D')];

    expect(ids(mergeRootKeys([approved, waiting, spam], 'insertedAt_desc'))).toEqual([
      '01F',
      '01E',
      '01D',
      '01C',
      '01B',
      '01A',
    ]);
    expect(ids(mergeRootKeys([[...approved].reverse(), [...waiting].reverse()], 'insertedAt_asc'))).toEqual([
      '01A',
      '01B',
      '01C',
      '01E',
      '01F',
    ]);
  });

  it('merges by likes across partitions, a tie going to the newer root', () => {
    const approved = [root('01A', 9), root('01C', 3), root('01B', 0)];
    const waiting = [root('01D', 3), root('01E', 1)];

    expect(ids(mergeRootKeys([approved, waiting], 'like_desc'))).toEqual(['01A', '01D', '01C', '01E', '01B']);
  });

  it('leaves its input lists as they were', () => {
    const approved = [root('01A'), root('01C')];

    mergeRootKeys([approved, [root('01B')]], 'insertedAt_desc');
    expect(ids(approved)).toEqual(['01A', '01C']);
  });

  it('returns an empty list for no partitions or only empty ones', () => {
    for (const sortBy of sortOrders) {
      expect(mergeRootKeys([], sortBy)).toEqual([]);
      expect(mergeRootKeys([[], []], sortBy)).toEqual([]);
    }
  });
});

describe('pageOfRoots', () => {
  const pinned = [root('01P'), root('01Q')];
  const flow = [root('01E'), root('01D'), root('01C'), root('01B'), root('01A')];

  it('puts pinned roots before the rest on the first page', () => {
    expect(ids(pageOfRoots(pinned, flow, { page: 1, pageSize: 3 }))).toEqual(['01P', '01Q', '01E']);
  });

  it('pages on through the rest after the pinned roots', () => {
    expect(ids(pageOfRoots(pinned, flow, { page: 2, pageSize: 3 }))).toEqual(['01D', '01C', '01B']);
    expect(ids(pageOfRoots(pinned, flow, { page: 3, pageSize: 3 }))).toEqual(['01A']);
  });

  it('returns no roots when the page is past the end', () => {
    expect(pageOfRoots(pinned, flow, { page: 9, pageSize: 3 })).toEqual([]);
    expect(pageOfRoots([], [], { page: 1, pageSize: 10 })).toEqual([]);
  });
});

describe('pairReplies', () => {
  it('orders replies oldest first whatever order they were read in, each with the comment it answers', () => {
    // As an administrator's read brings them: visible replies, then held ones.
    const thread = pairReplies({
      root: comment('A'),
      replies: [
        comment('F', { pid: 'E', rid: 'A' }),
        comment('E', { pid: 'A', rid: 'A' }),
        comment('G', { pid: 'A', rid: 'A', status: 'spam' }),
        comment('C', { pid: 'G', rid: 'A', status: 'waiting' }),
      ],
      moreReplies: false,
    });

    expect(thread.root.id).toBe('A');
    expect(thread.children.map((c) => [c.reply.id, c.parent?.id])).toEqual([
      ['C', 'G'],
      ['E', 'A'],
      ['F', 'E'],
      ['G', 'A'],
    ]);
  });

  it('keeps a reply whose parent was not read (held from visitors) without a parent', () => {
    const thread = pairReplies({
      root: comment('A'),
      replies: [comment('Z', { pid: 'Y', rid: 'A' }), comment('Y', { pid: 'X', rid: 'A' })],
      moreReplies: false,
    });

    expect(thread.children.map((c) => [c.reply.id, c.parent?.id])).toEqual([
      ['Y', undefined],
      ['Z', 'Y'],
    ]);
    expect(thread.children[0]).not.toHaveProperty('parent');
  });

  it('keeps a reply that names no parent without one, in its place by id', () => {
    const thread = pairReplies({
      root: comment('A'),
      replies: [comment('C', { pid: 'A', rid: 'A' }), comment('B', { rid: 'A' })],
      moreReplies: false,
    });

    expect(thread.children.map((c) => [c.reply.id, c.parent?.id])).toEqual([
      ['B', undefined],
      ['C', 'A'],
    ]);
    expect(thread.children[0]).not.toHaveProperty('parent');
  });

  it('carries moreReplies over from the read', () => {
    const read = { root: comment('A'), replies: [comment('B', { pid: 'A', rid: 'A' })] };

    expect(pairReplies({ ...read, moreReplies: true }).moreReplies).toBe(true);
    expect(pairReplies({ ...read, moreReplies: false }).moreReplies).toBe(false);
  });

  it('leaves the replies it was given in their order', () => {
    const replies = [comment('C', { pid: 'A', rid: 'A' }), comment('B', { pid: 'A', rid: 'A' })];

    pairReplies({ root: comment('A'), replies, moreReplies: false });
    expect(replies.map((reply) => reply.id)).toEqual(['C', 'B']);
  });
});
