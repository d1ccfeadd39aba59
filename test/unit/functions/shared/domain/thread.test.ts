import { describe, expect, it } from 'vitest';
import type { ListedComment } from '../../../../../functions/shared/domain/comment.js';
import { buildThreadPage } from '../../../../../functions/shared/domain/thread.js';

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
const approved = (c: ListedComment) => c.status === 'approved';
const rootIds = (page: ReturnType<typeof buildThreadPage>) => page.threads.map((t) => t.root.id);

describe('buildThreadPage', () => {
  const stored = [
    comment('A', { like: 1 }),
    comment('B', { like: 5 }),
    comment('C', { like: 5 }),
    comment('D', { sticky: true }),
    comment('E', { pid: 'A', rid: 'A' }),
    comment('F', { pid: 'E', rid: 'A' }),
    comment('G', { pid: 'A', rid: 'A', status: 'spam' }),
    comment('H', { status: 'waiting' }),
  ];

  it('puts sticky roots first and then newest first when sorting by insertedAt_desc', () => {
    const page = buildThreadPage(stored, { page: 1, pageSize: 10, sortBy: 'insertedAt_desc' }, approved);
    expect(rootIds(page)).toEqual(['D', 'C', 'B', 'A']);
  });

  it('orders roots oldest first after sticky ones when sorting by insertedAt_asc', () => {
    const page = buildThreadPage(stored, { page: 1, pageSize: 10, sortBy: 'insertedAt_asc' }, approved);
    expect(rootIds(page)).toEqual(['D', 'A', 'B', 'C']);
  });

  it('orders roots by likes, ties newest first, when sorting by like_desc', () => {
    const page = buildThreadPage(stored, { page: 1, pageSize: 10, sortBy: 'like_desc' }, approved);
    expect(rootIds(page)).toEqual(['D', 'C', 'B', 'A']);
  });

  it('keeps replies flat under their root, oldest first, with their parent, in every sort order', () => {
    for (const sortBy of ['insertedAt_desc', 'insertedAt_asc', 'like_desc'] as const) {
      const page = buildThreadPage(stored, { page: 1, pageSize: 10, sortBy }, approved);
      const thread = page.threads.find((t) => t.root.id === 'A');
      expect(thread?.children.map((c) => [c.reply.id, c.parent?.id])).toEqual([
        ['E', 'A'],
        ['F', 'E'],
      ]);
    }
  });

  it('counts every visible comment but pages over visible roots only', () => {
    const page = buildThreadPage(stored, { page: 2, pageSize: 3, sortBy: 'insertedAt_desc' }, approved);
    expect(page.count).toBe(6);
    expect(page.totalPages).toBe(2);
    expect(rootIds(page)).toEqual(['A']);
  });

  it('returns no threads when the page is past the end', () => {
    const page = buildThreadPage(stored, { page: 9, pageSize: 3, sortBy: 'insertedAt_desc' }, approved);
    expect(page.threads).toEqual([]);
    expect(page.totalPages).toBe(2);
  });

  it('leaves out a reply whose parent is not visible from reply_user but keeps it in the thread', () => {
    const withHiddenParent = [
      comment('A'),
      comment('X', { pid: 'A', rid: 'A', status: 'spam' }),
      comment('Y', { pid: 'X', rid: 'A' }),
    ];
    const page = buildThreadPage(
      withHiddenParent,
      { page: 1, pageSize: 10, sortBy: 'insertedAt_desc' },
      approved,
    );
    expect(page.threads[0]?.children.map((c) => [c.reply.id, c.parent?.id])).toEqual([['Y', undefined]]);
  });
});
