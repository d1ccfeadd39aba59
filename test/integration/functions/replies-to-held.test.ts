import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../../functions/shared/auth/token.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { saveTestAdministrator } from '../../support/administrator.js';

/** What a visitor may answer: only comments visitors can see. An administrator may answer held ones. */
describe('replies to held comments', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  const jwt = 'replies-to-held-secret-0123456789abc';
  let adminToken = '';
  const admin = () => ({ authorization: `Bearer ${adminToken}` });
  let ip = 0;

  beforeAll(async () => {
    table = await createTestTable();
    adminToken = await signToken(jwt, { sub: '01ADMIN', email: 'admin@example.com', exp: 4_000_000_000 });
    api = createLocalApi(table, { IPQPS: '0', JWT_TOKEN: jwt, LIST_CACHE_MS: '0' });
    await saveTestAdministrator(api.services);
  });
  afterAll(() => table.drop());

  const post = (url: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api.call({
      method: 'POST',
      path: '/api/comment',
      body: { url, ...body },
      headers,
      sourceIp: `10.7.0.${++ip}`,
    });
  const hold = async (id: string) =>
    expect(
      (
        await api.call({
          method: 'PUT',
          path: `/api/comment/${id}`,
          body: { status: 'waiting' },
          headers: admin(),
        })
      ).status,
    ).toBe(200);
  const count = async (url: string, headers: Record<string, string> = {}) =>
    (await api.call({ path: '/api/comment', query: `path=${encodeURIComponent(url)}`, headers })).body.data
      .count;

  it("refuses a visitor's reply to a held reply or a held root, and stores nothing", async () => {
    const url = '/held-parents';
    const root = (await post(url, { comment: 'root' })).body.data.objectId;
    const reply = (await post(url, { comment: 'reply', pid: root, rid: root })).body.data.objectId;
    const otherRoot = (await post(url, { comment: 'another root' })).body.data.objectId;
    await hold(reply);
    await hold(otherRoot);

    const toReply = await post(url, { comment: 'to the held reply', pid: reply, rid: root });
    const toRoot = await post(url, { comment: 'to the held root', pid: otherRoot, rid: otherRoot });

    expect([toReply.status, toRoot.status]).toEqual([400, 400]);
    expect(toReply.body.errmsg).toMatch(/pid/);
    expect(await count(url, admin())).toBe(3);
  });

  it('lets an administrator answer a held reply, and shows that answer with type administrator', async () => {
    const url = '/held-parents-admin';
    const root = (await post(url, { comment: 'root' })).body.data.objectId;
    const reply = (await post(url, { comment: 'reply', pid: root, rid: root })).body.data.objectId;
    await hold(reply);

    const answer = await post(url, { comment: 'noted', pid: reply, rid: root }, admin());

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ type: 'administrator', pid: reply, rid: root });
    const { body } = await api.call({ path: '/api/comment', query: `path=${encodeURIComponent(url)}` });
    const children = body.data.data[0].children as { objectId: string; type?: string }[];
    expect(children).toEqual([
      expect.objectContaining({ objectId: answer.body.data.objectId, type: 'administrator' }),
    ]);
  });
});
