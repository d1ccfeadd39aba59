import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { createNotifiedCommentsReader } from '../../../functions/shared/table/notified-comments.js';
import { signInTestAdministrator } from '../../support/administrator.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const day = 86_400_000;
const rules = {
  JWT_TOKEN: 'j'.repeat(40),
  IPQPS: '0',
  COMMENT_AUDIT: 'first',
  FORBIDDEN_WORDS: 'pills',
  BLOCKED_WORDS: 'casino, 赌博',
  RESTRICTED_NAMES: 'Site Owner',
  READONLY_AGE: '30',
};

describe('the owner rules over the API, on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  /** The administrator's `Authorization`, signed in once for the file: sign-ins are limited per IP. */
  let authorization: string;
  let ip = 0;
  /** Each test writes on pages of its own (tests run in any order on one table). */
  const post = (
    target: ReturnType<typeof createLocalApi>,
    body: Record<string, unknown>,
    options: { headers?: Record<string, string>; query?: string } = {},
  ) =>
    target.call({
      method: 'POST',
      path: '/api/comment',
      body: { nick: 'Ann', mail: 'ann@example.com', ...body },
      headers: options.headers ?? {},
      ...(options.query ? { query: options.query } : {}),
      sourceIp: `10.7.0.${++ip}`,
    });
  const approve = (id: string) =>
    api.call({
      method: 'PUT',
      path: `/api/comment/${id}`,
      body: { status: 'approved' },
      headers: { authorization },
    });
  const moderationList = async (query: string) =>
    (await api.call({ path: '/api/comment', query: `type=list&${query}`, headers: { authorization } })).body
      .data;
  const publicCount = async (path: string) =>
    (await api.call({ path: '/api/comment', query: `type=count&url=${encodeURIComponent(path)}` })).body
      .data[0];

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, rules);
    authorization = await signInTestAdministrator(api);
  });
  afterAll(() => table.drop());

  it("holds an address's first comment under COMMENT_AUDIT=first, and once one is approved lets its next ones out directly", async () => {
    // An address of this test's own: other tests approve the default one, which trusts it.
    const first = await post(api, { comment: 'my first word here', url: '/first', mail: 'gil@example.com' });
    const stranger = await post(api, { comment: 'a stranger speaks', url: '/first', mail: 'cy@example.com' });

    expect(first.body.data.status).toBe('waiting');
    expect(stranger.body.data.status).toBe('waiting');
    expect((await approve(first.body.data.objectId)).status).toBe(200);

    // The address as typed in another case is the same address.
    const second = await post(api, { comment: 'and a second word', url: '/first', mail: 'GIL@example.com' });
    const strangerAgain = await post(api, {
      comment: 'the stranger again',
      url: '/first',
      mail: 'cy@example.com',
    });

    expect(second.body.data.status).toBe('approved');
    expect(strangerAgain.body.data.status).toBe('waiting');
    expect(await publicCount('/first')).toBe(2);
  });

  it("withdraws an address's trust when an administrator marks one of its comments spam", async () => {
    const mail = 'gus@example.com';
    const first = await post(api, { comment: 'gus says hello', url: '/withdrawn', mail });
    await approve(first.body.data.objectId);
    const trusted = await post(api, { comment: 'gus says buy now', url: '/withdrawn', mail });
    expect(trusted.body.data.status).toBe('approved');

    const marked = await api.call({
      method: 'PUT',
      path: `/api/comment/${trusted.body.data.objectId}`,
      body: { status: 'spam' },
      headers: { authorization },
    });
    const after = await post(api, { comment: 'gus says hello again', url: '/withdrawn', mail });

    expect(marked.status).toBe(200);
    expect(after.body.data.status).toBe('waiting');
  });

  it('never trusts an empty or made-up mail, even once a comment with it was approved', async () => {
    const empty = await post(api, { comment: 'no mail at all', url: '/no-mail', mail: '' });
    expect(empty.body.data.status).toBe('waiting');
    expect((await approve(empty.body.data.objectId)).status).toBe(200);

    const emptyAgain = await post(api, { comment: 'still no mail', url: '/no-mail', mail: '' });
    const madeUp = await post(api, { comment: 'a made-up mail', url: '/no-mail', mail: 'me' });
    expect((await approve(madeUp.body.data.objectId)).status).toBe(200);
    const madeUpAgain = await post(api, { comment: 'made up again', url: '/no-mail', mail: 'me' });

    expect([emptyAgain.body.data.status, madeUpAgain.body.data.status]).toEqual(['waiting', 'waiting']);
  });

  it("answers /ui's moderation list with why each comment was held, in words in the asked language", async () => {
    const held = await post(api, { comment: 'why am I held', url: '/why', mail: 'dee@example.com' });
    const spam = await post(api, {
      comment: 'hello there',
      url: '/why',
      nick: 'cheap pills',
      mail: 'eve@example.com',
    });

    const waiting = await moderationList('status=waiting&keyword=why%20am%20I%20held');
    const spamList = await moderationList('status=spam&keyword=cheap%20pills&lang=zh-CN');
    const plain = await moderationList('status=waiting&pageSize=100');

    expect(spam.body.data.status).toBe('spam');
    expect(waiting.data).toEqual([
      expect.objectContaining({
        objectId: held.body.data.objectId,
        heldBecause: 'first_comment',
        heldReason: 'first comment from this address (COMMENT_AUDIT=first)',
      }),
    ]);
    expect(spamList.data).toEqual([
      expect.objectContaining({
        objectId: spam.body.data.objectId,
        heldBecause: 'word_rule',
        heldReason: '正文、昵称或网址中含有违禁词（FORBIDDEN_WORDS）',
      }),
    ]);
    // A plain page (card index, then the texts) reads the reason with the texts.
    expect(plain.data).toContainEqual(
      expect.objectContaining({ objectId: held.body.data.objectId, heldBecause: 'first_comment' }),
    );
    // Never in a public answer: not the poster's, not the page's.
    expect(JSON.stringify(held.body)).not.toContain('first_comment');
    const page = await api.call({ path: '/api/comment', query: 'path=/why' });
    expect(JSON.stringify(page.body)).not.toMatch(/heldBecause|heldReason/);
  });

  it("reads why a comment was held for the owner's waiting mail, and keeps it once approved", async () => {
    const held = await post(api, { comment: 'tell the owner why', url: '/mail', mail: 'fay@example.com' });
    const read = createNotifiedCommentsReader(
      createDocumentClient({ endpoint: table.endpoint }),
      table.tableName,
    );

    expect((await read({ url: '/mail', id: held.body.data.objectId })).comment).toMatchObject({
      status: 'waiting',
      heldBecause: 'first_comment',
    });
    await approve(held.body.data.objectId);
    expect((await read({ url: '/mail', id: held.body.data.objectId })).comment).toMatchObject({
      status: 'approved',
      heldBecause: 'first_comment',
    });
  });

  it.each([
    ['comment', { comment: 'win at the casino' }],
    ['nick', { comment: 'a plain comment', nick: 'Casino Bot' }],
    ['link', { comment: 'another plain comment', link: 'https://casino.example/win' }],
    ['nick', { comment: 'yet another one', nick: '网上赌博' }],
  ])('refuses BLOCKED_WORDS in the %s with a 403 naming it, and stores nothing', async (field, body) => {
    const answer = await post(api, { url: '/blocked', ...body });

    expect(answer.status).toBe(403);
    expect(answer.body.errmsg).toBe(
      `${field}: contains a word this site does not accept; change it and send again.`,
    );
    expect(answer.body.details).toEqual({ [field]: 'contains a blocked word (BLOCKED_WORDS)' });
    expect(await publicCount('/blocked')).toBe(0);
    expect((await moderationList(`keyword=${encodeURIComponent(String(body.comment))}`)).data).toEqual([]);
  });

  it('refuses a RESTRICTED_NAMES nick from a visitor, in any case, but not from a signed-in administrator', async () => {
    const visitor = await post(api, {
      comment: 'I am the owner, honest',
      url: '/names',
      nick: ' site OWNER ',
    });
    const owner = await post(
      api,
      { comment: 'I really am the owner', url: '/names', nick: 'Site Owner', mail: '' },
      { headers: { authorization } },
    );

    expect(visitor.status).toBe(403);
    expect(visitor.body).toMatchObject({
      errmsg: 'nick: this name is reserved on this site; choose another.',
      details: { nick: 'is a restricted name (RESTRICTED_NAMES)' },
    });
    expect(owner.status).toBe(200);
    expect(owner.body.data.status).toBe('approved');
    expect(await publicCount('/names')).toBe(1);
  });

  it('closes an article READONLY_AGE days after its first comment with a 409 and a message, and keeps a fresh one open', async () => {
    let clock = Date.UTC(2026, 0, 1);
    const later = createLocalApi(table, { ...rules, COMMENT_AUDIT: 'false' }, { now: () => clock });

    expect((await post(later, { comment: 'first on the old article', url: '/old' })).status).toBe(200);
    clock += 30 * day;
    const lastDay = await post(later, { comment: 'on its last day', url: '/old' });
    clock += 1;
    const closed = await post(later, { comment: 'one millisecond too late', url: '/old' });
    const chinese = await post(later, { comment: '太晚了', url: '/old' }, { query: 'lang=zh-CN' });
    const fresh = await post(later, { comment: 'first on a new article', url: '/new' });

    expect(lastDay.status).toBe(200);
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({
      errno: 1000,
      errmsg: 'This article is closed to new comments: it has been open for 30 days since its first comment.',
    });
    expect(chinese.body.errmsg).toBe('此文章已关闭评论：自第一条评论起已开放 30 天。');
    expect(fresh.status).toBe(200);
    expect(await publicCount('/old')).toBe(2);
  });

  it('dates an article from its first approved comment: a held one on a url not out yet closes nothing, an approval dates it from its own time', async () => {
    let clock = Date.UTC(2026, 2, 1);
    const held = createLocalApi(table, { ...rules, COMMENT_AUDIT: 'true' }, { now: () => clock });
    const open = createLocalApi(table, { ...rules, COMMENT_AUDIT: 'false' }, { now: () => clock });

    // Anyone may post on the path an article will have: held, it must not start the article's clock.
    const early = await post(held, { comment: 'squatting the next path', url: '/p/124' });
    const waitingFirst = await post(held, { comment: 'held, then approved', url: '/approved-late' });
    expect(early.body.data.status).toBe('waiting');
    expect(waitingFirst.body.data.status).toBe('waiting');
    clock += 60 * day;
    const published = await post(open, { comment: 'the article is out', url: '/p/124' });
    clock += 20 * day;
    const stillOpen = await post(open, { comment: 'twenty days after its first visible one', url: '/p/124' });

    expect(published.status).toBe(200);
    expect(stillOpen.status).toBe(200);

    // Approved 80 days after it was written: the article's 30 days count from the comment, so it is closed.
    expect((await approve(waitingFirst.body.data.objectId)).status).toBe(200);
    const afterApproval = await post(open, { comment: 'after the approval', url: '/approved-late' });

    expect(afterApproval.status).toBe(409);
  });
});
