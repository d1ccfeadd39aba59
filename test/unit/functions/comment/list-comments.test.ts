import { describe, expect, it } from 'vitest';
import { createListComments } from '../../../../functions/comment/list-comments.js';
import type { ListedComment } from '../../../../functions/shared/domain/comment.js';
import type { StoredThread } from '../../../../functions/shared/domain/thread.js';
import type { PageQuery, StoredPage } from '../../../../functions/shared/table/comment-repository.js';
import { routeAnswer } from '../../../support/route-answer.js';
import { testViewer } from '../../../support/viewers.js';

type ListDependencies = Parameters<typeof createListComments>[0];

const adminToken = 'Bearer admin-token';
const insertedAt = Date.UTC(2026, 0, 2, 3, 4, 5);

/** A comment as storage lists it, with the private fields filled in so that a leak would show. */
function listed(id: string, extra: Partial<ListedComment> = {}): ListedComment {
  return {
    id,
    url: '/post',
    nick: `nick-${id}`,
    mail: `${id.toLowerCase()}@private.example`,
    link: `https://${id.toLowerCase()}.example`,
    browser: 'Firefox128.0',
    os: 'Linux',
    orig: `text of ${id}`,
    html: `<p>text of ${id}</p>`,
    status: 'approved',
    like: 0,
    sticky: false,
    insertedAt,
    ipHash: `ip-hash-of-${id}`,
    ...extra,
  };
}

const thread = (root: ListedComment, replies: ListedComment[] = [], moreReplies = false): StoredThread => ({
  root,
  replies,
  moreReplies,
});

/** The list route over fakes of exactly its dependencies; `listPage` answers `page` and records its queries. */
function listRoute(page: StoredPage) {
  const viewerCalls: (string | undefined)[] = [];
  const pageQueries: PageQuery[] = [];
  const dependencies: ListDependencies = {
    viewer: async (authorization) => {
      viewerCalls.push(authorization);
      return authorization === adminToken ? testViewer('admin-1', 'admin@site.example') : undefined;
    },
    comments: {
      listPage: async (query) => {
        pageQueries.push(query);
        return page;
      },
    },
    presentation: { avatarFor: ({ nick }) => `https://avatar.example/${nick}`, showUserAgent: true },
  };
  return { route: createListComments(dependencies), viewerCalls, pageQueries };
}

const emptyPage: StoredPage = { threads: [], roots: 0, comments: 0 };

/** What the widget is shown of `comment`, a root. */
const shown = (comment: ListedComment) => ({
  objectId: comment.id,
  comment: comment.html,
  orig: comment.orig,
  nick: comment.nick,
  link: comment.link,
  avatar: `https://avatar.example/${comment.nick}`,
  browser: comment.browser,
  os: comment.os,
  status: comment.status,
  like: comment.like,
  time: comment.insertedAt,
});

interface ListedBody {
  data: {
    data: { objectId: string; children: { objectId: string }[]; moreReplies?: true; textOmitted?: true }[];
  };
}

