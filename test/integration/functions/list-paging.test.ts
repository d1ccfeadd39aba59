import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../../functions/shared/auth/token.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { saveTestAdministrator } from '../../support/administrator.js';

/** Pages walked one by one give every root once, in the sort's order, pinned ones first. */
describe('list paging over the roots indexes', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  const jwt = 'list-paging-secret-0123456789abcdef';
  let adminToken = '';
  const admin = () => ({ authorization: `Bearer ${adminToken}` });
  let ip = 0;
  let clock = 1_750_000_000_000;

  beforeAll(async () => {
    table = await createTestTable();
    adminToken = await signToken(jwt, { sub: '01ADMIN', email: 'admin@example.com', exp: 4_000_000_000 });
    api = createLocalApi(
      table,
      { IPQPS: '0', JWT_TOKEN: jwt, LIST_CACHE_MS: '0' },
      // Every comment a millisecond apart: ids (ULIDs) and times follow the order of posting.
      { now: () => (clock += 1) },
    );
    await saveTestAdministrator(api.services);
  });
  afterAll(() => table.drop());

  const post = async (url: string, comment: string, extra: Record<string, unknown> = {}) => {
    const { body } = await api.call({
      method: 'POST',
      path: '/api/comment',
      body: { comment, url, ...extra },
      sourceIp: `10.1.0.${++ip % 250}`,
    });
    expect(body.errno).toBe(0);
    return body.data as { objectId: string };
  };
  const put = async (id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const sourceIp = `10.2.${Math.floor(++ip / 250) % 250}.${ip % 250}`;
    const response = await api.call({ method: 'PUT', path: `/api/comment/${id}`, body, headers, sourceIp });
    expect(response.body.errno).toBe(0);
  };
  /** Every page of `url` in `sortBy`, pageSize 3, as the ids of its roots in order. */
  const walk = async (url: string, sortBy: string, headers: Record<string, string> = {}) => {
    const ids: string[] = [];
    for (let page = 1; page <= 10; page++) {
      const { body } = await api.call({
        path: '/api/comment',
        query: `path=${encodeURIComponent(url)}&pageSize=3&page=${page}&sortBy=${sortBy}`,
        headers,
      });
      const data = body.data.data as { objectId: string }[];
      if (data.length === 0) return { ids, totalPages: body.data.totalPages as number };
      ids.push(...data.map((root) => root.objectId));
    }
    throw new Error('more pages than expected');
  };

  it('walks every sort page by page, pinned first, likes with ties newest first, nothing twice or skipped', async () => {
    const url = '/paging';
    const roots: string[] = [];
    for (let i = 0; i < 8; i++) roots.push((await post(url, `root ${i}`)).objectId);
    const ids = (indexes: number[]) => indexes.map((i) => roots[i] as string);
    // Likes: root 2 three times, roots 5 and 6 once each (a tie), the rest none (ties too).
    for (const [index, times] of [
      [2, 3],
      [5, 1],
      [6, 1],
    ] as const) {
      for (let n = 0; n < times; n++) await put(roots[index] as string, { like: true });
    }
    await put(roots[4] as string, { sticky: 1 }, admin());

    expect(await walk(url, 'insertedAt_desc')).toEqual({ ids: ids([4, 7, 6, 5, 3, 2, 1, 0]), totalPages: 3 });
    expect(await walk(url, 'insertedAt_asc')).toEqual({ ids: ids([4, 0, 1, 2, 3, 5, 6, 7]), totalPages: 3 });
    expect(await walk(url, 'create_time')).toEqual({ ids: ids([4, 0, 1, 2, 3, 5, 6, 7]), totalPages: 3 });
    expect(await walk(url, 'like_desc')).toEqual({ ids: ids([4, 2, 6, 5, 7, 3, 1, 0]), totalPages: 3 });
  });

  it('shows administrators every status in place and visitors only the approved roots', async () => {
    const url = '/paging-held';
    const roots: string[] = [];
    for (let i = 0; i < 5; i++) roots.push((await post(url, `held root ${i}`)).objectId);
    const ids = (indexes: number[]) => indexes.map((i) => roots[i] as string);
    await put(roots[1] as string, { status: 'waiting' }, admin());
    await put(roots[3] as string, { status: 'spam' }, admin());
    await put(roots[3] as string, { sticky: 1 }, admin());

    expect(await walk(url, 'insertedAt_desc')).toEqual({ ids: ids([4, 2, 0]), totalPages: 1 });
    expect(await walk(url, 'insertedAt_desc', admin())).toEqual({ ids: ids([3, 4, 2, 1, 0]), totalPages: 2 });
    expect(await walk(url, 'insertedAt_asc', admin())).toEqual({ ids: ids([3, 0, 1, 2, 4]), totalPages: 2 });
  });

  it('keeps a held reply out of the visitor view and in the administrator view, in thread order', async () => {
    const url = '/paging-replies';
    const root = (await post(url, 'root')).objectId;
    const replies: string[] = [];
    for (let i = 0; i < 4; i++)
      replies.push((await post(url, `reply ${i}`, { pid: root, rid: root })).objectId);
    await put(replies[1] as string, { status: 'waiting' }, admin());
    const children = async (headers: Record<string, string>) =>
      (
        await api.call({ path: '/api/comment', query: `path=${url}`, headers })
      ).body.data.data[0].children.map((reply: { objectId: string }) => reply.objectId);

    expect(await children({})).toEqual([replies[0], replies[2], replies[3]]);
    expect(await children(admin())).toEqual(replies);

    await put(replies[1] as string, { status: 'approved' }, admin());
    expect(await children({})).toEqual(replies);
  });
});
