import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInTestAccount, signInTestAdministrator } from '../../support/administrator.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

/**
 * Before accounts, a valid token meant an administrator on every route. A guest's token is a visitor's on
 * each route an administrator's token opens (issue 27): refused, or answered as to anybody.
 */
describe("a guest's token on the administrators' routes", () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let admin: string;
  let guest: string;
  let held: string;
  let ip = 0;
  const as = (authorization: string) => ({ authorization });

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { JWT_TOKEN: 'j'.repeat(40), COMMENT_AUDIT: 'true' });
    admin = await signInTestAdministrator(api);
    guest = (await signInTestAccount(api, { type: 'guest', email: 'guest@example.com' })).authorization;
    const posted = await api.call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'held for moderation', url: '/guarded', nick: 'Ann', mail: 'ann@example.com' },
      sourceIp: `10.9.0.${++ip}`,
    });
    held = posted.body.data.objectId;
  });
  afterAll(() => table.drop());

  it('refuses the moderation list, moderation, deletion and the notification log and actions with a 401', async () => {
    const calls = (authorization: string) => [
      api.call({ path: '/api/comment', query: 'type=list', headers: as(authorization) }),
      api.call({
        method: 'PUT',
        path: `/api/comment/${held}`,
        body: { status: 'approved' },
        headers: as(authorization),
      }),
      api.call({ method: 'DELETE', path: `/api/comment/${held}`, headers: as(authorization) }),
      api.call({ path: '/api/notification', headers: as(authorization) }),
      api.call({
        method: 'POST',
        path: '/api/notification',
        body: { action: 'test' },
        headers: as(authorization),
      }),
    ];

    const answers = await Promise.all(calls(guest));

    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401]);
    // The control: the administrator's token opens the list.
    expect((await api.call({ path: '/api/comment', query: 'type=list', headers: as(admin) })).status).toBe(
      200,
    );
  });

  it('shows a guest no held comment in an article, as to any visitor', async () => {
    const list = async (authorization: string) =>
      (await api.call({ path: '/api/comment', query: 'path=/guarded', headers: as(authorization) })).body
        .data;

    expect((await list(guest)).count).toBe(0);
    expect((await list(admin)).count).toBe(1);
  });

  it("holds a guest's comment as a visitor's, where an administrator's is approved", async () => {
    const post = (authorization: string, comment: string) =>
      api.call({
        method: 'POST',
        path: '/api/comment',
        body: { comment, url: '/guarded-posts', nick: 'Poster', mail: 'poster@example.com' },
        headers: as(authorization),
        sourceIp: `10.9.1.${++ip}`,
      });

    const byGuest = await post(guest, 'a guest writes');
    const byAdmin = await post(admin, 'an administrator writes');

    expect([byGuest.body.data.status, byAdmin.body.data.status]).toEqual(['waiting', 'approved']);
  });
});
