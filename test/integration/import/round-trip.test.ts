import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../functions/shared/auth/password.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { scanTable } from '../../../scripts/shared/storage/table-export.js';
import { toWalineExport } from '../../../scripts/export/to-waline.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { authorsByText, fixture, importInto, scanAll } from './import-support.js';
import type { Account } from '../../../functions/shared/domain/account.js';
import { createAccountRepository } from '../../../functions/shared/table/account-repository.js';
import { entities } from '../../../functions/shared/table/keys.js';

type Api = ReturnType<typeof createLocalApi>;
const jwt = 'j'.repeat(40);
const urls = ['/posts/one', '/posts/twö/'];
const ua =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** Every read route's answer, for each url and option the widget uses. */
async function answers(api: Api) {
  const get = async (path: string, query: string) => (await api.call({ path, query })).body;
  const result: Record<string, unknown> = {};
  for (const url of urls) {
    const path = encodeURIComponent(url);
    for (const sortBy of ['insertedAt_desc', 'insertedAt_asc', 'like_desc']) {
      for (const [page, pageSize] of [
        [1, 2],
        [2, 2],
        [1, 50],
      ]) {
        result[`${url} ${sortBy} ${page}/${pageSize}`] = await get(
          '/api/comment',
          `path=${path}&sortBy=${sortBy}&page=${page}&pageSize=${pageSize}`,
        );
      }
    }
    result[`${url} article`] = await get(
      '/api/article',
      `path=${path}&type=time,reaction0,reaction1,reaction2,reaction3,reaction4,reaction5,reaction6,reaction7,reaction8`,
    );
    result[`${url} legacy`] = await get('/comment', `path=${path}`);
  }
  result.count = await get('/api/comment', `type=count&url=${urls.map(encodeURIComponent).join(',')}`);
  result.site = await get('/api/comment', 'type=count');
  result.recent = await get('/api/comment', 'type=recent&count=50');
  result.queues = await api.services.moderation.queueSizes();
  return result;
}

/** The administrator's moderation list of every status (mails and IP hashes included). */
async function moderationAnswers(api: Api) {
  await api.services.accounts.create({
    type: 'administrator',
    state: 'active',
    sessionVersion: 0,
    id: '01ADMIN',
    email: 'admin@example.com',
    displayName: 'The Admin',
    passwordHash: await hashPassword('a long enough password'),
    createdAt: 0,
  });
  const signIn = await api.call({
    method: 'POST',
    path: '/api/token',
    body: { email: 'admin@example.com', password: 'a long enough password' },
  });
  const headers = { authorization: `Bearer ${signIn.body.data.token as string}` };
  const result: Record<string, unknown> = {};
  for (const status of ['approved', 'waiting', 'spam']) {
    result[status] = (
      await api.call({ path: '/api/comment', query: `type=list&status=${status}&pageSize=50`, headers })
    ).body;
  }
  return result;
}

describe('export then import (round trip)', () => {
  let source: TestTable;
  let target: TestTable;
  let sourceApi: Api;
  let targetApi: Api;
  let dir: string;

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestTable(), createTestTable()]);
    sourceApi = createLocalApi(source, { IPQPS: '0', JWT_TOKEN: jwt });
    targetApi = createLocalApi(target, { IPQPS: '0', JWT_TOKEN: jwt });
    dir = await mkdtemp(join(tmpdir(), 'marginalia-export-'));

    let ip = 0;
    const post = async (body: Record<string, unknown>) =>
      (
        await sourceApi.call({
          method: 'POST',
          path: '/api/comment',
          body: { ua, ...body },
          sourceIp: `10.1.0.${++ip}`,
        })
      ).body.data as { objectId: string };
    const [one, two] = urls as [string, string];
    const a = await post({
      url: one,
      comment: 'Root **A**',
      nick: 'Ann',
      mail: 'ann@example.org',
      link: 'https://ann.example',
    });
    const b = await post({ url: one, comment: 'Root B', nick: 'Bob' });
    const c = await post({ url: one, comment: 'Reply to A', nick: 'Cid', pid: a.objectId, rid: a.objectId });
    await post({ url: one, comment: 'Reply to C', nick: 'Dee', pid: c.objectId, rid: a.objectId });
    await post({ url: one, comment: 'Root E', nick: 'Eve' });
    await post({ url: one, comment: 'Anonymous root' });
    const f = await post({ url: two, comment: 'Root F on two', nick: 'Fay' });
    const g = await post({ url: two, comment: 'to be spam', nick: 'Gus' });
    const h = await post({ url: two, comment: 'to be waiting', nick: 'Hal' });
    for (const voter of ['10.2.0.1', '10.2.0.2']) {
      await sourceApi.call({
        method: 'PUT',
        path: `/api/comment/${b.objectId}`,
        body: { like: true },
        sourceIp: voter,
      });
    }
    await sourceApi.call({
      method: 'PUT',
      path: `/api/comment/${a.objectId}`,
      body: { like: true },
      sourceIp: '10.2.0.3',
    });
    const { moderation } = sourceApi.services;
    // Moderation changes a comment as it was read.
    const pinned = await moderation.get({ url: two, id: f.objectId });
    if (!pinned || !(await moderation.moderate(pinned, { sticky: true }))) {
      throw new Error(`could not pin ${f.objectId}`);
    }
    for (const [id, status] of [
      [g.objectId, 'spam'],
      [h.objectId, 'waiting'],
    ] as const) {
      const comment = await moderation.get({ url: two, id });
      if (comment) await moderation.moderate(comment, { status });
    }
    for (const [path, type] of [
      [one, 'time'],
      [one, 'time'],
      [one, 'reaction2'],
      [encodeURI(two), 'time'],
      [two, 'reaction0'],
    ] as const) {
      await sourceApi.call({
        method: 'POST',
        path: '/api/article',
        body: { path, type },
        sourceIp: '10.3.0.1',
      });
    }
  });
  afterAll(async () => {
    await Promise.all([source.drop(), target.drop(), rm(dir, { recursive: true, force: true })]);
  });

  it('gives the same answers on every route when the export is imported into an empty table', async () => {
    const client = createDocumentClient({ endpoint: source.endpoint });
    const items: Record<string, unknown>[] = [];
    for await (const item of scanTable(client, source.tableName)) items.push(item);
    client.destroy();
    const file = join(dir, 'waline.json');
    await writeFile(file, JSON.stringify(toWalineExport(items, Date.now())));

    const { outcome } = await importInto(target, [file]);

    expect(outcome.skipped).toEqual([]);
    expect(outcome.imported).toEqual({ approved: 7, waiting: 1, spam: 1 });
    const before = await answers(sourceApi);
    expect(before.site).toMatchObject({ data: 7 });
    expect(await answers(targetApi)).toEqual(before);
    const moderation = await moderationAnswers(sourceApi);
    expect(JSON.stringify(moderation)).toContain('"ipHash"');
    expect(await moderationAnswers(targetApi)).toEqual(moderation);
  });
});

