import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../../functions/shared/domain/account.js';
import type { StoredComment } from '../../../functions/shared/domain/comment.js';
import { keys } from '../../../functions/shared/table/keys.js';
import { signInTestAccount } from '../../support/administrator.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const insertedAt = Date.UTC(2026, 10, 1, 12, 0, 0);

/**
 * Comments by accounts on DynamoDB Local, below the sign-in: the author overlay of every read, and an author's
 * own delete (removed, or a placeholder that keeps the replies) with exact counters.
 */
describe('comments by accounts on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let documents: DynamoDBDocumentClient;
  let sequence = 0;

  /** Stores a comment as the submit would, with `extra` (an account's `userId`, a parent). */
  const store = async (url: string, extra: Partial<StoredComment> = {}) => {
    sequence += 1;
    const id = `01KAUTHOR${String(sequence).padStart(17, '0')}`;
    const comment: StoredComment = {
      id,
      url,
      nick: `Stored ${sequence}`,
      mail: `stored${sequence}@mail.example`,
      link: '',
      ua: 'test',
      ipHash: `ip${sequence}`,
      browser: '',
      os: '',
      orig: `text ${sequence}`,
      html: `<p>text ${sequence}</p>`,
      status: 'approved',
      like: 0,
      sticky: false,
      insertedAt: insertedAt + sequence,
      ...extra,
    };
    const result = await api.services.comments.insert(comment, { contentHash: `hash-${id}` });
    expect(result).toEqual({ ok: true });
    return comment;
  };
  /** Puts an account item as the account store keeps it (its profile attributes, and a secret never read). */
  const putAccount = (id: string, profile: Record<string, unknown>) =>
    documents.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...keys.account(id),
          entity: 'account',
          id,
          email: `${id}@mail.example`,
          type: 'guest',
          state: 'active',
          passwordHash: 'scrypt$secret',
          sessionVersion: 1,
          createdAt: 0,
          ...profile,
        },
      }),
    );
  const list = async (path: string) =>
    (await api.call({ path: '/api/comment', query: `path=${encodeURIComponent(path)}` })).body.data;
  const count = async (path: string) =>
    (await api.call({ path: '/api/comment', query: `type=count&url=${encodeURIComponent(path)}` })).body
      .data[0];
  const siteCount = async () => (await api.call({ path: '/api/comment', query: 'type=count' })).body.data;

  beforeAll(async () => {
    table = await createTestTable();
    // Every read afresh: a profile change shows at once (the cache's lifetime is tested on its own).
    api = createLocalApi(table, { LIST_CACHE_MS: '0' });
    documents = DynamoDBDocumentClient.from(table.client);
  });
  afterAll(() => table.drop());

  it("shows each account comment with user_id and its author's current profile, old comments included", async () => {
    await putAccount('acct-gina', { displayName: 'Gina', link: 'https://gina.example', label: 'Regular' });
    const root = await store('/authors/overlay', { userId: 'acct-gina', nick: 'Gina at the time' });
    await store('/authors/overlay', { pid: root.id, rid: root.id });

    const before = await list('/authors/overlay');
    expect(before.data[0]).toMatchObject({
      objectId: root.id,
      nick: 'Gina',
      link: 'https://gina.example',
      type: 'guest',
      label: 'Regular',
      user_id: 'acct-gina',
    });
    expect(before.data[0].children[0]).not.toHaveProperty('user_id');
    expect(before.data[0].children[0].reply_user).toMatchObject({ nick: 'Gina' });
    expect(JSON.stringify(before)).not.toContain('mail.example');

    await documents.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.account('acct-gina'),
        UpdateExpression: 'SET displayName = :name, avatar = :avatar REMOVE label',
        ExpressionAttributeValues: { ':name': 'Gina Renamed', ':avatar': 'https://img.example/gina.png' },
      }),
    );

    const after = await list('/authors/overlay');
    expect(after.data[0]).toMatchObject({
      nick: 'Gina Renamed',
      avatar: 'https://img.example/gina.png',
      user_id: 'acct-gina',
    });
    expect(after.data[0]).not.toHaveProperty('label');
    const recent = (await api.call({ path: '/api/comment', query: 'type=recent&count=10' })).body.data;
    expect(recent.find((comment: { objectId: string }) => comment.objectId === root.id)).toMatchObject({
      nick: 'Gina Renamed',
      user_id: 'acct-gina',
    });
  });

  /** The approved count of an account's level counter (0 when it has none). */
  const approvedOf = async (accountId: string) =>
    Number(
      (
        await documents.send(
          new GetCommand({ TableName: table.tableName, Key: keys.authorCount(`user:${accountId}`) }),
        )
      ).Item?.approved ?? 0,
    );

  it("deletes an author's unanswered comment with its counters, and refuses another account", async () => {
    const path = '/authors/delete-alone';
    const mine = await store(path, { userId: 'acct-del' });
    await store(path);
    const sitesBefore = await siteCount();
    const levelBefore = await approvedOf('acct-del');
    expect(await count(path)).toBe(2);

    expect(await api.services.moderation.removeOwn({ url: path, id: mine.id }, 'acct-other')).toEqual({
      outcome: 'refused',
      refusal: 'not-author',
    });
    expect(await count(path)).toBe(2);
    expect(await api.services.moderation.removeOwn({ url: path, id: mine.id }, 'acct-del')).toEqual({
      outcome: 'deleted',
    });

    expect(await count(path)).toBe(1);
    expect(await siteCount()).toBe(sitesBefore - 1);
    expect(await approvedOf('acct-del')).toBe(levelBefore - 1);
    expect((await list(path)).data.map((c: { objectId: string }) => c.objectId)).not.toContain(mine.id);
    const mark = await documents.send(
      new GetCommand({ TableName: table.tableName, Key: keys.duplicate(path, `hash-${mine.id}`) }),
    );
    expect(mark.Item).toBeUndefined();
  });

  it('refuses an edit read before the placeholder was made, and one read before another edit: no text comes back', async () => {
    const path = '/authors/edit-race';
    const mine = await store(path, { userId: 'acct-race' });
    await store(path, { pid: mine.id, rid: mine.id });
    const { moderation } = api.services;
    const readFirst = await moderation.get({ url: path, id: mine.id });
    const readSecond = await moderation.get({ url: path, id: mine.id });
    if (!readFirst || !readSecond) throw new Error('the comment was not stored');

    // Two edits of the text as read: the second finds another text, and writes nothing.
    expect(
      await moderation.moderate(readFirst, { text: { orig: 'edit one', html: '<p>edit one</p>' } }),
    ).toBe(true);
    expect(
      await moderation.moderate(readSecond, { text: { orig: 'edit two', html: '<p>edit two</p>' } }),
    ).toBe(false);
    // An edit read before its author's delete made the placeholder.
    const beforeDelete = await moderation.get({ url: path, id: mine.id });
    if (!beforeDelete) throw new Error('the comment is gone');
    expect(await moderation.removeOwn({ url: path, id: mine.id }, 'acct-race')).toEqual({
      outcome: 'placeholder',
    });
    expect(await moderation.moderate(beforeDelete, { text: { orig: 'back', html: '<p>back</p>' } })).toBe(
      false,
    );

    const stored = await documents.send(
      new GetCommand({ TableName: table.tableName, Key: keys.root(path, mine.id) }),
    );
    expect(stored.Item).toMatchObject({ orig: '[deleted]', html: '<p>[deleted]</p>' });
  });

  it("refuses an author's edit that moves a reply, read before the placeholder, or of a comment no longer theirs", async () => {
    const path = '/authors/edit-race-move';
    const root = await store(path);
    const mine = await store(path, { userId: 'acct-move', pid: root.id, rid: root.id });
    await store(path, { pid: mine.id, rid: root.id });
    const { moderation } = api.services;
    const before = await moderation.get({ url: path, id: mine.id, rid: root.id });
    if (!before) throw new Error('the reply was not stored');
    expect(await moderation.removeOwn({ url: path, id: mine.id, rid: root.id }, 'acct-move')).toEqual({
      outcome: 'placeholder',
    });

    // The filters hold the new text: the reply would move from visible to held.
    const held = {
      text: { orig: 'back', html: '<p>back</p>' },
      status: 'waiting' as const,
      ownerId: 'acct-move',
    };
    expect(await moderation.moderate(before, held)).toBe(false);
    // Taken from its author with its text kept (an erase's anonymising): the author's edit is refused.
    const other = await store(path, { userId: 'acct-move' });
    const read = await moderation.get({ url: path, id: other.id });
    if (!read) throw new Error('the comment was not stored');
    await documents.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.root(path, other.id),
        UpdateExpression: 'REMOVE userId',
      }),
    );
    const edit = { text: { orig: 'still mine?', html: '<p>still mine?</p>' }, ownerId: 'acct-move' };
    expect(await moderation.moderate(read, edit)).toBe(false);

    const [placeholder, anonymised] = await Promise.all([
      documents.send(
        new GetCommand({ TableName: table.tableName, Key: keys.reply(path, root.id, mine.id, false) }),
      ),
      documents.send(new GetCommand({ TableName: table.tableName, Key: keys.root(path, other.id) })),
    ]);
    expect(placeholder.Item).toMatchObject({ orig: '[deleted]', status: 'approved' });
    expect(anonymised.Item).toMatchObject({ orig: other.orig });
  });

  it("leaves a placeholder that keeps the replies of an author's answered comment, page counters unchanged", async () => {
    const path = '/authors/delete-answered';
    const mine = await store(path, { userId: 'acct-del', nick: 'Del', link: 'https://del.example' });
    const answer = await store(path, { pid: mine.id, rid: mine.id });
    const sitesBefore = await siteCount();
    const levelBefore = await approvedOf('acct-del');

    expect(await api.services.moderation.removeOwn({ url: path, id: mine.id }, 'acct-del')).toEqual({
      outcome: 'placeholder',
    });

    expect(await count(path)).toBe(2);
    expect(await siteCount()).toBe(sitesBefore);
    // The placeholder counts for nobody: its author's level loses it.
    expect(await approvedOf('acct-del')).toBe(levelBefore - 1);
    const [thread] = (await list(path)).data;
    expect(thread).toMatchObject({
      objectId: mine.id,
      comment: '<p>[deleted]</p>',
      orig: '[deleted]',
      nick: '',
      link: '',
    });
    expect(thread).not.toHaveProperty('user_id');
    expect(thread.children.map((c: { objectId: string }) => c.objectId)).toEqual([answer.id]);
    const stored = await documents.send(
      new GetCommand({ TableName: table.tableName, Key: keys.root(path, mine.id) }),
    );
    expect(stored.Item).not.toHaveProperty('userId');
    expect(stored.Item).not.toHaveProperty('ipHash');
    expect(stored.Item).toMatchObject({
      mail: '',
      ua: '',
      status: 'approved',
      deletedAt: expect.any(Number),
    });
    // A placeholder has no author left: deleting it again is refused.
    expect(await api.services.moderation.removeOwn({ url: path, id: mine.id }, 'acct-del')).toEqual({
      outcome: 'refused',
      refusal: 'anonymous-comment',
    });
  });
});

