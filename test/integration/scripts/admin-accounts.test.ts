import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../functions/shared/auth/password.js';
import { signToken } from '../../../functions/shared/auth/token.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { runAdminAccountStep } from '../../../scripts/migrate/admin-accounts.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const jwt = 'j'.repeat(40);
const password = 'a long enough password';

/** `npm run migrate`'s administrator step (scripts/migrate/admin-accounts.ts) on DynamoDB Local. */
describe('administrators of before accounts become accounts', () => {
  let table: TestTable;
  let client: ReturnType<typeof createDocumentClient>;
  /** An administrator as the code before accounts stored it. */
  const putAdmin = async (id: string, email: string, extra: Record<string, unknown> = {}) =>
    client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          pk: `ADMIN#${email}`,
          sk: 'ADMIN',
          entity: 'admin',
          id,
          email,
          displayName: id,
          passwordHash: await hashPassword(password),
          createdAt: 5,
          ...extra,
        },
      }),
    );
  const read = async (pk: string, sk: string) =>
    (await client.send(new GetCommand({ TableName: table.tableName, Key: { pk, sk }, ConsistentRead: true })))
      .Item;

  beforeEach(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
  });
  afterEach(() => table.drop());

  it('writes each as an active administrator of version 0 and removes the old item; its old token still works', async () => {
    await putAdmin('01BOSS', 'boss@example.com', { link: 'https://boss.example' });
    await putAdmin('01DEPUTY', 'deputy@example.com');
    const api = createLocalApi(table, { JWT_TOKEN: jwt });
    const oldToken = await signToken(jwt, {
      sub: '01BOSS',
      email: 'boss@example.com',
      exp: Math.floor(Date.now() / 1000) + 3600,
    });

    const { outcome, complete, report } = await runAdminAccountStep(client, table.tableName, {
      dryRun: false,
    });

    expect(complete).toBe(true);
    expect(outcome).toMatchObject({ found: 2, migrated: 2, already: 0, errors: [] });
    expect(report).toContain('2 became accounts');
    expect(await api.services.accounts.findByEmail('Boss@example.com')).toMatchObject({
      id: '01BOSS',
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      link: 'https://boss.example',
      createdAt: 5,
    });
    expect(await read('ADMIN#boss@example.com', 'ADMIN')).toBeUndefined();
    expect(await read('USER#01BOSS', 'USER')).toMatchObject({ heldPk: 'ACCOUNTS', heldSk: '01BOSS' });
    expect((await api.services.accounts.listPage(1, 10)).total).toBe(2);
    const me = await api.call({ path: '/api/token', headers: { authorization: `Bearer ${oldToken}` } });
    expect(me.body.data).toMatchObject({ objectId: '01BOSS', type: 'administrator' });
    const signIn = await api.call({
      method: 'POST',
      path: '/api/token',
      body: { email: 'deputy@example.com', password },
    });
    expect(signIn.status).toBe(200);
  });

  it('writes nothing on a dry run, and a rerun repeats nothing', async () => {
    await putAdmin('01BOSS', 'boss@example.com');

    const dry = await runAdminAccountStep(client, table.tableName, { dryRun: true });
    expect(dry.outcome).toMatchObject({ found: 1, migrated: 1 });
    expect(dry.report).toContain('would become');
    expect(await read('USER#01BOSS', 'USER')).toBeUndefined();
    expect(await read('ADMIN#boss@example.com', 'ADMIN')).toBeDefined();

    await runAdminAccountStep(client, table.tableName, { dryRun: false });
    const again = await runAdminAccountStep(client, table.tableName, { dryRun: false });
    expect(again.outcome).toMatchObject({ found: 0, migrated: 0, errors: [] });
    expect(await read('ACCOUNTS', 'COUNT')).toMatchObject({ total: 1 });
  });

  it('finishes a run stopped after the account was written: only the old item goes', async () => {
    await putAdmin('01BOSS', 'boss@example.com');
    const api = createLocalApi(table, { JWT_TOKEN: jwt });
    // What a run that stopped between its two writes leaves: the account, and the old item still there.
    await api.services.accounts.create({
      id: '01BOSS',
      email: 'boss@example.com',
      displayName: '01BOSS',
      type: 'administrator',
      state: 'active',
      passwordHash: 'scrypt$x',
      sessionVersion: 0,
      createdAt: 5,
    });

    const { outcome } = await runAdminAccountStep(client, table.tableName, { dryRun: false });

    expect(outcome).toMatchObject({ found: 1, migrated: 0, already: 1, errors: [] });
    expect(await read('ADMIN#boss@example.com', 'ADMIN')).toBeUndefined();
    expect(await read('ACCOUNTS', 'COUNT')).toMatchObject({ total: 1 });
  });

  it('leaves an administrator whose address another account holds, and says so', async () => {
    await putAdmin('01BOSS', 'boss@example.com');
    const api = createLocalApi(table, { JWT_TOKEN: jwt });
    await api.services.accounts.create({
      id: '01GUEST',
      email: 'Boss@example.com',
      displayName: 'guest',
      type: 'guest',
      state: 'active',
      passwordHash: 'scrypt$x',
      sessionVersion: 0,
      createdAt: 5,
    });

    const { outcome, complete, report } = await runAdminAccountStep(client, table.tableName, {
      dryRun: false,
    });

    expect(complete).toBe(false);
    expect(outcome.errors).toEqual([
      { item: 'ADMIN#boss@example.com ADMIN', reason: "the address is account 01GUEST's already" },
    ]);
    expect(report).toContain('left as it is');
    expect(await read('ADMIN#boss@example.com', 'ADMIN')).toBeDefined();
  });
});
