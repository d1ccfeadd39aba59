import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  signInTestAccount,
  signInTestAdministrator,
  saveTestAccount,
  testAdministrator,
} from '../../support/administrator.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

/** The administrators' account routes (`GET /api/user?page`, `PUT` and `DELETE /api/user/{id}`) on DynamoDB Local. */
describe('account administration', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let admin: string;
  const as = (authorization: string | undefined): Record<string, string> =>
    authorization ? { authorization } : {};
  const list = (query: string, authorization?: string, path = '/api/user') =>
    api.call({ path, query, headers: as(authorization) });
  const change = (id: string, body: unknown, authorization = admin) =>
    api.call({ method: 'PUT', path: `/api/user/${id}`, body, headers: as(authorization) });
  const remove = (id: string, authorization = admin) =>
    api.call({ method: 'DELETE', path: `/api/user/${id}`, headers: as(authorization) });
  const me = async (authorization: string) =>
    (await api.call({ path: '/api/token', headers: { authorization } })).body.data;

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { JWT_TOKEN: 'j'.repeat(40) });
    admin = await signInTestAdministrator(api);
  });
  afterAll(() => table.drop());

  it("lists accounts for an administrator in Waline's shape, newest first, without hashes or secrets", async () => {
    await saveTestAccount(api.services, { type: 'guest', id: '01ZZLISTED1', email: 'listed1@example.com' });
    await saveTestAccount(api.services, {
      type: 'guest',
      id: '01ZZLISTED2',
      email: 'listed2@example.com',
      extra: { totp: { secret: 'secret-never-shown', lastStep: 0, recoveryHashes: ['h'] } },
    });

    const answer = await list('page=1&pageSize=2', admin);
    const legacy = await list('page=1&pageSize=2', admin, '/user');

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ page: 1, pageSize: 2 });
    expect(answer.body.data.totalPages).toBeGreaterThanOrEqual(2);
    expect(answer.body.data.data.map((account: { objectId: string }) => account.objectId)).toEqual([
      '01ZZLISTED2',
      '01ZZLISTED1',
    ]);
    expect(answer.body.data.data[0]).toMatchObject({
      email: 'listed2@example.com',
      type: 'guest',
      state: 'active',
      totp: true,
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/scrypt|secret-never-shown|passwordHash/);
    expect(legacy.body.data).toEqual(answer.body.data);
  });

  it('answers the user wall to anybody else, and to a request without page', async () => {
    const guest = await signInTestAccount(api, { type: 'guest' });

    const answers = await Promise.all([list('page=1'), list('page=1', guest.authorization), list('', admin)]);

    for (const answer of answers) expect(Array.isArray(answer.body.data)).toBe(true);
  });

  it('sets type and label, clears the label, and admits an account awaiting approval', async () => {
    const waiting = await saveTestAccount(api.services, { type: 'guest', state: 'awaiting-approval' });

    const labelled = await change(waiting.id, { label: ' Regular ', type: 'administrator', state: 'active' });
    const cleared = await change(waiting.id, { label: null });

    expect(labelled.status).toBe(200);
    expect(labelled.body.data).toMatchObject({ label: 'Regular', type: 'administrator', state: 'active' });
    expect(cleared.body.data.label).toBeNull();
    const stored = await api.services.accounts.findById(waiting.id);
    expect(stored).toMatchObject({ type: 'administrator', state: 'active' });
    expect(stored).not.toHaveProperty('label');
  });

  it("turns an account's two-factor sign-in off (a lost authenticator, a rotated key), and only with false", async () => {
    const enrolled = await saveTestAccount(api.services, {
      type: 'guest',
      extra: { totp: { secret: 'sealed-secret', lastStep: 7, recoveryHashes: ['h1', 'h2'] } },
    });

    expect((await change(enrolled.id, { totp: true })).status).toBe(400);
    // Not one's own: that takes the password and a code (DELETE /api/token/2fa), never a token alone.
    const own = await change(testAdministrator.id, { totp: false });
    expect([own.status, Object.keys(own.body.details ?? {})]).toEqual([400, ['totp']]);
    expect((await api.services.accounts.findById(enrolled.id))?.totp).toBeDefined();
    const reset = await change(enrolled.id, { totp: false });

    expect(reset.status).toBe(200);
    expect(reset.body.data).toMatchObject({ objectId: enrolled.id, totp: false });
    expect((await api.services.accounts.findById(enrolled.id))?.totp).toBeUndefined();
  });

  it('refuses bad changes with a 400 naming the field, and changes nothing', async () => {
    const guest = await saveTestAccount(api.services, { type: 'guest', state: 'unconfirmed' });

    const answers = await Promise.all([
      change(guest.id, { label: 'x'.repeat(33) }),
      change(guest.id, { type: 'owner' }),
      change(guest.id, { state: 'active' }),
      change(testAdministrator.id, { type: 'guest' }),
    ]);

    expect(answers.map((answer) => [answer.status, Object.keys(answer.body.details ?? {})])).toEqual([
      [400, ['label']],
      [400, ['type']],
      [400, ['state']],
      [400, ['type']],
    ]);
    expect(await api.services.accounts.findById(guest.id)).toMatchObject({
      state: 'unconfirmed',
      type: 'guest',
    });
    expect((await change('01NOSUCHACCOUNT', { label: 'x' })).status).toBe(404);
  });

  it('bans an account (its tokens end) and the ban sticks: its address makes no new account', async () => {
    const target = await signInTestAccount(api, { type: 'guest', email: 'target@example.com' });
    expect(await me(target.authorization)).toMatchObject({ objectId: target.account.id });

    const banned = await remove(target.account.id);

    expect(banned.status).toBe(200);
    expect(await me(target.authorization)).toEqual({});
    expect(await api.services.accounts.findById(target.account.id)).toMatchObject({
      type: 'banned',
      sessionVersion: 1,
    });
    const again = await api.services.accounts.create({
      ...target.account,
      id: '01ZZAGAIN',
      sessionVersion: 0,
    });
    expect(again).toBe('exists');
    const signIn = await api.call({
      method: 'POST',
      path: '/api/token',
      body: { email: 'target@example.com', password: target.account.password },
      sourceIp: '203.0.113.77',
    });
    expect(signIn.status).toBe(401);
  });

  it("deletes an unconfirmed account, frees its address, and never one's own", async () => {
    const unconfirmed = await saveTestAccount(api.services, {
      type: 'guest',
      state: 'unconfirmed',
      email: 'new@example.com',
    });

    expect((await remove(unconfirmed.id)).status).toBe(200);
    expect(await api.services.accounts.findById(unconfirmed.id)).toBeUndefined();
    expect(await api.services.accounts.findByEmail('new@example.com')).toBeUndefined();
    const self = await remove(testAdministrator.id);
    expect([self.status, Object.keys(self.body.details ?? {})]).toEqual([400, ['id']]);
    expect((await remove('01NOSUCHACCOUNT')).status).toBe(404);
  });

  it('keeps a banned account that never confirmed: deleting it would free its address', async () => {
    const banned = await saveTestAccount(api.services, {
      type: 'banned',
      state: 'unconfirmed',
      email: 'squatter@example.com',
    });

    expect((await remove(banned.id)).status).toBe(200);
    expect((await api.services.accounts.findByEmail('squatter@example.com'))?.type).toBe('banned');
  });

  it("refuses a guest's token and no token on the changes with a 401", async () => {
    const guest = await signInTestAccount(api, { type: 'guest' });
    const victim = await saveTestAccount(api.services, { type: 'guest' });

    const answers = await Promise.all([
      change(victim.id, { type: 'administrator' }, guest.authorization),
      remove(victim.id, guest.authorization),
      api.call({ method: 'PUT', path: `/api/user/${victim.id}`, body: { label: 'x' } }),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401]);
    expect(await api.services.accounts.findById(victim.id)).toMatchObject({ type: 'guest' });
  });
});
