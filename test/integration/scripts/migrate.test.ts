import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, NumberValue, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signToken } from '../../../functions/shared/auth/token.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { scanTable } from '../../../scripts/shared/storage/table-export.js';
import { buildCreateTableInput, ensureTable } from '../../../scripts/create-table.js';
import { runMigration } from '../../../scripts/migrate/run-migration.js';
import {
  createTableInputV1,
  type SeededComment,
  seedV1,
  type V1Name,
  v1Ip,
  v1Urls,
} from '../../support/layout-v1.js';
import { rewriteAsLayout2 } from '../../support/layout-v2.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

type Item = Record<string, unknown>;

const jwt = 'j'.repeat(40);
const administrator = { id: '01ADMINISTRATOR', email: 'admin@example.com' };
const token = await signToken(jwt, { sub: administrator.id, email: administrator.email, exp: 4_102_444_800 });
// No list cache (each answer reads the table), no rate limit, and avatars that say whose they are.
const env = { JWT_TOKEN: jwt, LIST_CACHE_MS: '0', IPQPS: '0', GRAVATAR_STR: 'https://avatar.test/{{nick}}' };
const { a, b, c } = v1Urls;

/** `items` in key order. */
function sorted(items: Item[]): Item[] {
  const key = (item: Item) => `${String(item.pk)}\u0000${String(item.sk)}`;
  return [...items].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
}

/** Every item of the table, in key order. */
async function scan(client: DynamoDBDocumentClient, tableName: string): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of scanTable(client, tableName)) items.push(item);
  return sorted(items);
}

/** A table written by 0.1.0, with the document client the tests use on it. */
async function seededTable(table: TestTable) {
  const client = createDocumentClient({ endpoint: table.endpoint });
  const comments = await seedV1(client, table.tableName);
  return { client, comments };
}

const migrate = (table: TestTable, client: DynamoDBDocumentClient, options: { dryRun?: boolean } = {}) =>
  runMigration(
    { client, admin: table.client, tableName: table.tableName },
    { dryRun: options.dryRun ?? false, local: true },
  );

/**
 * The document client `client`, whose connection is lost after `transactions` TransactWriteItems went
 * through: every request from then on fails, as when the process is killed.
 */
function losingConnectionAfter(client: DynamoDBDocumentClient, transactions: number): DynamoDBDocumentClient {
  let sent = 0;
  let lost = false;
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
        if (command instanceof TransactWriteCommand && ++sent > transactions) lost = true;
        if (lost) return Promise.reject(new Error('connection lost'));
        return target.send(command);
      };
    },
  });
}

/** The document client `client`, whose TransactWriteItems number `failing` (from 1) fail. */
function failingTransactions(client: DynamoDBDocumentClient, failing: number[]): DynamoDBDocumentClient {
  let sent = 0;
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
        if (command instanceof TransactWriteCommand && failing.includes(++sent)) {
          return Promise.reject(new Error('throttled'));
        }
        return target.send(command);
      };
    },
  });
}

/** A root's like sort value written out by hand: the count times 2^96 plus the ULID's top 96 bits. */
function likeSortOf(like: number, id: string): NumberValue {
  const digits = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const ulid = [...id].reduce((value, character) => value * 32n + BigInt(digits.indexOf(character)), 0n);
  return NumberValue.from((BigInt(like) * 2n ** 96n + (ulid >> 32n)).toString());
}

/** Where layout 3 keeps each comment of a 0.1.0 table, as the layout describes it; the rest as it was. */
function expectedAfterMigration(before: Item[]): Item[] {
  return before.map((item) => {
    if (item.entity !== 'comment') return item;
    const { recentPk: _pk, recentSk: _sk, ...kept } = item;
    const { url, commentId: id, rid, status } = item as Record<string, string>;
    // Its card-index keys (approved-by-time or held-by-time), what its texts weigh, no layout 2 recent keys.
    const carded = {
      ...kept,
      ...(status === 'approved'
        ? { approvedPk: 'STATUS#approved', approvedSk: id }
        : { heldPk: `STATUS#${status}`, heldSk: id }),
      textBytes: Buffer.byteLength(String(item.orig)) + Buffer.byteLength(String(item.html)),
    };
    if (rid !== undefined) return { ...carded, sk: `${status === 'approved' ? 'C' : 'H'}#${rid}#${id}` };
    return {
      ...carded,
      rootsPk: `R#${status}#${item.sticky === true ? 'pinned' : 'flow'}#${url}`,
      // The like count times 2^96, plus the top 96 bits of the ULID.
      likeSort: likeSortOf(Number(item.like ?? 0), String(id)),
    };
  });
}

