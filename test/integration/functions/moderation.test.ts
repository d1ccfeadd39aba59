import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../functions/shared/auth/password.js';
import { hashIp } from '../../../functions/shared/domain/hashing.js';
import { signInTestAdministrator, testAdministrator } from '../../support/administrator.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const jwt = 'j'.repeat(40);
const salt = 'test-salt-0123456789abcdef';

describe('moderation on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  /** The shared administrator's `Authorization`, signed in once for the file: sign-ins are limited per IP. */
  let authorization: string;
  let ip = 0;
  const auth = () => ({ authorization });
  const post = (body: Record<string, unknown>, headers: Record<string, string> = {}, sourceIp?: string) =>
    api.call({ method: 'POST', path: '/api/comment', body, headers, sourceIp: sourceIp ?? `10.1.0.${++ip}` });
  const put = (id: string, body: unknown, headers = auth()) =>
    api.call({ method: 'PUT', path: `/api/comment/${id}`, body, headers });
  const publicList = async (path: string) =>
    (await api.call({ path: '/api/comment', query: `path=${encodeURIComponent(path)}` })).body.data;
  const count = async (path: string) =>
    (await api.call({ path: '/api/comment', query: `type=count&url=${encodeURIComponent(path)}` })).body
      .data[0];
  const siteCount = async () => (await api.call({ path: '/api/comment', query: 'type=count' })).body.data;
  const moderationList = async (query: string) =>
    (await api.call({ path: '/api/comment', query: `type=list&${query}`, headers: auth() })).body.data;
  const ids = (comments: { objectId: string }[]) => comments.map((comment) => comment.objectId);

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, {
      JWT_TOKEN: jwt,
      COMMENT_AUDIT: 'true',
      FORBIDDEN_WORDS: 'casino, 赌博',
      BLOCKED_IP_HASHES: hashIp(salt, '192.0.2.66'),
    });
    authorization = await signInTestAdministrator(api);
  });
  afterAll(() => table.drop());

  it('signs an administrator in with the Waline user shape and a token the widget can use', async () => {
    const wrong = await api.call({
      method: 'POST',
      path: '/api/token',
      body: { email: 'admin@example.com', password: 'nope' },
    });
    const unknown = await api.call({
      method: 'POST',
      path: '/api/token',
      body: { email: 'nobody@example.com', password: 'nope' },
    });
    const right = await api.call({
      method: 'POST',
      path: '/api/token',
      body: { email: 'Admin@Example.com', password: testAdministrator.password },
    });

    expect(wrong).toMatchObject({ status: 401, body: { errno: 401, errmsg: 'Wrong email or password.' } });
    expect(unknown.status).toBe(401);
    expect(right.body.data).toMatchObject({
      objectId: '01ADMIN',
      display_name: 'Admin',
      email: 'admin@example.com',
      type: 'administrator',
    });
    expect(right.body.data).not.toHaveProperty('passwordHash');

    const me = await api.call({
      path: '/token',
      headers: { authorization: `Bearer ${right.body.data.token}` },
    });
    const anonymous = await api.call({ path: '/api/token', headers: { authorization: 'Bearer undefined' } });
    expect(me.body.data).toMatchObject({ objectId: '01ADMIN', type: 'administrator' });
    expect(anonymous.body).toEqual({ errno: 0, errmsg: '', data: {} });
  });

  it('limits sign-in attempts per IP', async () => {
    // A new address each time: the per-account limit (test/integration/functions/sign-in.test.ts) stays out of it.
    const attempt = (i: number) =>
      api.call({
        method: 'POST',
        path: '/api/token',
        body: { email: `guess${i}@example.com`, password: 'guess' },
        sourceIp: '198.51.100.200',
      });
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt(i)).status);

    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  });

  it('holds new comments for approval, shows them to their poster only, and counts them once approved', async () => {
    // Other tests of the file write to the same table: the site-wide answers are compared with their
    // state before this test's comment.
    const recent = async () => (await api.call({ path: '/api/comment', query: 'type=recent' })).body.data;
    const [recentBefore, queueBefore, siteBefore] = [
      await recent(),
      await moderationList('status=waiting'),
      await siteCount(),
    ];

    const posted = await post({ comment: 'please approve me', url: '/audit', nick: 'Newbie' });

    expect(posted.body.data.status).toBe('waiting');
    expect((await publicList('/audit')).count).toBe(0);
    expect(await count('/audit')).toBe(0);
    expect(await recent()).toEqual(recentBefore);
    const queue = await moderationList('status=waiting');
    expect(queue).toMatchObject({
      waitingCount: queueBefore.waitingCount + 1,
      spamCount: queueBefore.spamCount,
    });
    // Newest first: this comment, then the page of the queue as it was.
    expect(ids(queue.data)).toEqual([posted.body.data.objectId, ...ids(queueBefore.data)].slice(0, 10));
    expect(queue.data[0]).toHaveProperty('ipHash');

    const approved = await put(posted.body.data.objectId, { status: 'approved' });

    expect(approved.body.data.status).toBe('approved');
    expect((await publicList('/audit')).count).toBe(1);
    expect(await count('/audit')).toBe(1);
    expect(await siteCount()).toBe(siteBefore + 1);
    expect((await moderationList('status=waiting')).waitingCount).toBe(queueBefore.waitingCount);
  });

  it('lets administrators post approved and unthrottled, and see waiting comments in the page list', async () => {
    const first = await post({ comment: 'admin one', url: '/admin' }, auth(), '10.9.9.9');
    const second = await post({ comment: 'admin two', url: '/admin' }, auth(), '10.9.9.9');
    const visitor = await post({ comment: 'visitor', url: '/admin' });

    expect([first.body.data.status, second.body.data.status]).toEqual(['approved', 'approved']);
    expect(visitor.body.data.status).toBe('waiting');
    expect((await publicList('/admin')).count).toBe(2);
    const asAdmin = (await api.call({ path: '/api/comment', query: 'path=%2Fadmin', headers: auth() })).body
      .data;
    expect(asAdmin.count).toBe(3);
  });

  it('marks spam, pins, edits and deletes with the counters following', async () => {
    const spam = (await post({ comment: 'spam later', url: '/mod', nick: 'S' })).body.data;
    const pinned = (await post({ comment: 'pin me', url: '/mod', nick: 'P' })).body.data;
    const root = (await post({ comment: 'root', url: '/mod', nick: 'R' })).body.data;
    for (const comment of [spam, pinned, root]) await put(comment.objectId, { status: 'approved' });
    const reply = (
      await post({ comment: 'reply', url: '/mod', pid: root.objectId, rid: root.objectId }, auth())
    ).body.data;
    expect(reply.status).toBe('approved');
    const before = await siteCount();
    const spamBefore = (await moderationList('status=spam')).spamCount;
    expect(await count('/mod')).toBe(4);

    await put(spam.objectId, { status: 'spam' });
    expect(await count('/mod')).toBe(3);
    expect(await siteCount()).toBe(before - 1);
    expect((await moderationList('status=spam')).spamCount).toBe(spamBefore + 1);

    await put(pinned.objectId, { sticky: 1 });
    const edited = await put(pinned.objectId, {
      comment: 'pinned **now**',
      nick: 'Admin Overwrite',
      mail: 'admin@example.com',
    });
    expect(edited.body.data).toMatchObject({ orig: 'pinned **now**', nick: 'P', sticky: true });
    expect(edited.body.data.comment).toContain('<strong>now</strong>');
    expect((await publicList('/mod')).data[0].objectId).toBe(pinned.objectId);

    expect(
      (await api.call({ method: 'DELETE', path: `/api/comment/${root.objectId}`, headers: auth() })).status,
    ).toBe(200);
    expect(await count('/mod')).toBe(1);
    expect(await siteCount()).toBe(before - 3);
    const left = await publicList('/mod');
    expect(ids(left.data)).toEqual([pinned.objectId]);
    // The duplicate mark went with the comment: the same text may be posted again.
    expect((await post({ comment: 'root', url: '/mod', nick: 'R' })).status).toBe(200);
  });

  it('keeps page, root and queue counts right through every transition of a root and a reply', async () => {
    const root = (await post({ comment: 'moving root', url: '/moves' })).body.data;
    await put(root.objectId, { status: 'approved' });
    const reply = (
      await post({ comment: 'moving reply', url: '/moves', pid: root.objectId, rid: root.objectId })
    ).body.data;
    const state = async () => {
      const list = await publicList('/moves');
      const queues = await moderationList('status=waiting');
      return {
        count: list.count,
        roots: list.totalPages,
        waiting: queues.waitingCount,
        spam: queues.spamCount,
      };
    };
    const start = await state();
    expect(start.count).toBe(1);

    const steps: Array<[string, string, { count: number; roots: number; waiting: number; spam: number }]> = [
      [reply.objectId, 'spam', { ...start, waiting: start.waiting - 1, spam: start.spam + 1 }],
      [reply.objectId, 'approved', { ...start, count: 2, waiting: start.waiting - 1 }],
      [reply.objectId, 'waiting', start],
      [root.objectId, 'waiting', { ...start, count: 0, roots: 0, waiting: start.waiting + 1 }],
      [root.objectId, 'approved', start],
    ];
    for (const [id, status, expected] of steps) {
      await put(id, { status });
      expect({ id, status, ...(await state()) }).toEqual({ id, status, ...expected });
    }
  });

  it('deletes a reply with the replies that answer it, leaving the rest of the thread', async () => {
    const thread = async (comment: string, parent?: { objectId: string }, root?: { objectId: string }) =>
      (
        await post(
          {
            comment,
            url: '/prune',
            ...(parent ? { pid: parent.objectId, rid: (root ?? parent).objectId } : {}),
          },
          auth(),
        )
      ).body.data;
    const root = await thread('root of prune');
    const middle = await thread('middle', root);
    const answer = await thread('answers middle', middle, root);
    const grandchild = await thread('answers the answer', answer, root);
    const sibling = await thread('sibling', root);

    await api.call({ method: 'DELETE', path: `/api/comment/${middle.objectId}`, headers: auth() });

    const left = ids((await publicList('/prune')).data[0].children);
    expect(left).toEqual([grandchild.objectId, sibling.objectId]);
    expect(await count('/prune')).toBe(3);
  });

  it('removes a waiting comment from its queue when it is deleted', async () => {
    const waiting = (await post({ comment: 'never approved', url: '/gone' })).body.data;
    const before = (await moderationList('status=waiting')).waitingCount;

    await api.call({ method: 'DELETE', path: `/api/comment/${waiting.objectId}`, headers: auth() });

    expect((await moderationList('status=waiting')).waitingCount).toBe(before - 1);
  });

  it('revokes earlier tokens when an administrator is given a new password', async () => {
    // An administrator of its own: the one the other tests sign in as keeps its password.
    const email = 'revoked@example.com';
    await api.services.accounts.create({
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      id: '01REVOKED',
      email,
      displayName: 'Soon Revoked',
      passwordHash: await hashPassword('a long enough password'),
      createdAt: 0,
    });
    const signIn = await api.call({
      method: 'POST',
      path: '/api/token',
      body: { email, password: 'a long enough password' },
      sourceIp: '198.51.100.76',
    });
    const oldToken = signIn.body.data.token;
    const whoIs = async (token: string) =>
      (await api.call({ path: '/token', headers: { authorization: `Bearer ${token}` } })).body.data;
    expect(await whoIs(oldToken)).toMatchObject({ email, type: 'administrator' });
    const target = (await post({ comment: 'revocation target', url: '/revoke' })).body.data;
    await api.services.accounts.update('01REVOKED', {
      passwordHash: await hashPassword('a brand new password'),
      revokeTokens: true,
    });

    const stale = await put(target.objectId, { status: 'approved' }, { authorization: `Bearer ${oldToken}` });

    expect(stale.status).toBe(401);
    expect(await whoIs(oldToken)).toEqual({});
    const fresh = await api.call({
      method: 'POST',
      path: '/api/token',
      body: { email, password: 'a brand new password' },
      sourceIp: '198.51.100.77',
    });
    expect(
      (
        await put(
          target.objectId,
          { status: 'approved' },
          { authorization: `Bearer ${fresh.body.data.token}` },
        )
      ).status,
    ).toBe(200);
  });

  it('refuses moderation to anonymous visitors with 401 and a message', async () => {
    const target = (await post({ comment: 'target', url: '/anon' })).body.data;

    const status = await put(target.objectId, { status: 'approved' }, { authorization: 'Bearer undefined' });
    const removal = await api.call({ method: 'DELETE', path: `/api/comment/${target.objectId}` });
    const list = await api.call({ path: '/api/comment', query: 'type=list' });

    for (const response of [status, removal, list]) {
      expect(response).toMatchObject({ status: 401, body: { errno: 401 } });
      expect(response.body.errmsg).toMatch(/administrator/);
    }
  });

  it('marks comments with a forbidden word as spam and refuses blocked IPs', async () => {
    const casino = await post({ comment: 'Best CASINO online', url: '/filters' });
    const chinese = await post({ comment: '来这里赌博吧', url: '/filters' });
    const blocked = await post({ comment: 'hello', url: '/filters' }, {}, '192.0.2.66');

    expect(casino.body.data.status).toBe('spam');
    expect(chinese.body.data.status).toBe('spam');
    expect(blocked).toMatchObject({ status: 403, body: { errno: 403 } });
  });
});

describe('Akismet on submit', () => {
  let table: TestTable;
  afterAll(() => table.drop());

  it('holds a comment for moderation when Akismet cannot answer, and marks spam when it says so', async () => {
    table = await createTestTable();
    const verdicts = ['unknown', 'spam', 'ham'] as const;
    let next = 0;
    const api = createLocalApi(table, {}, { spamCheck: async () => verdicts[next++] ?? 'ham' });
    const post = (comment: string, sourceIp: string) =>
      api.call({ method: 'POST', path: '/api/comment', body: { comment, url: '/akismet' }, sourceIp });

    const statuses = [
      (await post('one', '10.2.0.1')).body.data.status,
      (await post('two', '10.2.0.2')).body.data.status,
      (await post('three', '10.2.0.3')).body.data.status,
    ];

    expect(statuses).toEqual(['waiting', 'spam', 'approved']);
  });
});
