import { describe, expect, it } from 'vitest';
import { createListForModeration } from '../../../../functions/comment/list-for-moderation.js';
import type { CommentStatus, ListedComment } from '../../../../functions/shared/domain/comment.js';
import { routeAnswer } from '../../../support/route-answer.js';
import { testViewer } from '../../../support/viewers.js';

const adminToken = 'Bearer admin-token';

function listed(id: string, status: CommentStatus, mail = `${id.toLowerCase()}@example.com`): ListedComment {
  return {
    id,
    url: '/post',
    nick: `nick-${id}`,
    mail,
    link: '',
    browser: 'Firefox128.0',
    os: 'Linux',
    orig: `text of ${id}`,
    html: `<p>text of ${id}</p>`,
    status,
    like: 0,
    sticky: false,
    insertedAt: 1_700_000_000_000,
    ipHash: `ip-hash-of-${id}`,
  };
}

/** The route over fakes of its dependencies, recording what it asks the queues for. */
function moderationRoute(
  sizes: Record<CommentStatus, number>,
  queues: Record<CommentStatus, ListedComment[]>,
) {
  const calls: string[] = [];
  const route = createListForModeration({
    viewer: async (authorization) =>
      authorization === adminToken ? testViewer('admin-1', 'Admin@Site.example') : undefined,
    moderation: {
      queueSizes: async () => {
        calls.push('queueSizes');
        return sizes;
      },
      listByStatus: async (status) => {
        calls.push(`listByStatus ${status}`);
        return queues[status];
      },
      pageByStatus: async (statuses, first, count) => {
        calls.push(`pageByStatus ${statuses.join(',')} ${first} ${count}`);
        return statuses
          .flatMap((status) => queues[status])
          .sort((a, b) => (a.id < b.id ? 1 : -1))
          .slice(first, first + count);
      },
    },
    presentation: { avatarFor: () => 'https://avatar.example/a', showUserAgent: true },
  });
  const list = async (query: string) => {
    const answer = await routeAnswer(route, {
      path: '/api/comment',
      query: `type=list&${query}`,
      headers: { authorization: adminToken },
    });
    return answer.body as { data: { totalPages: number; data: { objectId: string }[] } };
  };
  return { list, calls };
}

const queues: Record<CommentStatus, ListedComment[]> = {
  approved: [listed('01D', 'approved'), listed('01A', 'approved', 'admin@site.example')],
  waiting: [listed('01E', 'waiting'), listed('01B', 'waiting')],
  spam: [listed('01C', 'spam')],
};

describe('createListForModeration', () => {
  it('shows why each comment was held, as a code and in words in the asked language, and nothing for one without', async () => {
    const held = { ...listed('01F', 'waiting'), heldBecause: 'first_comment' as const };
    const spam = { ...listed('01G', 'spam'), heldBecause: 'word_rule' as const };
    const { list } = moderationRoute(
      { approved: 0, waiting: 2, spam: 1 },
      { approved: [], waiting: [held, listed('01B', 'waiting')], spam: [spam] },
    );

    const english = (await list('status=waiting')).data.data;
    const chinese = (await list('status=spam&lang=zh-CN')).data.data;

    expect(english).toEqual([
      expect.objectContaining({
        objectId: '01F',
        heldBecause: 'first_comment',
        heldReason: 'first comment from this address (COMMENT_AUDIT=first)',
      }),
      expect.not.objectContaining({ heldBecause: expect.anything() }),
    ]);
    expect(english[1]).not.toHaveProperty('heldReason');
    expect(chinese).toEqual([
      expect.objectContaining({
        heldBecause: 'word_rule',
        heldReason: '正文、昵称或网址中含有违禁词（FORBIDDEN_WORDS）',
      }),
    ]);
  });

  it('reads a plain page as keys and the page itself, never whole queues, and counts pages from the counters', async () => {
    const { list, calls } = moderationRoute({ approved: 2, waiting: 2, spam: 1 }, queues);

    const body = await list('page=2&pageSize=2');

    expect(body.data.data.map((comment) => comment.objectId)).toEqual(['01C', '01B']);
    expect(body.data.totalPages).toBe(3);
    expect(calls.sort()).toEqual(['pageByStatus approved,waiting,spam 2 2', 'queueSizes']);
  });

  it('reads the counters first for a deep page, and no comment at all for one past the end', async () => {
    const { list, calls } = moderationRoute({ approved: 2, waiting: 2, spam: 1 }, queues);

    const body = await list('page=20000&pageSize=10&status=waiting');

    expect(body.data.data).toEqual([]);
    expect(body.data.totalPages).toBe(1);
    expect(calls).toEqual(['queueSizes']);
  });

  it('reads a deep page within the list after the counters', async () => {
    const { list, calls } = moderationRoute({ approved: 0, waiting: 0, spam: 5000 }, queues);

    await list('page=101&pageSize=10&status=spam');

    expect(calls).toEqual(['queueSizes', 'pageByStatus spam 1000 10']);
  });

  it('searches whole queues, and pages and counts what matches', async () => {
    const { list, calls } = moderationRoute({ approved: 2, waiting: 2, spam: 1 }, queues);

    const mine = await list('owner=mine');
    const keyword = await list('keyword=TEXT%20OF%2001B&status=waiting');

    expect(mine.data.data.map((comment) => comment.objectId)).toEqual(['01A']);
    expect(mine.data.totalPages).toBe(1);
    expect(keyword.data.data.map((comment) => comment.objectId)).toEqual(['01B']);
    expect(calls.filter((call) => call.startsWith('pageByStatus'))).toEqual([]);
    expect(calls).toContain('listByStatus spam');
  });
});
