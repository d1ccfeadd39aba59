import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../functions/shared/auth/password.js';
import { hashIp } from '../../../functions/shared/domain/hashing.js';
import { renderMarkdown } from '../../../functions/shared/domain/render-markdown.js';
import type { SpamCheckInput } from '../../../functions/shared/spam/akismet.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const salt = 'test-salt-0123456789abcdef';
const admin = { email: 'owner@example.com', password: 'a long enough password' };

describe('what a submit costs before it is refused, on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  /** The texts rendered and asked to the spam service, in order, by the current test. */
  const rendered: string[] = [];
  const spamChecked: string[] = [];
  const post = (
    body: Record<string, unknown>,
    sourceIp: string,
    extra: { query?: string; token?: string } = {},
  ) =>
    api.call({
      method: 'POST',
      path: '/api/comment',
      body,
      sourceIp,
      query: extra.query ?? '',
      headers: extra.token ? { authorization: `Bearer ${extra.token}` } : {},
    });
  const count = async (url: string) =>
    (await api.call({ path: '/api/comment', query: `type=count&url=${encodeURIComponent(url)}` })).body
      .data[0];

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(
      table,
      { IPQPS: '60', JWT_TOKEN: 'j'.repeat(40), BLOCKED_IP_HASHES: hashIp(salt, '192.0.2.66') },
      {
        renderMarkdown: async (text) => {
          rendered.push(text);
          return renderMarkdown(text);
        },
        spamCheck: async (input: SpamCheckInput) => {
          spamChecked.push(input.text);
          return 'ham';
        },
      },
    );
    await api.services.accounts.create({
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      id: '01OWNER',
      email: admin.email,
      displayName: 'The Owner',
      passwordHash: await hashPassword(admin.password),
      createdAt: 0,
    });
  });
  beforeEach(() => {
    rendered.length = 0;
    spamChecked.length = 0;
  });
  afterAll(() => table.drop());

  it('refuses a post too fast, a duplicate and a blocked IP without rendering it or asking the spam service', async () => {
    const first = await post({ comment: 'the first words', url: '/cheap' }, '10.3.0.1');
    expect(first.status).toBe(200);
    expect([rendered, spamChecked]).toEqual([['the first words'], ['the first words']]);

    const tooFast = await post({ comment: '![' + '!['.repeat(1000), url: '/cheap' }, '10.3.0.1');
    const duplicate = await post({ comment: 'the first words', url: '/cheap' }, '10.3.0.2', {
      query: 'lang=zh-CN',
    });
    const blocked = await post({ comment: 'from a blocked address', url: '/cheap' }, '192.0.2.66');

    expect(tooFast).toMatchObject({ status: 429, body: { errno: 1000, errmsg: 'Comment too fast!' } });
    expect(duplicate).toMatchObject({ status: 409, body: { errno: 1000, errmsg: '发送的内容之前已经发过' } });
    expect(blocked).toMatchObject({ status: 403, body: { errno: 403 } });
    expect([rendered, spamChecked]).toEqual([['the first words'], ['the first words']]);
    expect(await count('/cheap')).toBe(1);
  });

  it("refuses an anonymous post with an administrator's mail, in any case, in the caller language", async () => {
    const before = rendered.length;

    const english = await post(
      { comment: 'I am the owner', url: '/owner', mail: 'Owner@Example.com' },
      '10.3.1.1',
    );
    const chinese = await post({ comment: '我是站长', url: '/owner', mail: admin.email }, '10.3.1.2', {
      query: 'lang=zh-CN',
    });

    expect(english).toMatchObject({
      status: 403,
      body: {
        errno: 403,
        errmsg:
          'mail: this address belongs to an administrator of this site; sign in to post with it, or use another.',
        details: { mail: expect.any(String) },
      },
    });
    expect(chinese.body.errmsg).toBe('mail：该邮箱属于本站管理员；请登录后再用它发表评论，或换一个邮箱。');
    expect(rendered).toHaveLength(before);
    expect(await count('/owner')).toBe(0);
  });

  it("counts a refused post with an administrator's mail against the IP, so probing addresses waits like posting", async () => {
    const probe = (mail: string) => post({ comment: `probe ${mail}`, url: '/probe', mail }, '10.3.3.1');

    const first = await probe(admin.email);
    const second = await probe('someone-else@example.com');
    const third = await probe(admin.email);

    expect(first.status).toBe(403);
    // The IP waits, whatever the next address: the answers no longer tell administrators' apart.
    expect([second.status, third.status]).toEqual([429, 429]);
    expect(await count('/probe')).toBe(0);
  });

  it('marks a comment written while signed in as an administrator, in the answer and in the table', async () => {
    const signIn = await api.call({ method: 'POST', path: '/api/token', body: admin, sourceIp: '10.3.2.1' });
    const token = signIn.body.data.token as string;

    // Not /owner: the test of refused posts counts that page.
    const byOwner = await post(
      { comment: 'from the owner', url: '/signed-in', mail: admin.email },
      '10.3.2.1',
      {
        token,
      },
    );
    const byVisitor = await post(
      { comment: 'from a visitor', url: '/signed-in', mail: 'v@example.com' },
      '10.3.2.2',
    );

    expect(byOwner.status).toBe(200);
    expect(byOwner.body.data).toMatchObject({ type: 'administrator', status: 'approved' });
    expect(byVisitor.body.data).not.toHaveProperty('type');
    const stored = await table.client.send(
      new GetItemCommand({
        TableName: table.tableName,
        Key: { pk: { S: 'URL#/signed-in' }, sk: { S: `C#${byOwner.body.data.objectId}` } },
      }),
    );
    expect(stored.Item?.type).toEqual({ S: 'administrator' });
  });
});
