import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../functions/shared/auth/password.js';
import { signInTestAccount } from '../../support/administrator.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const password = 'a long enough password';

/** `PUT /api/user` and the sign-ins it changes, through the comment function, on DynamoDB Local. */
describe('the account profile on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let addresses = 0;
  /** Each sign-in from its own address: the per-IP limit stays out of the way. */
  const signIn = (email: string, secret = password) =>
    api.call({
      method: 'POST',
      path: '/api/token',
      body: { email, password: secret },
      sourceIp: `198.51.100.${++addresses}`,
    });
  /** Adds an administrator of its own for one test, signs it in, and answers its `Authorization`. */
  const signedInAdmin = async (name: string) => {
    const email = `${name}@example.com`;
    await api.services.accounts.create({
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      id: `01${name.toUpperCase()}`,
      email,
      displayName: name,
      passwordHash: await hashPassword(password),
      createdAt: 0,
    });
    return {
      email,
      id: `01${name.toUpperCase()}`,
      authorization: `Bearer ${(await signIn(email)).body.data.token}`,
    };
  };
  const putUser = (body: unknown, authorization: string | undefined, path = '/api/user') =>
    api.call({ method: 'PUT', path, body, headers: authorization === undefined ? {} : { authorization } });
  const currentUser = (authorization: string) => api.call({ path: '/api/token', headers: { authorization } });

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { JWT_TOKEN: 'j'.repeat(40) });
  });
  afterAll(() => table.drop());

  it('changes the display name and link, which GET /api/token and a new sign-in then show', async () => {
    const admin = await signedInAdmin('renamed');

    const answer = await putUser(
      { display_name: 'Renamed Admin', url: 'https://admin.example/' },
      admin.authorization,
    );

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ display_name: 'Renamed Admin', url: 'https://admin.example/' });
    expect((await currentUser(admin.authorization)).body.data).toMatchObject({
      objectId: admin.id,
      display_name: 'Renamed Admin',
      url: 'https://admin.example/',
    });
    expect((await signIn(admin.email)).body.data).toMatchObject({
      display_name: 'Renamed Admin',
      url: 'https://admin.example/',
    });
    // The legacy twin answers the same, in the envelope too; an empty url removes the link.
    const cleared = await putUser({ url: '' }, admin.authorization, '/user');
    expect(cleared.body).toMatchObject({ errno: 0, data: { url: '', display_name: 'Renamed Admin' } });
    expect((await api.services.accounts.findByEmail(admin.email))?.link).toBeUndefined();
  });

  it("changes a guest's own profile, and not another account's", async () => {
    const admin = await signedInAdmin('neighbour');
    const guest = await signInTestAccount(api, { type: 'guest', email: 'visitor@example.com' });

    const answer = await putUser({ display_name: 'Visitor' }, guest.authorization);

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      objectId: guest.account.id,
      display_name: 'Visitor',
      type: 'guest',
    });
    expect((await currentUser(admin.authorization)).body.data.display_name).toBe('neighbour');
  });

  it('answers 401 to anyone not signed in, and changes nothing', async () => {
    const admin = await signedInAdmin('untouched');
    const before = (await currentUser(admin.authorization)).body.data;

    const answers = await Promise.all([
      putUser({ display_name: 'Mallory' }, undefined),
      putUser({ display_name: 'Mallory' }, 'Bearer undefined'),
      putUser({ display_name: 'Mallory' }, 'Bearer not.a.token'),
    ]);

    expect(answers.map((answer) => [answer.status, answer.body.errno])).toEqual(Array(3).fill([401, 401]));
    expect((await currentUser(admin.authorization)).body.data).toEqual(before);
  });

  it('answers 400 naming each bad field, and changes nothing', async () => {
    const admin = await signedInAdmin('validated');
    const before = (await currentUser(admin.authorization)).body.data;

    const answer = await putUser(
      { display_name: '', url: 'javascript:alert(1)', password: 'short' },
      admin.authorization,
    );

    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.details).sort()).toEqual(['display_name', 'password', 'url']);
    expect((await currentUser(admin.authorization)).body.data).toEqual(before);
    expect((await signIn(admin.email)).status).toBe(200);
  });

  it('ends every token issued before a password change; the token it answers works, as does the new password', async () => {
    const admin = await signedInAdmin('rotated');
    const otherDevice = `Bearer ${(await signIn(admin.email)).body.data.token}`;
    expect((await currentUser(otherDevice)).body.data.email).toBe(admin.email);
    const newPassword = 'another long enough password';

    const changed = await putUser({ password: newPassword }, admin.authorization);

    expect(changed.status).toBe(200);
    // The same account, one session version on.
    expect(changed.body.data.objectId).toBe(admin.id);
    expect((await api.services.accounts.findById(admin.id))?.sessionVersion).toBe(1);
    for (const old of [admin.authorization, otherDevice]) {
      expect((await currentUser(old)).body.data).toEqual({});
      expect((await putUser({ display_name: 'Old Token' }, old)).status).toBe(401);
    }
    const fresh = `Bearer ${changed.body.data.token}`;
    expect((await currentUser(fresh)).body.data).toMatchObject({
      objectId: changed.body.data.objectId,
      display_name: 'rotated',
    });
    expect((await putUser({ display_name: 'Still Signed In' }, fresh)).status).toBe(200);
    expect((await signIn(admin.email)).status).toBe(401);
    expect((await signIn(admin.email, newPassword)).status).toBe(200);
  });

  it('does not bring back an account removed after its token was issued', async () => {
    const admin = await signedInAdmin('removed');
    await api.services.accounts.remove(admin.id);

    const answer = await putUser({ display_name: 'Ghost' }, admin.authorization);

    expect(answer.status).toBe(401);
    expect(await api.services.accounts.findByEmail(admin.email)).toBeUndefined();
    expect(await api.services.accounts.findById(admin.id)).toBeUndefined();
  });
});
