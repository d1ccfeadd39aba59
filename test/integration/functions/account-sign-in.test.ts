import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../functions/shared/auth/password.js';
import { checkToken } from '../../../functions/shared/auth/token.js';
import { saveTestAccount } from '../../support/administrator.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const jwt = 'j'.repeat(40);
/** A Waline hash (phpass's bcrypt at cost 8) of `walinePassword`, as `$2a$`; bcryptjs made it as `$2b$`. */
const walinePassword = 'waline pass 1';
const walineHash = '$2a$08$mASIa3Vts64..jL0zf0iG.2cUOWrpKbuMEj942/agTmQW.Z2ddsF2';
/** A non-ASCII password hashed as Waline's phpass feeds bcrypt: each character's code modulo 128. */
const walineAccented = {
  password: 'pässwörd',
  hash: '$2y$08$39E7HnbmUvK6lYevIiyQl.kVJlyOZvHDbX78reoWXSSqswmOT3Nmy',
};

/** `POST /api/token` and `GET /api/token` for every kind of account, on DynamoDB Local. */
describe('sign-in of accounts', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let ip = 0;
  const signIn = (email: string, password: string, extra: Record<string, unknown> = {}) =>
    api.call({
      method: 'POST',
      path: '/api/token',
      body: { email, password, ...extra },
      sourceIp: `198.51.100.${++ip}`,
    });
  const me = async (token: string) =>
    (await api.call({ path: '/api/token', headers: { authorization: `Bearer ${token}` } })).body.data;

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { JWT_TOKEN: jwt });
  });
  afterAll(() => table.drop());

  it('signs a guest in with a token of its version, and answers its own profile, never its hash', async () => {
    const guest = await saveTestAccount(api.services, {
      type: 'guest',
      email: 'Guest@Example.com',
      sessionVersion: 3,
      extra: { label: 'Regular', link: 'https://guest.example', avatar: 'https://guest.example/a.png' },
    });

    const answer = await signIn('guest+blog@example.com', guest.password);

    expect(answer.status).toBe(200);
    const { token, ...user } = answer.body.data;
    expect(user).toEqual({
      objectId: guest.id,
      display_name: 'Guest',
      email: 'Guest@Example.com',
      url: 'https://guest.example',
      type: 'guest',
      avatar: 'https://guest.example/a.png',
      label: 'Regular',
      totp: false,
    });
    expect(await checkToken(jwt, token, Date.now())).toMatchObject({
      ok: true,
      claims: { sub: guest.id, ver: 3 },
    });
    expect(await me(token)).toEqual(user);
    expect(JSON.stringify(answer.body)).not.toContain('scrypt');
  });

  it('gives an unknown address, a wrong password and a banned account the same refusal', async () => {
    const banned = await saveTestAccount(api.services, { type: 'banned', email: 'banned@example.com' });
    const known = await saveTestAccount(api.services, { type: 'guest', email: 'known@example.com' });

    const answers = await Promise.all([
      signIn('nobody@example.com', 'whatever password'),
      signIn(known.email, 'not the password'),
      signIn(banned.email, banned.password),
    ]);

    expect(answers.map((answer) => [answer.status, answer.body.errmsg])).toEqual(
      Array(3).fill([401, 'Wrong email or password.']),
    );
  });

  it('tells an unconfirmed or unapproved account so after a right password only', async () => {
    const unconfirmed = await saveTestAccount(api.services, { type: 'guest', state: 'unconfirmed' });
    const waiting = await saveTestAccount(api.services, { type: 'guest', state: 'awaiting-approval' });

    const wrong = await signIn(unconfirmed.email, 'not the password');
    const confirm = await signIn(unconfirmed.email, unconfirmed.password);
    const approve = await signIn(waiting.email, waiting.password);

    expect(wrong.status).toBe(401);
    expect([confirm.status, confirm.body.errmsg]).toEqual([
      403,
      expect.stringContaining('Confirm your email'),
    ]);
    expect([approve.status, approve.body.errmsg]).toEqual([403, expect.stringContaining('approve')]);
    expect(JSON.stringify([confirm.body, approve.body])).not.toContain('token');
  });

  it('asks an account with a second factor for its code, after the password only', async () => {
    const guarded = await saveTestAccount(api.services, {
      type: 'administrator',
      extra: { totp: { secret: 'encrypted', lastStep: 0, recoveryHashes: [] } },
    });

    const wrong = await signIn(guarded.email, 'not the password');
    const noCode = await signIn(guarded.email, guarded.password);
    const badCode = await signIn(guarded.email, guarded.password, { code: 'not a code!' });

    expect(wrong.status).toBe(401);
    expect([noCode.status, noCode.body.errmsg]).toEqual([403, expect.stringContaining('code')]);
    expect(badCode.status).toBe(400);
  });

  it('signs in with a hash imported from Waline, and stores scrypt in its place', async () => {
    const imported = await saveTestAccount(api.services, { type: 'guest', email: 'imported@example.com' });
    await api.services.accounts.update(imported.id, { passwordHash: walineHash });
    const accented = await saveTestAccount(api.services, { type: 'guest', email: 'accented@example.com' });
    await api.services.accounts.update(accented.id, { passwordHash: walineAccented.hash });

    expect((await signIn(imported.email, 'waline pass 2')).status).toBe(401);
    expect((await api.services.accounts.findById(imported.id))?.passwordHash).toBe(walineHash);
    const answer = await signIn(imported.email, walinePassword);
    const accentedAnswer = await signIn(accented.email, walineAccented.password);

    expect([answer.status, accentedAnswer.status]).toEqual([200, 200]);
    const upgraded = (await api.services.accounts.findById(imported.id))?.passwordHash ?? '';
    expect(upgraded).toMatch(/^scrypt\$/);
    expect(await verifyPassword(walinePassword, upgraded)).toBe(true);
    // The upgrade revokes nothing: the token answered with it works.
    expect(await me(answer.body.data.token)).toMatchObject({ objectId: imported.id });
    expect((await signIn(imported.email, walinePassword)).status).toBe(200);
  });

  it('keeps an administrator signed in with a token issued before accounts', async () => {
    const { signToken } = await import('../../../functions/shared/auth/token.js');
    const admin = await saveTestAccount(api.services, { type: 'administrator', email: 'old@example.com' });
    const legacy = await signToken(jwt, {
      sub: admin.id,
      email: admin.email,
      exp: Math.floor(Date.now() / 1000) + 3600,
    });

    expect(await me(legacy)).toMatchObject({ objectId: admin.id, type: 'administrator' });
    await api.services.accounts.update(admin.id, { revokeTokens: true });
    expect(await me(legacy)).toEqual({});
  });
});