/** The same through the API, signed in with real tokens: posts, edits and deletes by guests. */
describe('comments by signed-in accounts through the API on DynamoDB Local', () => {
  const start = Date.UTC(2026, 10, 2, 9, 0, 0);
  let clock = start;
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let forced: ReturnType<typeof createLocalApi>;
  let gina: { account: Account; authorization: string };
  let other: { account: Account; authorization: string };
  let ip = 0;
  const as = (authorization: string) => ({ authorization });
  const post = (body: Record<string, unknown>, headers: Record<string, string> = {}, through = api) =>
    through.call({ method: 'POST', path: '/api/comment', body, headers, sourceIp: `10.27.0.${++ip}` });
  const list = async (path: string) =>
    (await api.call({ path: '/api/comment', query: `path=${encodeURIComponent(path)}` })).body.data;
  const count = async (path: string) =>
    (await api.call({ path: '/api/comment', query: `type=count&url=${encodeURIComponent(path)}` })).body
      .data[0];

  beforeAll(async () => {
    table = await createTestTable();
    const env = { JWT_TOKEN: 'j'.repeat(40), LIST_CACHE_MS: '0' };
    api = createLocalApi(table, env, { now: () => clock });
    forced = createLocalApi(table, { ...env, LOGIN: 'force' }, { now: () => clock });
    gina = await signInTestAccount(api, {
      type: 'guest',
      email: 'gina@example.com',
      displayName: 'Gina',
      extra: { link: 'https://gina.example' },
    });
    other = await signInTestAccount(api, { type: 'guest', email: 'other@example.com', displayName: 'Other' });
  });
  afterAll(() => table.drop());

  it("stores a guest's post under its account, shows user_id and its profile, and a profile change on it", async () => {
    const posted = await post(
      { comment: 'Hello as Gina', url: '/signed/profile', nick: 'Someone Else', mail: 'else@example.com' },
      as(gina.authorization),
    );
    expect(posted.status).toBe(200);
    expect(posted.body.data).toMatchObject({ user_id: gina.account.id, nick: 'Gina', type: 'guest' });

    expect((await list('/signed/profile')).data[0]).toMatchObject({
      nick: 'Gina',
      link: 'https://gina.example',
      user_id: gina.account.id,
      type: 'guest',
    });
    const update = await api.services.accounts.update(gina.account.id, {
      displayName: 'Gina B.',
      label: 'Regular',
    });
    expect(update.status).toBe('updated');
    expect((await list('/signed/profile')).data[0]).toMatchObject({
      nick: 'Gina B.',
      label: 'Regular',
      user_id: gina.account.id,
    });
  });

  it('lets the author edit within EDIT_WINDOW, not after, and refuses another account', async () => {
    clock = start;
    const posted = await post({ comment: 'first words', url: '/signed/edit' }, as(gina.authorization));
    const id = posted.body.data.objectId;
    const edit = (authorization: string, comment: string) =>
      api.call({
        method: 'PUT',
        path: `/api/comment/${id}`,
        body: { comment, nick: 'Mallory', mail: 'mallory@example.com', link: 'https://evil.example' },
        headers: as(authorization),
      });

    clock = start + 14 * 60_000;
    const edited = await edit(gina.authorization, 'better words');
    expect(edited.status).toBe(200);
    // The account's name, never the body's (which one depends on whether another test renamed it first).
    expect(edited.body.data).toMatchObject({ orig: 'better words', user_id: gina.account.id });
    expect(edited.body.data.nick).toMatch(/^Gina/);

    const refused = await edit(other.authorization, 'not mine');
    expect(refused.status).toBe(403);
    expect(refused.body.errmsg).toMatch(/not yours/);

    clock = start + 16 * 60_000;
    const late = await edit(gina.authorization, 'too late');
    expect(late.status).toBe(403);
    expect(late.body.errmsg).toMatch(/15 minutes/);
    const listed = (await list('/signed/edit')).data[0];
    expect(listed).toMatchObject({ orig: 'better words', user_id: gina.account.id });
    expect(listed.nick).toMatch(/^Gina/);
    clock = start;
  });

  it("deletes the author's comment with and without replies, the counters exact, and refuses another account", async () => {
    const path = '/signed/delete';
    const alone = (await post({ comment: 'alone', url: path }, as(gina.authorization))).body.data.objectId;
    const answered = (await post({ comment: 'answered', url: path }, as(gina.authorization))).body.data
      .objectId;
    const reply = await post(
      { comment: 'a reply', url: path, nick: 'Ann', pid: answered, rid: answered },
      as(other.authorization),
    );
    expect(await count(path)).toBe(3);
    const remove = (id: string, authorization: string) =>
      api.call({ method: 'DELETE', path: `/api/comment/${id}`, headers: as(authorization) });

    expect((await remove(alone, other.authorization)).status).toBe(403);
    expect((await remove(alone, gina.authorization)).status).toBe(200);
    expect(await count(path)).toBe(2);
    expect((await remove(answered, gina.authorization)).status).toBe(200);
    expect(await count(path)).toBe(2);

    const page = await list(path);
    expect(page.data.map((c: { objectId: string }) => c.objectId)).toEqual([answered]);
    expect(page.data[0]).toMatchObject({ orig: '[deleted]', nick: '' });
    expect(page.data[0]).not.toHaveProperty('user_id');
    expect(page.data[0].children.map((c: { objectId: string }) => c.objectId)).toEqual([
      reply.body.data.objectId,
    ]);
  });

  it('refuses a banned account, and under LOGIN=force an anonymous post, storing nothing', async () => {
    const banned = await signInTestAccount(api, { type: 'guest', email: 'soon-banned@example.com' });
    expect((await api.services.accounts.update(banned.account.id, { type: 'banned' })).status).toBe(
      'updated',
    );

    const answer = await post({ comment: 'let me in', url: '/signed/refused' }, as(banned.authorization));
    expect(answer.status).toBe(403);
    expect(answer.body.errmsg).toMatch(/banned/);

    const anonymous = await post({ comment: 'anonymous', url: '/signed/refused', nick: 'Anon' }, {}, forced);
    expect(anonymous).toMatchObject({ status: 401, body: { errno: 401 } });
    expect(anonymous.body.errmsg).toMatch(/^Unauthorized/);
    const signedIn = await post(
      { comment: 'signed in', url: '/signed/refused' },
      as(gina.authorization),
      forced,
    );
    expect(signedIn.status).toBe(200);
    expect(await count('/signed/refused')).toBe(1);
  });
});