describe('export then import of accounts (round trip)', () => {
  let source: TestTable;
  let target: TestTable;
  let dir: string;
  /** An account that enrolled a second factor: a secret and recovery codes the export must not carry. */
  const enrolled = async (): Promise<Account> => ({
    id: '01KENROLLED000000000000000',
    email: 'enrolled@example.com',
    displayName: 'Enrolled',
    link: 'https://enrolled.example',
    type: 'guest',
    state: 'awaiting-approval',
    passwordHash: await hashPassword('an enrolled long password'),
    sessionVersion: 4,
    totp: { secret: 'encrypted-totp-secret-value', lastStep: 5, recoveryHashes: ['recovery-hash-value'] },
    createdAt: Date.UTC(2026, 5, 1),
  });

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestTable(), createTestTable()]);
    dir = await mkdtemp(join(tmpdir(), 'marginalia-export-accounts-'));
  });
  afterAll(async () => {
    await Promise.all([source.drop(), target.drop(), rm(dir, { recursive: true, force: true })]);
  });

  it('brings accounts back with their ids but without secrets, and comments keep their user_id', async () => {
    await importInto(source, [fixture('waline-users.json')]);
    const client = createDocumentClient({ endpoint: source.endpoint });
    const account = await enrolled();
    await createAccountRepository(client, source.tableName).create(account);
    client.destroy();
    const items = await scanAll(source);
    const exported = toWalineExport(items, Date.now());
    const file = join(dir, 'waline.json');
    await writeFile(file, JSON.stringify(exported));

    const text = JSON.stringify(exported);
    const hashes = items.flatMap((item) =>
      typeof item.passwordHash === 'string' && item.passwordHash ? [item.passwordHash] : [],
    );
    expect(hashes).toHaveLength(5);
    for (const secret of [
      ...hashes,
      'encrypted-totp-secret-value',
      'recovery-hash-value',
      '"password"',
      '"2fa"',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(exported.data.Users).toHaveLength(6);

    const { outcome } = await importInto(target, [file]);

    expect(outcome.accounts).toEqual({ created: 6, alreadyThere: 0, matchedByAddress: 0 });
    const sourceAccounts = items.filter((item) => item.entity === entities.account);
    const targetClient = createDocumentClient({ endpoint: target.endpoint });
    const targetRepository = createAccountRepository(targetClient, target.tableName);
    const back = await Promise.all(
      sourceAccounts.map((item) => targetRepository.findById(item.id as string)),
    );
    targetClient.destroy();
    for (const [i, item] of sourceAccounts.entries()) {
      expect(back[i]).toMatchObject({
        email: item.email,
        displayName: item.displayName,
        type: item.type,
        state: item.state,
        createdAt: item.createdAt,
        passwordHash: '',
        ...(item.link ? { link: item.link } : {}),
        ...(item.label ? { label: item.label } : {}),
      });
      expect(back[i]).not.toHaveProperty('totp');
      expect(back[i]).not.toHaveProperty('walineId');
    }
    expect(await authorsByText(target)).toEqual(await authorsByText(source));
    expect(Object.values(await authorsByText(target)).filter(Boolean)).toHaveLength(4);
  });
});
