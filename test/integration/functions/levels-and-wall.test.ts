import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressHasher } from '../../../functions/shared/notify/address-hash.js';
import { authorCountUpdates } from '../../../functions/shared/table/author-count-items.js';
import { keys } from '../../../functions/shared/table/keys.js';
import { signInTestAdministrator } from '../../support/administrator.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const salt = 'test-salt-0123456789abcdef';
const hashAddress = createAddressHasher(salt);

describe('level counters and the user wall on DynamoDB Local', () => {
  let table: TestTable;
  let documents: DynamoDBDocumentClient;
  let api: ReturnType<typeof createLocalApi>;
  let authorization: string;
  let ip = 0;
  const post = (body: Record<string, unknown>) =>
    api.call({ method: 'POST', path: '/api/comment', body, sourceIp: `10.7.0.${++ip}` });
  const moderate = (id: string, status: string) =>
    api.call({ method: 'PUT', path: `/api/comment/${id}`, body: { status }, headers: { authorization } });
  const remove = (id: string) =>
    api.call({ method: 'DELETE', path: `/api/comment/${id}`, headers: { authorization } });
  const counter = async (mail: string) =>
    (
      await documents.send(
        new GetCommand({ TableName: table.tableName, Key: keys.authorCount(`mail:${hashAddress(mail)}`) }),
      )
    ).Item;
  const wall = async (query = '') => api.call({ path: '/api/user', query });
  let text = 0;
  /** Posts a comment (held: COMMENT_AUDIT) and approves it. */
  const approved = async (mail: string, nick: string, url = '/levels') => {
    const posted = await post({ comment: `comment ${++text}`, url, nick, mail, link: '' });
    expect(posted.body.data.status).toBe('waiting');
    expect((await moderate(posted.body.data.objectId, 'approved')).status).toBe(200);
    return posted.body.data.objectId as string;
  };

  beforeAll(async () => {
    table = await createTestTable();
    documents = DynamoDBDocumentClient.from(table.client);
    api = createLocalApi(table, {
      JWT_TOKEN: 'j'.repeat(40),
      COMMENT_AUDIT: 'true',
      LEVELS: '0,2,3',
      LIST_CACHE_MS: '0',
      IPQPS: '0',
    });
    authorization = await signInTestAdministrator(api);
  });
  afterAll(() => table.drop());

  it('keeps each author count exact through approve, unapprove, spam and delete, and the wall place with it', async () => {
    const first = await approved('ann@example.com', 'Ann');
    const second = await approved('ann@example.com', 'Ann');
    // One address however it is typed: the counter is keyed by the normalised address's keyed hash.
    const third = await approved(' Ann@Example.COM', 'Ann B.');
    const held = await post({
      comment: 'still waiting',
      url: '/levels',
      nick: 'Ann',
      mail: 'ann@example.com',
    });
    await approved('bob@example.com', 'Bob');
    await post({ comment: 'no address', url: '/levels', nick: 'Nobody', mail: '' }).then(({ body }) =>
      moderate(body.data.objectId, 'approved'),
    );

    const ann = await counter('ann@example.com');
    expect(ann).toMatchObject({
      approved: 3,
      likeSort: 3,
      rootsPk: 'WALL',
      entity: 'author-count',
      nick: 'Ann B.',
    });
    expect(JSON.stringify(ann)).not.toContain('example.com');
    expect(await counter('bob@example.com')).toMatchObject({ approved: 1, likeSort: 1 });

    // The held comment counts only once approved; unapprove, spam and delete each take one away, once.
    expect((await moderate(held.body.data.objectId, 'approved')).status).toBe(200);
    expect(await counter('ann@example.com')).toMatchObject({ approved: 4, likeSort: 4 });
    await moderate(first, 'waiting');
    await moderate(first, 'spam');
    expect(await counter('ann@example.com')).toMatchObject({ approved: 3, likeSort: 3 });
    await moderate(first, 'approved');
    await moderate(second, 'spam');
    expect(await counter('ann@example.com')).toMatchObject({ approved: 3, likeSort: 3 });
    await remove(third);
    await remove(second);
    expect(await counter('ann@example.com')).toMatchObject({ approved: 2, likeSort: 2 });

    // Each listed comment carries its author's level under LEVELS, from the counters.
    const list = (await api.call({ path: '/api/comment', query: 'path=/levels' })).body.data.data as {
      nick: string;
      level: number;
    }[];
    // Ann has 2 approved comments (level 1 under 0,2,3), Bob 1 (level 0), the comment without an address 0.
    expect(list.map(({ nick, level }) => [nick, level]).sort()).toEqual(
      [
        ['Ann', 1],
        ['Ann', 1],
        ['Bob', 0],
        ['Nobody', 0],
      ].sort(),
    );

    // The wall: most first, bounded by pageSize, in Waline's shape, without a mail.
    const answer = await wall('pageSize=5');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      { count: 2, level: 1, nick: 'Ann', link: '', avatar: expect.stringMatching(/^https:\/\//) },
      { count: 1, level: 0, nick: 'Bob', link: '', avatar: expect.stringMatching(/^https:\/\//) },
    ]);
    expect(JSON.stringify(answer.body)).not.toContain('example.com');
    expect((await wall('pageSize=1')).body.data.map(({ nick }: { nick: string }) => nick)).toEqual(['Ann']);
    // The v2 widget's path answers the list bare.
    expect((await api.call({ path: '/user', query: 'pageSize=1' })).body).toHaveLength(1);
    expect((await wall('pageSize=51')).status).toBe(400);
    expect((await wall('pageSize=0')).status).toBe(400);
  });

  it("shows an account's current profile and label, escaped, and leaves a banned account off", async () => {
    // A table of its own: the other test's authors are not on this wall.
    const own = await createTestTable();
    const ownDocuments = DynamoDBDocumentClient.from(own.client);
    const ownApi = createLocalApi(own, { LEVELS: '0,2,3', LIST_CACHE_MS: '0' });
    const account = (id: string, extra: Record<string, unknown>) =>
      ownDocuments.send(
        new PutCommand({
          TableName: own.tableName,
          Item: {
            ...keys.account(id),
            entity: 'account',
            id,
            email: `${id}@example.com`,
            displayName: `<b>${id}</b>`,
            type: 'guest',
            state: 'active',
            passwordHash: 'x',
            sessionVersion: 1,
            createdAt: 1,
            ...extra,
          },
        }),
      );
    await account('01CAROL', {
      label: 'Editor',
      link: 'https://carol.example',
      avatar: 'https://carol.example/a.png',
    });
    await account('01MALLORY', { type: 'banned' });
    const count = (id: string, delta: number) =>
      ownDocuments.send(
        new TransactWriteCommand({
          TransactItems: authorCountUpdates(own.tableName, [{ tally: { authorKey: `user:${id}` }, delta }]),
        }),
      );
    await count('01CAROL', 5);
    await count('01MALLORY', 9);

    const entries = (await ownApi.call({ path: '/api/user' })).body.data;
    await own.drop();
    expect(entries).toEqual([
      {
        count: 5,
        level: 2,
        nick: '&#60;b&#62;01CAROL&#60;/b&#62;',
        link: 'https://carol.example',
        avatar: 'https://carol.example/a.png',
        label: 'Editor',
      },
    ]);
  });
});