describe('createListComments', () => {
  it('asks storage for the path, page, page size and order of the query, without held comments for a visitor', async () => {
    const { route, pageQueries, viewerCalls } = listRoute(emptyPage);

    await routeAnswer(route, {
      path: '/api/comment',
      query: 'path=%2Fpost&page=3&pageSize=5&sortBy=like_desc',
      headers: { authorization: 'Bearer undefined' },
    });

    expect(pageQueries).toEqual([
      expect.objectContaining({ url: '/post', page: 3, pageSize: 5, sortBy: 'like_desc', withHeld: false }),
    ]);
    expect(viewerCalls).toEqual(['Bearer undefined']);
  });

  it('asks for page 1 of 10, newest first, when the query names only the path', async () => {
    const { route, pageQueries } = listRoute(emptyPage);

    await routeAnswer(route, { path: '/api/comment', query: 'path=/post' });

    expect(pageQueries).toEqual([
      expect.objectContaining({ url: '/post', page: 1, pageSize: 10, sortBy: 'insertedAt_desc' }),
    ]);
  });

  it('asks for oldest first when the query says create_time', async () => {
    const { route, pageQueries } = listRoute(emptyPage);

    await routeAnswer(route, { path: '/api/comment', query: 'path=/post&sortBy=create_time' });

    expect(pageQueries[0]?.sortBy).toBe('insertedAt_asc');
  });

  it('asks for held comments too when the token resolves an administrator', async () => {
    const { route, pageQueries, viewerCalls } = listRoute(emptyPage);

    await routeAnswer(route, {
      path: '/api/comment',
      query: 'path=/post',
      headers: { authorization: adminToken },
    });

    expect(viewerCalls).toEqual([adminToken]);
    expect(pageQueries[0]?.withHeld).toBe(true);
  });

  it('answers the page in the envelope: page counts from the roots, replies oldest first with whom they answer', async () => {
    const root = listed('01ROOTA', { like: 2, sticky: true });
    const reply = listed('01REPLYB', { pid: '01ROOTA', rid: '01ROOTA' });
    const replyToReply = listed('01REPLYC', { pid: '01REPLYB', rid: '01ROOTA' });
    const secondRoot = listed('01ROOTD');
    const { route } = listRoute({
      threads: [thread(root, [replyToReply, reply]), thread(secondRoot, [], true)],
      roots: 11,
      comments: 30,
    });

    const answer = await routeAnswer(route, { path: '/api/comment', query: 'path=/post&page=2&pageSize=5' });

    expect(answer).toEqual({
      statusCode: 200,
      body: {
        errno: 0,
        errmsg: '',
        data: {
          page: 2,
          totalPages: 3,
          pageSize: 5,
          count: 30,
          data: [
            {
              ...shown(root),
              sticky: true,
              children: [
                {
                  ...shown(reply),
                  pid: '01ROOTA',
                  rid: '01ROOTA',
                  reply_user: {
                    nick: root.nick,
                    link: root.link,
                    avatar: `https://avatar.example/${root.nick}`,
                  },
                },
                {
                  ...shown(replyToReply),
                  pid: '01REPLYB',
                  rid: '01ROOTA',
                  reply_user: {
                    nick: reply.nick,
                    link: reply.link,
                    avatar: `https://avatar.example/${reply.nick}`,
                  },
                },
              ],
            },
            { ...shown(secondRoot), children: [], moreReplies: true },
          ],
        },
      },
    });
  });

  it('answers the v2 client on /comment with the bare page and each comment dated in ISO', async () => {
    const root = listed('01ROOTA');
    const { route } = listRoute({ threads: [thread(root)], roots: 1, comments: 1 });

    const answer = await routeAnswer(route, { path: '/comment', query: 'path=/post' });

    expect(answer).toEqual({
      statusCode: 200,
      body: {
        page: 1,
        totalPages: 1,
        pageSize: 10,
        count: 1,
        data: [{ ...shown(root), insertedAt: '2026-01-02T03:04:05.000Z', children: [] }],
      },
    });
  });

  it.each(['0', '101', 'ten'])(
    'refuses pageSize=%s with a 400 naming pageSize, before reading storage',
    async (size) => {
      const { route, pageQueries } = listRoute(emptyPage);

      const answer = await routeAnswer(route, { path: '/api/comment', query: `path=/post&pageSize=${size}` });

      expect(answer.statusCode).toBe(400);
      expect(answer.body).toMatchObject({ errno: 1001, details: { pageSize: expect.any(String) } });
      expect(pageQueries).toEqual([]);
    },
  );

  it('refuses a path given twice with a 400 naming path', async () => {
    const { route, pageQueries } = listRoute(emptyPage);

    const answer = await routeAnswer(route, { path: '/api/comment', query: 'path=/a&path=/b' });

    expect(answer.statusCode).toBe(400);
    expect(answer.body).toMatchObject({ details: { path: 'must be given once' } });
    expect(pageQueries).toEqual([]);
  });

  it('never shows a mail, an IP hash or a user agent, even to an administrator', async () => {
    const root = { ...listed('01ROOTA'), ua: 'Mozilla/5.0 (root-agent)' };
    const reply = {
      ...listed('01REPLYB', { pid: '01ROOTA', rid: '01ROOTA' }),
      ua: 'Mozilla/5.0 (reply-agent)',
    };
    const { route } = listRoute({ threads: [thread(root, [reply])], roots: 1, comments: 2 });

    const answer = await routeAnswer(route, {
      path: '/api/comment',
      query: 'path=/post',
      headers: { authorization: adminToken },
    });
    const text = JSON.stringify(answer.body);

    expect(text).toContain('01REPLYB');
    expect(text).not.toMatch(/private\.example|ip-hash-of|agent\)|"mail"|"ipHash"|"ua"/);
  });

  it('leaves out the replies past the answer budget, in order, and marks their threads moreReplies', async () => {
    // Each reply is about 1 MB: four fit in the 4 MiB budget, the fifth does not, and nothing after it is tried.
    const big = (id: string) => listed(id, { pid: '01ROOTA', rid: '01ROOTA', html: 'x'.repeat(1_000_000) });
    const bigReplies = ['01REPLY1', '01REPLY2', '01REPLY3', '01REPLY4', '01REPLY5', '01REPLY6'].map(big);
    const smallReply = listed('01REPLYS', { pid: '01ROOTB', rid: '01ROOTB' });
    const { route } = listRoute({
      threads: [thread(listed('01ROOTA'), bigReplies), thread(listed('01ROOTB'), [smallReply])],
      roots: 2,
      comments: 9,
    });

    const answer = await routeAnswer(route, { path: '/api/comment', query: 'path=/post' });
    const [first, second] = (answer.body as ListedBody).data.data;

    expect(answer.statusCode).toBe(200);
    expect(first?.children.map(({ objectId }) => objectId)).toEqual([
      '01REPLY1',
      '01REPLY2',
      '01REPLY3',
      '01REPLY4',
    ]);
    expect(first?.moreReplies).toBe(true);
    expect(second).toMatchObject({ objectId: '01ROOTB', children: [], moreReplies: true });
    expect(second?.textOmitted).toBeUndefined();
  });
});
