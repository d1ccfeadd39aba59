import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../../../functions/shared/dynamodb-client/client.js';
import { keys } from '../../../../../functions/shared/table/keys.js';
import {
  type AccountTotpStore,
  createAccountTotpStore,
} from '../../../../../functions/shared/table/account-totp.js';
import { createTestTable, type TestTable } from '../../../../support/test-table.js';

const now = Date.UTC(2026, 10, 29, 11, 0);

describe('createAccountTotpStore on DynamoDB Local', () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;
  let store: AccountTotpStore;
  let id = 0;
  let account: string;

  beforeAll(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
    store = createAccountTotpStore(client, table.tableName);
  });
  afterAll(async () => table.drop());
  beforeEach(async () => {
    account = `A${(id += 1)}`;
    await client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...keys.account(account), entity: 'account', id: account, sessionVersion: 3 },
      }),
    );
  });

  const item = async () =>
    (await client.send(new GetCommand({ TableName: table.tableName, Key: keys.account(account) }))).Item!;
  const enable = async () => {
    expect(await store.startEnrolment(account, 'sealed-1', now + 600_000)).toBe(true);
    expect(await store.confirmEnrolment(account, 'sealed-1', 100, ['h1', 'h2'], now)).toBe(4);
  };

  it('keeps a pending secret, and confirms only that one, unexpired, once, revoking older tokens', async () => {
    expect(await store.startEnrolment(account, 'sealed-1', now + 600_000)).toBe(true);
    expect(await store.startEnrolment(account, 'sealed-2', now + 600_000)).toBe(true);
    expect(await store.read(account)).toEqual({
      lastStep: -1,
      recoveryHashes: [],
      pending: { secret: 'sealed-2', until: now + 600_000 },
    });

    expect(await store.confirmEnrolment(account, 'sealed-1', 100, ['h1'], now)).toBeUndefined();
    expect(await store.confirmEnrolment(account, 'sealed-2', 100, ['h1'], now + 600_000)).toBeUndefined();
    expect(await store.confirmEnrolment(account, 'sealed-2', 100, ['h1', 'h2'], now)).toBe(4);
    expect(await store.confirmEnrolment(account, 'sealed-2', 101, ['h3'], now)).toBeUndefined();

    expect(await store.read(account)).toEqual({
      secret: 'sealed-2',
      lastStep: 100,
      recoveryHashes: ['h1', 'h2'],
    });
    expect(await item()).toMatchObject({ sessionVersion: 4, updatedAt: now });
    expect(await store.startEnrolment(account, 'sealed-3', now + 600_000)).toBe(false);
  });

  it('starts no enrolment for an account that does not exist', async () => {
    expect(await store.startEnrolment('nobody', 'sealed-1', now + 600_000)).toBe(false);
    expect(await store.read('nobody')).toBeUndefined();
  });

  it('accepts each step once and no earlier one, even from requests racing with one code', async () => {
    await enable();

    const raced = await Promise.all([1, 2, 3, 4].map(() => store.spend(account, 'sealed-1', { step: 101 })));
    expect(raced.filter(Boolean)).toHaveLength(1);
    expect(await store.spend(account, 'sealed-1', { step: 101 })).toBe(false);
    expect(await store.spend(account, 'sealed-1', { step: 100 })).toBe(false);
    expect(await store.spend(account, 'other-secret', { step: 102 })).toBe(false);
    expect(await store.spend(account, 'sealed-1', { step: 102 })).toBe(true);
    expect((await store.read(account))?.lastStep).toBe(102);
  });

  it('removes a recovery code on use, once, even from requests racing with it', async () => {
    await enable();

    const raced = await Promise.all(
      [1, 2, 3].map(() => store.spend(account, 'sealed-1', { recoveryHash: 'h1' })),
    );
    expect(raced.filter(Boolean)).toHaveLength(1);
    expect(await store.spend(account, 'sealed-1', { recoveryHash: 'h1' })).toBe(false);
    expect(await store.spend(account, 'sealed-1', { recoveryHash: 'h9' })).toBe(false);
    expect((await store.read(account))?.recoveryHashes).toEqual(['h2']);
    expect(await store.spend(account, 'sealed-1', { recoveryHash: 'h2' })).toBe(true);
    expect((await store.read(account))?.recoveryHashes).toEqual([]);
  });

  it('turns TOTP off only with a fresh step or a recovery code left, and removes all of it', async () => {
    await enable();

    expect(await store.disable(account, 'sealed-1', { step: 100 }, now)).toBe(false);
    expect(await store.disable(account, 'sealed-1', { recoveryHash: 'h9' }, now)).toBe(false);
    expect(await store.disable(account, 'other-secret', { step: 101 }, now)).toBe(false);
    expect(await store.disable(account, 'sealed-1', { recoveryHash: 'h2' }, now)).toBe(true);

    expect(await store.read(account)).toEqual({ lastStep: -1, recoveryHashes: [] });
    expect(await item()).not.toHaveProperty('totpSecret');
    expect(await store.disable(account, 'sealed-1', { step: 200 }, now)).toBe(false);
    expect(await store.startEnrolment(account, 'sealed-4', now + 600_000)).toBe(true);
  });
});
