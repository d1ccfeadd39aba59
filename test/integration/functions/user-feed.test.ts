import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComment } from '../../../functions/shared/domain/comment.js';
import { createCommentRepository } from '../../../functions/shared/table/comment-repository.js';
import { keys } from '../../../functions/shared/table/keys.js';
import { signInTestAdministrator } from '../../support/administrator.js';
import { createLocalApi } from '../../support/local-services.js';
import { parseRss } from '../../support/rss.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const t0 = Date.UTC(2026, 5, 1);
let n = 0;
const comment = (extra: Partial<StoredComment>): StoredComment => {
  const at = t0 + ++n * 1000;
  return {
    id: ulid(at),
    url: '/feed',
    nick: 'Carol',
    mail: 'carol@example.com',
    link: '',
    ua: '',
    ipHash: 'ip',
    browser: '',
    os: '',
    orig: `comment ${n}`,
    html: `<p>comment ${n}</p>`,
    status: 'approved',
    like: 0,
    sticky: false,
    insertedAt: at,
    ...extra,
  };
};

describe("an account's feed (/api/comment/rss?user_id=), on DynamoDB Local", () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let authorization: string;
  const feed = (query: string) => api.call({ path: '/api/comment/rss', query });

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { JWT_TOKEN: 'j'.repeat(40), LIST_CACHE_MS: '0', IPQPS: '0' });
    authorization = await signInTestAdministrator(api);
    await DynamoDBDocumentClient.from(table.client).send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...keys.account('01CAROL'), entity: 'account', id: '01CAROL', email: 'carol@example.com' },
      }),
    );
  });
  afterAll(() => table.drop());

  it("lists the account's approved comments newest first, never its held, deleted or others' ones", async () => {
    // Written as a signed-in account's submit writes them (the insert files each in the account's feed).
    const comments = createCommentRepository(DynamoDBDocumentClient.from(table.client), table.tableName);
    const root = comment({ userId: '01CAROL' });
    const reply = comment({ userId: '01CAROL', pid: root.id, rid: root.id });
    const held = comment({ userId: '01CAROL', pid: root.id, rid: root.id, status: 'waiting' });
    const doomed = comment({ userId: '01CAROL', url: '/feed-2' });
    const others = comment({ nick: 'Dan', mail: 'dan@example.com' });
    for (const stored of [root, reply, held, doomed, others]) {
      expect(await comments.insert(stored, { contentHash: stored.id })).toEqual({ ok: true });
    }
    await api.call({ method: 'DELETE', path: `/api/comment/${doomed.id}`, headers: { authorization } });

    const answer = await feed('user_id=01CAROL');
    expect(answer.status).toBe(200);
    expect(parseRss(answer.body).items.map((item) => item.description)).toEqual([
      expect.stringContaining(reply.orig),
      expect.stringContaining(root.orig),
    ]);

    // Approved later, it shows: the feed reads each comment where visitors see it.
    await api.call({
      method: 'PUT',
      path: `/api/comment/${held.id}`,
      body: { status: 'approved' },
      headers: { authorization },
    });
    expect(
      parseRss((await feed('user_id=01CAROL&count=1')).body).items.map((item) => item.description),
    ).toEqual([expect.stringContaining(held.orig)]);
  });

  it('answers 404 for an id no account has and 400 for a malformed one', async () => {
    expect((await feed('user_id=01NOBODY')).status).toBe(404);
    expect((await feed('user_id=%3Cx%3E')).status).toBe(400);
  });
});