describe('npm run migrate on a table written by 0.1.0', () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;
  let api: ReturnType<typeof createLocalApi>;
  /** The seeded comments as they stand, changed below as each request changes them. */
  let state: Map<V1Name, SeededComment>;
  let v1Items: Item[];
  let ip = 0;
  const auth = { authorization: `Bearer ${token}` };
  const anonymous = { authorization: 'Bearer undefined' };

  const get = (name: V1Name): SeededComment => {
    const comment = state.get(name);
    if (!comment) throw new Error(`no comment ${name}`);
    return comment;
  };
  const update = (name: V1Name, fields: Partial<SeededComment>) =>
    state.set(name, { ...get(name), ...fields });

  // What 0.1.0 answered, from the comments alone: presentComment, with avatars from the template above.
  const shown = (name: V1Name) => {
    const comment = get(name);
    return {
      objectId: comment.id,
      comment: comment.html,
      orig: comment.orig,
      nick: comment.nick,
      link: comment.link,
      avatar: `https://avatar.test/${encodeURIComponent(comment.nick)}`,
      browser: comment.browser,
      os: comment.os,
      status: comment.status,
      like: comment.like,
      time: comment.insertedAt,
      ...(comment.sticky ? { sticky: true } : {}),
      ...(comment.pid !== undefined ? { pid: comment.pid } : {}),
      ...(comment.rid !== undefined ? { rid: comment.rid } : {}),
    };
  };
  const forAdmin = (name: V1Name) => ({
    ...shown(name),
    url: get(name).url,
    mail: get(name).mail,
    ipHash: get(name).ipHash,
  });
  /** A thread: its root, then each reply with the comment it answers when that one is shown too. */
  const thread = (root: V1Name, replies: [V1Name, V1Name?][]) => ({
    ...shown(root),
    children: replies.map(([reply, parent]) => ({
      ...shown(reply),
      ...(parent
        ? { reply_user: { nick: get(parent).nick, link: get(parent).link, avatar: shown(parent).avatar } }
        : {}),
    })),
  });
  const envelope = (data: unknown) => ({ errno: 0, errmsg: '', data });
  const list = (url: string, query: string, headers: Record<string, string> = anonymous) =>
    api.call({ path: '/api/comment', query: `path=${encodeURIComponent(url)}&${query}`, headers });
  const counts = async () =>
    (await api.call({ path: '/api/comment', query: `type=count&url=${[a, b, c].join(',')}` })).body;
  const siteCount = async () => (await api.call({ path: '/api/comment', query: 'type=count' })).body;
  const put = (name: V1Name, body: unknown, headers = auth) =>
    api.call({ method: 'PUT', path: `/api/comment/${get(name).id}`, body, headers, sourceIp: v1Ip(200) });
  const post = (body: Record<string, unknown>) =>
    api.call({ method: 'POST', path: '/api/comment', body, sourceIp: `10.9.0.${++ip}` });

  // Each test starts from the table as 0.1.0 left it (the later ones migrate it first): tests migrate,
  // moderate and delete, and none may see another's changes.
  beforeEach(async () => {
    table = await createTestTable();
    ({ client, comments: state } = await seededTable(table));
    api = createLocalApi(table, env);
    await api.services.accounts.create({
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      ...administrator,
      displayName: 'The Admin',
      passwordHash: 'not used: the token is signed here',
      createdAt: 0,
    });
    v1Items = await scan(client, table.tableName);
  });
  afterEach(async () => {
    client?.destroy();
    await table?.drop();
  });

  it('answers 503 naming npm run migrate to a list and refuses a submit before the migration, writing nothing', async () => {
    const lists = [await list(a, 'sortBy=insertedAt_desc'), await list(a, 'sortBy=like_desc', auth)];
    const submitted = await post({ comment: 'too early', nick: 'Zed', url: a });

    for (const answer of [...lists, submitted]) {
      expect(answer.status).toBe(503);
      expect(answer.body.errno).toBe(503);
      expect(answer.body.errmsg).toContain('npm run migrate');
      expect(answer.body).not.toHaveProperty('data');
    }
    expect(await scan(client, table.tableName)).toEqual(v1Items);
  });

  it('reports what it would do on a dry run, and writes nothing', async () => {
    const outcome = await migrate(table, client, { dryRun: true });

    expect(outcome).toMatchObject({
      dryRun: true,
      indexesCreated: [],
      scanned: v1Items.length,
      repliesMoved: 7,
      rootsIndexed: 9,
      repliesIndexed: 0,
      pagesRecounted: 2,
      already: { replies: 0, roots: 0, pages: 1 },
      errors: [],
      site: 'would-mark',
    });
    expect(await scan(client, table.tableName)).toEqual(v1Items);
  });

  it('moves replies, indexes roots, recounts pages, then marks the table, keeping every attribute', async () => {
    const outcome = await migrate(table, client);

    expect(outcome).toEqual({
      dryRun: false,
      indexesCreated: [],
      scanned: v1Items.length,
      repliesMoved: 7,
      rootsIndexed: 9,
      repliesIndexed: 0,
      pagesRecounted: 2,
      already: { replies: 0, roots: 0, pages: 1 },
      errors: [],
      site: 'marked',
    });
    // /posts/a: 8 approved (4 roots), 4 held (2 roots); /posts/b: 2 approved (1 root), 1 held root;
    // /posts/c had nothing held, so its 0.1.0 counters were right as they were.
    const pageCounts: Record<string, Item> = {
      [`URL#${a}`]: { comments: 8, roots: 4, held: 4, heldRoots: 2 },
      [`URL#${b}`]: { comments: 2, roots: 1, held: 1, heldRoots: 1 },
    };
    const expected = expectedAfterMigration(v1Items)
      .map((item) => (item.sk === 'PAGE' ? { ...item, ...pageCounts[String(item.pk)] } : item))
      .map((item) => (item.pk === 'SITE' ? { ...item, layout: 3 } : item));
    expect(await scan(client, table.tableName)).toEqual(sorted(expected));
    const site = v1Items.find((item) => item.pk === 'SITE');
    expect(site).toMatchObject({ comments: 11, waiting: 3, spam: 2 });
    expect(site).not.toHaveProperty('layout');
  });

  it('lists threads as 0.1.0 did for visitors, in each sort, sticky first', async () => {
    await migrate(table, client);
    const replies: Partial<Record<V1Name, [V1Name, V1Name?][]>> = {
      a1: [
        ['a3', 'a1'],
        ['a9', 'a3'],
      ],
      a2: [['a14']],
    };
    const orders: Record<string, V1Name[]> = {
      insertedAt_desc: ['a2', 'a12', 'a10', 'a1'],
      insertedAt_asc: ['a2', 'a1', 'a10', 'a12'],
      like_desc: ['a2', 'a10', 'a12', 'a1'],
    };

    for (const [sortBy, roots] of Object.entries(orders)) {
      const answer = await list(a, `sortBy=${sortBy}`);
      const data = roots.map((root) => thread(root, replies[root] ?? []));
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(envelope({ page: 1, totalPages: 1, pageSize: 10, count: 8, data }));
    }
    const second = await list(a, 'sortBy=insertedAt_desc&pageSize=2&page=2');
    expect(second.body).toEqual(
      envelope({
        page: 2,
        totalPages: 2,
        pageSize: 2,
        count: 8,
        data: [thread('a10', []), thread('a1', replies.a1 ?? [])],
      }),
    );
    expect((await list(b, 'sortBy=insertedAt_asc')).body).toEqual(
      envelope({ page: 1, totalPages: 1, pageSize: 10, count: 2, data: [thread('b1', [['b2', 'b1']])] }),
    );
  });

  it('lists every comment, held ones in place, to an administrator, in each sort', async () => {
    await migrate(table, client);
    const replies: Partial<Record<V1Name, [V1Name, V1Name?][]>> = {
      a1: [
        ['a3', 'a1'],
        ['a4', 'a3'],
        ['a7', 'a1'],
        ['a9', 'a3'],
      ],
      a2: [['a14']],
      a5: [['a6', 'a5']],
    };
    const orders: Record<string, V1Name[]> = {
      insertedAt_desc: ['a2', 'a12', 'a10', 'a8', 'a5', 'a1'],
      insertedAt_asc: ['a2', 'a1', 'a5', 'a8', 'a10', 'a12'],
      like_desc: ['a2', 'a10', 'a12', 'a1', 'a8', 'a5'],
    };

    for (const [sortBy, roots] of Object.entries(orders)) {
      const answer = await list(a, `sortBy=${sortBy}`, auth);
      const data = roots.map((root) => thread(root, replies[root] ?? []));
      expect(answer.body).toEqual(envelope({ page: 1, totalPages: 1, pageSize: 10, count: 12, data }));
    }
    expect((await list(b, '', auth)).body.data).toMatchObject({ totalPages: 1, count: 3 });
  });

  it('counts, lists the recent comments and the moderation queue as 0.1.0 did', async () => {
    await migrate(table, client);
    const recent = await api.call({ path: '/api/comment', query: 'type=recent&count=4' });
    const waiting = await api.call({
      path: '/api/comment',
      query: 'type=list&status=waiting',
      headers: auth,
    });

    expect(await counts()).toEqual(envelope([8, 2, 1]));
    expect(await siteCount()).toEqual(envelope(11));
    expect(recent.body).toEqual(
      envelope((['c1', 'b2', 'b1', 'a14'] as const).map((name) => ({ ...shown(name), url: get(name).url }))),
    );
    expect(waiting.body.data).toMatchObject({ totalPages: 1, waitingCount: 3, spamCount: 2 });
    expect(waiting.body.data.data).toEqual((['b3', 'a5', 'a4'] as const).map(forAdmin));
  });

  it('counts a like once per voter, a vote of 0.1.0 included', async () => {
    await migrate(table, client);
    const reply = await put('a9', { like: true }, anonymous);
    const again = await api.call({
      method: 'PUT',
      path: `/api/comment/${get('a1').id}`,
      body: { like: true },
      headers: anonymous,
      // Voter 1 of the seed liked a1 under 0.1.0.
      sourceIp: v1Ip(101),
    });
    update('a9', { like: 2 });

    expect(reply.body).toEqual(envelope({ objectId: get('a9').id, url: a, like: 2 }));
    expect(again.body).toEqual(envelope({ objectId: get('a1').id, url: a, like: 2 }));
    expect((await list(a, 'sortBy=insertedAt_asc')).body.data.data[1]).toEqual(
      thread('a1', [
        ['a3', 'a1'],
        ['a9', 'a3'],
      ]),
    );
  });

  it('moves comments between visible and held, and pins a root, as 0.1.0 did', async () => {
    await migrate(table, client);
    const approved = await put('a4', { status: 'approved' });
    update('a4', { status: 'approved' });
    const spam = await put('a14', { status: 'spam' });
    update('a14', { status: 'spam' });
    const pinned = await put('a12', { sticky: 1 });
    update('a12', { sticky: true });

    expect(approved.body).toEqual(envelope(forAdmin('a4')));
    expect(spam.body).toEqual(envelope(forAdmin('a14')));
    expect(pinned.body).toEqual(envelope(forAdmin('a12')));
    expect((await list(a, 'sortBy=insertedAt_desc')).body).toEqual(
      envelope({
        page: 1,
        totalPages: 1,
        pageSize: 10,
        count: 8,
        data: [
          thread('a12', []),
          thread('a2', []),
          thread('a10', []),
          thread('a1', [
            ['a3', 'a1'],
            ['a4', 'a3'],
            ['a9', 'a3'],
          ]),
        ],
      }),
    );
    expect(await counts()).toEqual(envelope([8, 2, 1]));
    expect(await siteCount()).toEqual(envelope(11));
  });

  it('deletes a reply with the replies that answer it, and a root with its thread, as 0.1.0 did', async () => {
    await migrate(table, client);
    // a3 takes a4 (held) and a9 with it; the held root a5 takes a6 (approved).
    const reply = await api.call({ method: 'DELETE', path: `/api/comment/${get('a3').id}`, headers: auth });
    const root = await api.call({ method: 'DELETE', path: `/api/comment/${get('a5').id}`, headers: auth });
    for (const name of ['a3', 'a4', 'a9', 'a5', 'a6'] as const) state.delete(name);

    expect(reply.body).toEqual(envelope(''));
    expect(root.body).toEqual(envelope(''));
    expect((await list(a, 'sortBy=insertedAt_asc', auth)).body).toEqual(
      envelope({
        page: 1,
        totalPages: 1,
        pageSize: 10,
        count: 7,
        data: [
          thread('a2', [['a14']]),
          thread('a1', [['a7', 'a1']]),
          thread('a8', []),
          thread('a10', []),
          thread('a12', []),
        ],
      }),
    );
    // Visible on /posts/a: a1, a2, a10, a12 and a14 (a3 and a9 went with a3, a6 with a5; a4 was held).
    expect(await counts()).toEqual(envelope([5, 2, 1]));
    expect(await siteCount()).toEqual(envelope(8));
  });

  it('takes new comments, and still refuses a duplicate of a 0.1.0 comment', async () => {
    await migrate(table, client);
    const fresh = await post({ comment: 'After the migration', nick: 'Sam', url: a });
    const c1 = get('c1');
    const duplicate = await post({ comment: c1.orig, nick: c1.nick, mail: c1.mail, link: c1.link, url: c });

    expect(fresh.status).toBe(200);
    expect(fresh.body.data).toMatchObject({ status: 'approved', nick: 'Sam' });
    expect(duplicate.status).toBe(409);
    expect(await counts()).toEqual(envelope([9, 2, 1]));
  });

  it('changes nothing when run again, and reports everything as already in layout 3', async () => {
    await migrate(table, client);
    // The site goes on in layout 3 before the second run: a new root, and a reply to a 0.1.0 root.
    expect((await post({ comment: 'After the migration', nick: 'Sam', url: a })).status).toBe(200);
    const c1 = get('c1');
    expect(
      (await post({ comment: 'A late reply', nick: 'Tim', url: c, pid: c1.id, rid: c1.id })).status,
    ).toBe(200);
    const before = await scan(client, table.tableName);

    const outcome = await migrate(table, client);

    expect(outcome).toMatchObject({
      scanned: before.length,
      repliesMoved: 0,
      rootsIndexed: 0,
      repliesIndexed: 0,
      pagesRecounted: 0,
      already: { replies: 8, roots: 10, pages: 3 },
      errors: [],
      site: 'already',
    });
    expect(await scan(client, table.tableName)).toEqual(before);
  });
});

