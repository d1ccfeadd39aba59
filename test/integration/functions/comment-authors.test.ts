import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComment } from '../../../functions/shared/domain/comment.js';
import { keys } from '../../../functions/shared/table/keys.js';
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

  it("deletes an author's unanswered comment with its counters, and refuses another account", async () => {
    const path = '/authors/delete-alone';
    const mine = await store(path, { userId: 'acct-del' });
    await store(path);
    const sitesBefore = await siteCount();
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
    expect((await list(path)).data.map((c: { objectId: string }) => c.objectId)).not.toContain(mine.id);
    const mark = await documents.send(
      new GetCommand({ TableName: table.tableName, Key: keys.duplicate(path, `hash-${mine.id}`) }),
    );
    expect(mark.Item).toBeUndefined();
  });

  it("leaves a placeholder that keeps the replies of an author's answered comment, counters unchanged", async () => {
    const path = '/authors/delete-answered';
    const mine = await store(path, { userId: 'acct-del', nick: 'Del', link: 'https://del.example' });
    const answer = await store(path, { pid: mine.id, rid: mine.id });
    const sitesBefore = await siteCount();

    expect(await api.services.moderation.removeOwn({ url: path, id: mine.id }, 'acct-del')).toEqual({
      outcome: 'placeholder',
    });

    expect(await count(path)).toBe(2);
    expect(await siteCount()).toBe(sitesBefore);
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
