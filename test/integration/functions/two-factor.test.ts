import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../functions/shared/auth/password.js';
import { totpCodeAt, totpStep } from '../../../functions/shared/auth/totp.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { keys } from '../../../functions/shared/table/keys.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const password = 'a long enough password';

/** Enrolment, sign-in with a code, and the locks, through the comment function on DynamoDB Local. */
describe('two-factor sign-in on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let time = 1_800_000_000_000;
  let ip = 0;
  const nextIp = () => `198.19.${Math.floor(++ip / 250)}.${ip % 250}`;

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { JWT_TOKEN: 'j'.repeat(40) }, { now: () => time });
  });
  beforeEach(() => {
    time += 30 * 24 * 60 * 60_000;
  });
  afterAll(() => table.drop());

  interface Answer {
    errno: number;
    errmsg?: string;
    details?: Record<string, string>;
    data: Record<string, unknown>;
  }
  const call = async (spec: Parameters<typeof api.call>[0]) => {
    const answer = await api.call(spec);
    return { status: answer.status, body: answer.body as Answer };
  };
  /** A sign-in, from a new address each time unless `sourceIp` is given (no network is known then). */
  const signIn = (email: string, code?: string, sourceIp = nextIp()) =>
    call({
      method: 'POST',
      path: '/api/token',
      body: { email, password, ...(code === undefined ? {} : { code }) },
      sourceIp,
    });
  const withToken = (token: string) => ({ authorization: `Bearer ${token}` });
  /** An active visitor's account, signed in: its token. */
  const account = async (email: string) => {
    await api.services.accounts.create({
      id: `01${email.split('@')[0]!.toUpperCase().padEnd(24, '0')}`,
      email,
      displayName: email,
      type: 'guest',
      state: 'active',
      passwordHash: await hashPassword(password),
      sessionVersion: 0,
      createdAt: 0,
    });
    const answer = await signIn(email);
    expect(answer.status).toBe(200);
    return answer.body.data.token as string;
  };
  /** Enrols `token`'s account: the secret shown, the recovery codes and the new token. */
  const enrol = async (token: string) => {
    const shown = await call({ method: 'GET', path: '/api/token/2fa', headers: withToken(token) });
    const secret = shown.body.data.secret as string;
    const confirmed = await call({
      method: 'POST',
      path: '/api/token/2fa',
      body: { code: totpCodeAt(secret, totpStep(time)), password },
      headers: withToken(token),
    });
    expect(confirmed.status).toBe(200);
    return {
      secret,
      recoveryCodes: confirmed.body.data.recovery_codes as string[],
      token: confirmed.body.data.token as string,
    };
  };

  it('enrols, keeps only the sealed secret, and never shows it again', async () => {
    const token = await account('enrol@example.com');
    const { secret, recoveryCodes, token: fresh } = await enrol(token);
    const stored = await createDocumentClient({ endpoint: table.endpoint }).send(
      new GetCommand({ TableName: table.tableName, Key: keys.account('01ENROL0000000000000000000') }),
    );

    expect(recoveryCodes).toHaveLength(10);
    expect(JSON.stringify(stored.Item)).not.toContain(secret);
    expect(JSON.stringify(stored.Item)).not.toContain(recoveryCodes[0]);
    expect(stored.Item?.totpSecret).toMatch(/^v1\./);
    // The token signed in without the second factor ends; the new one works, and shows no secret.
    expect((await call({ method: 'GET', path: '/api/token', headers: withToken(token) })).body.data).toEqual(
      {},
    );
    const again = await call({ method: 'GET', path: '/api/token/2fa', headers: withToken(fresh) });
    expect(again.body.data).toEqual({ enable: true });
    expect(JSON.stringify(again.body)).not.toContain(secret);
  });

  it('signs in with a code once: the same code, and any earlier one, is refused afterwards', async () => {
    const { secret } = await enrol(await account('code@example.com'));
    time += 30_000;

    const missing = await signIn('code@example.com');
    expect(missing.status).toBe(401);
    expect(missing.body.details).toEqual({ code: 'required' });
    const code = totpCodeAt(secret, totpStep(time));
    expect((await signIn('code@example.com', code)).status).toBe(200);
    const reused = await signIn('code@example.com', code);
    expect(reused.status).toBe(401);
    expect(reused.body.details).toEqual({ code: 'wrong' });
    expect((await signIn('code@example.com', totpCodeAt(secret, totpStep(time) - 1))).status).toBe(401);
  });

  it('lets only one of two sign-ins racing with one code through', async () => {
    const { secret } = await enrol(await account('race@example.com'));
    time += 30_000;
    const code = totpCodeAt(secret, totpStep(time));

    const statuses = await Promise.all([signIn('race@example.com', code), signIn('race@example.com', code)]);

    expect(statuses.map(({ status }) => status).sort()).toEqual([200, 401]);
  });

  it('signs in with a recovery code once', async () => {
    const { recoveryCodes } = await enrol(await account('recovery@example.com'));

    expect((await signIn('recovery@example.com', recoveryCodes[3]!.toUpperCase())).status).toBe(200);
    expect((await signIn('recovery@example.com', recoveryCodes[3])).status).toBe(401);
    expect((await signIn('recovery@example.com', recoveryCodes[4])).status).toBe(200);
  });

  it('locks the account after wrong codes as after wrong passwords, even for the right code', async () => {
    const { secret } = await enrol(await account('locked@example.com'));
    time += 30_000;

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn('locked@example.com', '000000')).status);

    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await signIn('locked@example.com', totpCodeAt(secret, totpStep(time)))).status).toBe(429);
  });

  it('turns TOTP off with the password and a code, and the sign-in then needs none', async () => {
    const { secret, token } = await enrol(await account('off@example.com'));
    time += 30_000;

    const wrong = await call({
      method: 'DELETE',
      path: '/api/token/2fa',
      body: { password: 'not the password', code: totpCodeAt(secret, totpStep(time)) },
      headers: withToken(token),
    });
    expect(wrong.status).toBe(401);
    const off = await call({
      method: 'DELETE',
      path: '/api/token/2fa',
      body: { password, code: totpCodeAt(secret, totpStep(time)) },
      headers: withToken(token),
    });
    expect(off.body.data).toEqual({ enable: false });
    expect((await signIn('off@example.com')).status).toBe(200);
  });

  it('answers the anonymous ?email= question alike for every address', async () => {
    await enrol(await account('oracle@example.com'));

    const known = await call({ method: 'GET', path: '/api/token/2fa', query: 'email=oracle@example.com' });
    const unknown = await call({ method: 'GET', path: '/api/token/2fa', query: 'email=nobody@example.com' });

    expect(known).toEqual(unknown);
    expect(known.body.data).toEqual({ enable: false });
  });
});