describe('npm run migrate stopped half way', () => {
  let reference: TestTable;
  let table: TestTable;
  let referenceClient: DynamoDBDocumentClient;
  let client: DynamoDBDocumentClient;

  beforeAll(async () => {
    reference = await createTestTable();
    ({ client: referenceClient } = await seededTable(reference));
    await migrate(reference, referenceClient);
  });
  // Each test makes the runs before its own on a table of its own.
  beforeEach(async () => {
    table = await createTestTable();
    ({ client } = await seededTable(table));
  });
  afterEach(async () => {
    client?.destroy();
    await table?.drop();
  });
  afterAll(async () => {
    referenceClient?.destroy();
    await reference?.drop();
  });

  const moved = (items: Item[]) => items.filter((item) => /^[CH]#\w+#\w+$/.test(String(item.sk))).length;
  const layout = async () => (await scan(client, table.tableName)).find((item) => item.pk === 'SITE')?.layout;
  /** The first run: its connection is lost after 3 moves. */
  const stoppedRun = () =>
    expect(migrate(table, losingConnectionAfter(client, 3))).rejects.toThrow('connection lost');
  /** The second run: its first two transactions fail. */
  const throttledRun = () => migrate(table, failingTransactions(client, [1, 2]));

  it('stops when its connection is lost after 3 moves, leaving the table unmarked', async () => {
    await stoppedRun();

    const items = await scan(client, table.tableName);
    expect(moved(items)).toBe(3);
    expect(await layout()).toBeUndefined();
    const api = createLocalApi(table, env);
    expect((await api.call({ path: '/api/comment', query: `path=${encodeURIComponent(a)}` })).status).toBe(
      503,
    );
  });

  it('reports the items it could not move and leaves the table unmarked', async () => {
    await stoppedRun();

    const outcome = await throttledRun();

    expect(outcome.errors).toHaveLength(2);
    expect(outcome.errors.map((error) => error.reason)).toEqual(['throttled', 'throttled']);
    expect(outcome).toMatchObject({ repliesMoved: 2, already: { replies: 3 }, site: 'left' });
    expect(await layout()).toBeUndefined();
  });

  it('finishes the work when run again, to the same table as a run that was never stopped', async () => {
    await stoppedRun();
    await throttledRun();

    const outcome = await migrate(table, client);

    expect(outcome).toMatchObject({
      repliesMoved: 2,
      rootsIndexed: 0,
      already: { replies: 5 },
      errors: [],
      site: 'marked',
    });
    expect(await scan(client, table.tableName)).toEqual(await scan(referenceClient, reference.tableName));
  });
});

describe('npm run migrate on a local table made before the roots indexes', () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;
  const indexNames = async (tableName: string) => {
    const { Table: description } = await table.client.send(
      new DescribeTableCommand({ TableName: tableName }),
    );
    return (description?.GlobalSecondaryIndexes ?? [])
      .map((index) => `${index.IndexName} ${index.IndexStatus}`)
      .sort();
  };

  // A table for each test: one of them creates the indexes the others expect missing.
  beforeEach(async () => {
    // A test table's name and client, with 0.1.0's table in place of today's.
    table = await createTestTable();
    await table.client.send(new DeleteTableCommand({ TableName: table.tableName }));
    await table.client.send(new CreateTableCommand(createTableInputV1(table.tableName)));
    ({ client } = await seededTable(table));
  });
  afterEach(async () => {
    client?.destroy();
    await table?.drop();
  });

  it('refuses to run against a deployed table without them, naming the four deploys', async () => {
    await expect(
      runMigration(
        { client, admin: table.client, tableName: table.tableName },
        { dryRun: false, local: false },
      ),
    ).rejects.toThrow(
      /roots-by-time, roots-by-like, approved-by-time, held-by-time: .*4 times, one index each: `npx cdk deploy -c upgradeIndexes=1`, then `npx cdk deploy -c upgradeIndexes=2`, then `npx cdk deploy -c upgradeIndexes=3`, then `npx cdk deploy -c upgradeIndexes=4`; then run `npm run migrate` again, and last `npx cdk deploy`/,
    );
    expect(await indexNames(table.tableName)).toEqual(['by-id ACTIVE', 'recent ACTIVE']);
  });

  it('names them on a dry run without creating them', async () => {
    const outcome = await migrate(table, client, { dryRun: true });

    expect(outcome.indexesCreated).toEqual([
      'roots-by-time',
      'roots-by-like',
      'approved-by-time',
      'held-by-time',
    ]);
    expect(await indexNames(table.tableName)).toEqual(['by-id ACTIVE', 'recent ACTIVE']);
  });

  it('creates them, filled, then migrates', async () => {
    const outcome = await migrate(table, client);

    expect(outcome).toMatchObject({
      indexesCreated: ['roots-by-time', 'roots-by-like', 'approved-by-time', 'held-by-time'],
      errors: [],
      site: 'marked',
    });
    expect(await indexNames(table.tableName)).toEqual([
      'approved-by-time ACTIVE',
      'by-id ACTIVE',
      'held-by-time ACTIVE',
      'recent ACTIVE',
      'roots-by-like ACTIVE',
      'roots-by-time ACTIVE',
    ]);
    const api = createLocalApi(table, env);
    const listed = await api.call({
      path: '/api/comment',
      query: `path=${encodeURIComponent(a)}&sortBy=like_desc`,
    });
    expect(listed.body.data.data.map((root: { nick: string }) => root.nick)).toEqual([
      'Bob',
      'Jo',
      'Lu',
      'Ann',
    ]);
  });

  it('gets the one it lacks from ensureTable (npm start on an old .data/ table)', async () => {
    // As a deployed table stands between the two deploys: roots-by-time is there, roots-by-like not yet.
    const old = `${table.tableName}-old`;
    const input = createTableInputV1(old);
    const current = buildCreateTableInput(old);
    const byTime = current.GlobalSecondaryIndexes?.find((index) => index.IndexName === 'roots-by-time');
    await table.client.send(
      new CreateTableCommand({
        ...input,
        AttributeDefinitions: [
          ...(input.AttributeDefinitions ?? []),
          { AttributeName: 'rootsPk', AttributeType: 'S' },
        ],
        GlobalSecondaryIndexes: [...(input.GlobalSecondaryIndexes ?? []), ...(byTime ? [byTime] : [])],
      }),
    );
    try {
      await ensureTable(table.client, old);

      expect(await indexNames(old)).toEqual([
        'approved-by-time ACTIVE',
        'by-id ACTIVE',
        'held-by-time ACTIVE',
        'recent ACTIVE',
        'roots-by-like ACTIVE',
        'roots-by-time ACTIVE',
      ]);
    } finally {
      await table.client.send(new DeleteTableCommand({ TableName: old }));
    }
  });
});

describe('npm run migrate on a table written by 0.2 (item layout 2)', () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;
  let migrated: Item[];

  // A 0.1.0 table migrated to layout 3, kept as `migrated`; each test starts from it written back as 0.2 left
  // it (the same comments, in place), whatever order the tests run in.
  beforeAll(async () => {
    table = await createTestTable();
    ({ client } = await seededTable(table));
    await migrate(table, client);
    migrated = await scan(client, table.tableName);
  });
  beforeEach(async () => {
    await rewriteAsLayout2(client, table.tableName);
  });
  afterAll(async () => {
    client?.destroy();
    await table?.drop();
  });

  it('answers 503 naming npm run migrate to the recent list and the moderation queue until it has run', async () => {
    const api = createLocalApi(table, env);
    const auth = { authorization: `Bearer ${token}` };
    await api.services.accounts.create({
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      ...administrator,
      displayName: 'The Admin',
      passwordHash: 'not used: the token is signed here',
      createdAt: 0,
    });

    const recent = await api.call({ path: '/api/comment', query: 'type=recent&count=4' });
    const queue = await api.call({ path: '/api/comment', query: 'type=list&status=waiting', headers: auth });

    for (const answer of [recent, queue]) {
      expect(answer.status).toBe(503);
      expect(answer.body.errmsg).toContain('npm run migrate');
    }
  });

  it('counts on a dry run every comment to index, and writes nothing', async () => {
    const before = await scan(client, table.tableName);

    const outcome = await migrate(table, client, { dryRun: true });

    expect(outcome).toMatchObject({
      repliesMoved: 0,
      rootsIndexed: 9,
      repliesIndexed: 7,
      pagesRecounted: 0,
      already: { replies: 0, roots: 0, pages: 3 },
      errors: [],
      site: 'would-mark',
    });
    expect(await scan(client, table.tableName)).toEqual(before);
  });

  it('gives every comment its card keys and textBytes, drops its recent keys, and marks layout 3; a rerun changes nothing', async () => {
    const outcome = await migrate(table, client);
    const after = await scan(client, table.tableName);
    const again = await migrate(table, client);

    expect(outcome).toMatchObject({ rootsIndexed: 9, repliesIndexed: 7, errors: [], site: 'marked' });
    // The administrator another test may have saved aside, the table is as a migration from 0.1.0 left it.
    expect(after.filter((item) => !String(item.pk).startsWith('ADMIN#'))).toEqual(migrated);
    expect(after.some((item) => 'recentPk' in item || 'recentSk' in item)).toBe(false);
    expect(again).toMatchObject({ rootsIndexed: 0, repliesIndexed: 0, already: { replies: 7, roots: 9 } });
    expect(await scan(client, table.tableName)).toEqual(after);
    const api = createLocalApi(table, env);
    const recent = await api.call({ path: '/api/comment', query: 'type=recent&count=4' });
    expect(recent.status).toBe(200);
    expect(recent.body.data).toHaveLength(4);
  });
});
