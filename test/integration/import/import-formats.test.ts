import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { importedCommentId } from '../../../scripts/import/import-id.js';
import { hashIp } from '../../../functions/shared/domain/hashing.js';
import { createImportRepository } from '../../../scripts/shared/storage/import-repository.js';
import { createAccountRepository } from '../../../functions/shared/table/account-repository.js';
import { readSource } from '../../../scripts/import/detect.js';
import { planImport } from '../../../scripts/import/plan.js';
import { readInputs } from '../../../scripts/import/read-input.js';
import { runImport } from '../../../scripts/import/run-import.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { fixture, importInto, testSalt } from './import-support.js';

type Api = ReturnType<typeof createLocalApi>;
const q = encodeURIComponent;
const list = async (api: Api, url: string, extra = '') =>
  (await api.call({ path: '/api/comment', query: `path=${q(url)}&pageSize=50${extra}` })).body.data;
const counts = async (api: Api, urls: string[]) =>
  (await api.call({ path: '/api/comment', query: `type=count&url=${urls.map(q).join(',')}` })).body.data;
const siteCount = async (api: Api) =>
  (await api.call({ path: '/api/comment', query: 'type=count' })).body.data;
const recent = async (api: Api) =>
  (await api.call({ path: '/api/comment', query: 'type=recent&count=50' })).body.data as {
    objectId: string;
  }[];
const reading = async (api: Api, path: string, type = 'time') =>
  (await api.call({ path: '/api/article', query: `path=${q(path)}&type=${type}` })).body.data[0];

describe('import of a Waline export', () => {
  let table: TestTable;
  let api: Api;
  /** Tables of the tests that import again, each its own: the others read the first import only. */
  const rerunTables: TestTable[] = [];
  const id = (objectId: number, wall: string) =>
    importedCommentId('waline', String(objectId), Date.parse(`${wall}+08:00`));
  const ann = id(1, '2026-11-21T20:17:24');
  const importWaline = (into: TestTable) =>
    importInto(into, [fixture('waline.json')], { sourceTimezone: 'Asia/Shanghai' });
  /** A fresh table with the export imported once, and the API on it. */
  const importedOnce = async () => {
    const fresh = await createTestTable();
    rerunTables.push(fresh);
    await importWaline(fresh);
    return { table: fresh, api: createLocalApi(fresh) };
  };

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table);
    await importWaline(table);
  });
  afterAll(() => Promise.all([table, ...rerunTables].map((each) => each.drop())));

  it('lists the thread as Waline showed it when the export has nulls, ints and naive dates', async () => {
    const page = await list(api, '/posts/héllo/');

    expect(page.count).toBe(4);
    expect(page.data).toHaveLength(1);
    const [root] = page.data;
    expect(root).toMatchObject({
      objectId: ann,
      nick: 'Ann',
      like: 2,
      time: Date.UTC(2026, 10, 21, 12, 17, 24),
    });
    expect(root.comment).toContain('<strong>world</strong>');
    expect(root.browser).toBe('Firefox120.0');
    expect(root.children.map((child: { nick: string }) => child.nick)).toEqual(['Bob', 'Cid', 'Eve']);
    expect(root.children[0]).toMatchObject({ pid: ann, rid: ann, like: 1 });
  });

  it('rewrites the legacy reply link to the new id when the text names the old one', async () => {
    const [root] = (await list(api, '/posts/héllo/')).data;

    expect(root.children[1].orig).toBe(`[@Ann](#${ann}): legacy v2 reply`);
  });

  it('re-attaches a reply to its thread root when its parent was deleted', async () => {
    const [root] = (await list(api, '/posts/héllo/')).data;

    expect(root.children[2]).toMatchObject({ nick: 'Eve', pid: ann, rid: ann });
  });

  it('shows a registered author from Users and keeps sticky when nick, mail and link are null', async () => {
    const page = await list(api, '/about');

    expect(page.data[0]).toMatchObject({ nick: 'Admin', link: 'https://example.com', sticky: true });
  });

  it('counts pages and the site as the source did when spam, waiting and duplicates are in it', async () => {
    expect(await counts(api, ['/posts/héllo/', '/about'])).toEqual([4, 1]);
    expect(await siteCount(api)).toBe(5);
    expect(await api.services.moderation.queueSizes()).toMatchObject({ waiting: 1, spam: 1 });
    expect((await recent(api)).map((comment) => comment.objectId)[0]).toBe(id(8, '2026-11-21T20:24:00'));
  });

  it('keys pageviews raw and reactions decoded when the Counter rows do', async () => {
    expect(await reading(api, '/posts/h%C3%A9llo/')).toEqual({ time: 3 });
    expect(await reading(api, '/posts/héllo/', 'reaction0,reaction8')).toEqual({
      reaction0: 1,
      reaction8: 2,
    });
    expect(await reading(api, '/about')).toEqual({ time: 5 });
  });

  it('hashes IPs with the table salt when it imports', async () => {
    const client = createDocumentClient({ endpoint: table.endpoint });
    const items = (await client.send(new ScanCommand({ TableName: table.tableName }))).Items ?? [];
    client.destroy();
    const stored = items.find((item) => item.commentId === ann);

    expect(stored?.ipHash).toBe(hashIp(testSalt, '10.0.0.1'));
    expect(JSON.stringify(items)).not.toContain('10.0.0.1');
  });

  it('refuses a re-post of imported content as a duplicate', async () => {
    const { status } = await api.call({
      method: 'POST',
      path: '/api/comment',
      body: {
        url: '/posts/héllo/',
        comment: 'Hello **world** :smile:',
        nick: 'Ann',
        mail: 'ann@example.org',
        link: 'ann.example.org',
      },
      sourceIp: '10.9.9.9',
    });

    expect(status).toBe(409);
  });

  it('adds nothing and changes no counter when it runs a second time', async () => {
    const once = await importedOnce();

    const { outcome } = await importWaline(once.table);

    expect(outcome.imported).toEqual({ approved: 0, waiting: 0, spam: 0 });
    expect(outcome.alreadyThere).toBe(7);
    expect(await counts(once.api, ['/posts/héllo/', '/about'])).toEqual([4, 1]);
    expect(await siteCount(once.api)).toBe(5);
    expect(await reading(once.api, '/posts/h%C3%A9llo/')).toEqual({ time: 3 });
  });

  it('keeps live pageviews and adds nothing when it runs again after visits', async () => {
    const once = await importedOnce();
    for (let i = 0; i < 4; i++) {
      await once.api.call({ method: 'POST', path: '/api/article', body: { path: '/about', type: 'time' } });
    }

    const { outcome } = await importWaline(once.table);

    expect(await reading(once.api, '/about')).toEqual({ time: 9 });
    expect(outcome.readingChanged).toBe(0);
  });
});

describe('import into a table the site already uses', () => {
  let table: TestTable;
  let api: Api;
  let dir: string;
  const walineFile = async (name: string, time: number, comments: Record<string, unknown>[] = []) => {
    const file = join(dir, name);
    const counters = time > 0 ? [{ objectId: 1, url: '/switched/', time }] : [];
    const data = { Comment: comments, Counter: counters, Users: [] };
    await writeFile(file, JSON.stringify({ type: 'waline', version: 1, time: 0, data }));
    return file;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'marginalia-import-'));
  });
  // Each test brings the site it imports into: one counts the whole site. The import writes behind the
  // API's back, as another instance would: its counts are read uncached, not from the instance's copy.
  beforeEach(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { IPQPS: '0', LIST_CACHE_MS: '0' });
  });
  afterEach(() => table.drop());
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('adds imported comments to the live site count when other pages already have comments', async () => {
    for (const [i, comment] of ['live one', 'live two'].entries()) {
      await api.call({
        method: 'POST',
        path: '/api/comment',
        body: { url: '/live/', comment, nick: 'Liv' },
        sourceIp: `10.5.0.${i + 1}`,
      });
    }

    await importInto(table, [fixture('waline.json')], { sourceTimezone: 'Asia/Shanghai' });
    await importInto(table, [fixture('waline.json')], { sourceTimezone: 'Asia/Shanghai' });

    expect(await siteCount(api)).toBe(2 + 5);
    expect(await api.services.moderation.queueSizes()).toMatchObject({ waiting: 1, spam: 1 });
    expect(await counts(api, ['/live/', '/posts/héllo/'])).toEqual([2, 4]);
  });

  it('adds imported pageviews to the live ones, once, when the site switched before importing', async () => {
    for (let i = 0; i < 50; i++) {
      await api.call({ method: 'POST', path: '/api/article', body: { path: '/switched/', type: 'time' } });
    }
    const first = await walineFile('first.json', 1000);

    await importInto(table, [first]);
    expect(await reading(api, '/switched/')).toEqual({ time: 1050 });
    const { outcome } = await importInto(table, [first]);
    expect(await reading(api, '/switched/')).toEqual({ time: 1050 });
    expect(outcome.readingChanged).toBe(0);

    await importInto(table, [await walineFile('later.json', 1200)]);
    expect(await reading(api, '/switched/')).toEqual({ time: 1250 });
  });

  it('skips a copy that differs only by spaces, in one batch, when it runs and reruns', async () => {
    const row = (objectId: number, nick: string) => ({
      objectId,
      url: '/spaces/',
      comment: 'Same text',
      nick,
      mail: 'bob@example.org',
      insertedAt: `2024-01-01T00:00:0${objectId}Z`,
      status: 'approved',
    });
    const file = await walineFile('spaces.json', 0, [row(1, 'Bob'), row(2, 'Bob '), row(3, ' Bob')]);

    const first = await importInto(table, [file]);
    const second = await importInto(table, [file]);

    expect(first.outcome.imported.approved).toBe(1);
    expect(first.outcome.skipped.map((skip) => skip.reason)).toEqual([
      expect.stringContaining('exact duplicate'),
      expect.stringContaining('exact duplicate'),
    ]);
    expect(second.outcome.alreadyThere).toBe(1);
    expect(await counts(api, ['/spaces/'])).toEqual([1]);
  });
});

describe('an import resumed after a crash', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await createTestTable();
  });
  afterAll(() => table.drop());

  it('counts on the site what the stopped run wrote when it is run again', async () => {
    const { files } = await readInputs([fixture('waline.json')]);
    const plan = planImport(await readSource(files, { sourceTimezone: 'Asia/Shanghai' }), {
      ipHashSalt: testSalt,
    });
    const client = createDocumentClient({ endpoint: table.endpoint });
    const repository = createImportRepository(client, table.tableName);
    const crashing = {
      ...repository,
      putAll: async (items: readonly Record<string, unknown>[]) => {
        await repository.putAll(items.slice(0, 6));
        throw new Error('crash');
      },
    };
    const silent = () => ({ update: () => {}, finish: () => {} });

    const accounts = createAccountRepository(client, table.tableName);

    await expect(runImport(plan, crashing, silent, accounts)).rejects.toThrow('crash');
    const outcome = await runImport(plan, repository, silent, accounts);
    client.destroy();

    expect(outcome.alreadyThere).toBe(3);
    expect(outcome.site).toEqual({ comments: 5, waiting: 1, spam: 1 });
  });
});

describe('import of a LeanCloud (Valine) console export', () => {
  let table: TestTable;
  let api: Api;

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table);
    // One class file: its sibling Counter.0.jsonl comes along.
    await importInto(table, [fixture('leancloud/Comment.0.jsonl')]);
  });
  afterAll(() => table.drop());

  it('threads every Valine version when rows lack pid (1.2) or insertedAt (1.1)', async () => {
    const page = await list(api, '/2020/05/hello-world/');

    expect(page.count).toBe(4);
    expect(page.data.map((root: { nick: string }) => root.nick)).toEqual(['Cid', 'Ann']);
    const annRoot = page.data[1];
    expect(annRoot.time).toBe(Date.parse('2020-07-24T08:01:15.120Z'));
    expect(annRoot.children.map((child: { nick: string }) => child.nick)).toEqual(['Bob', 'Dan']);
    expect(annRoot.children[1]).toMatchObject({ pid: annRoot.objectId, rid: annRoot.objectId });
    expect(annRoot.children[0].orig).toContain(`href="#${annRoot.objectId}"`);
    expect(page.data[0]).toMatchObject({ like: 3, sticky: true });
    expect((await list(api, '/2017/old/')).data[0].time).toBe(Date.parse('2017-05-01T10:00:00.000Z'));
  });

  it('hides Valine-Admin spam and unreadable rows when Waline would have shown them', async () => {
    expect(await api.services.moderation.queueSizes()).toMatchObject({ waiting: 1, spam: 1 });
    expect(await siteCount(api)).toBe(6);
  });

  it('decodes comment urls and keys pageviews encoded when counter rows are duplicated or mixed', async () => {
    expect(await counts(api, ['/中文/'])).toEqual([1]);
    expect(await reading(api, '/2020/05/hello-world/')).toEqual({ time: 128 });
    expect(await reading(api, '/%E4%B8%AD%E6%96%87/')).toEqual({ time: 15 });
  });

  it('reads the pre-2020 {"results": [...]} shape when given one', async () => {
    // A table of its own: the tests above count the whole site of the console export.
    const own = await createTestTable();
    try {
      await importInto(own, [fixture('leancloud-2019.json')]);

      const page = await list(createLocalApi(own), '/2019/post/');
      expect(page.count).toBe(2);
      expect(page.data[0].children).toHaveLength(1);
    } finally {
      await own.drop();
    }
  });
});

describe('import of a Twikoo export', () => {
  let table: TestTable;
  let api: Api;

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table);
    await importInto(table, [fixture('twikoo-comment.json'), fixture('twikoo-counter.json')]);
    await importInto(table, [fixture('twikoo-comment.jsonl')]);
  });
  afterAll(() => table.drop());

  it('lists comments under the decoded path when Twikoo stored it percent-encoded', async () => {
    const page = await list(api, '/posts/你好/');

    expect(page.count).toBe(3);
    expect(page.data[0]).toMatchObject({ nick: 'Owner', like: 3, sticky: true, link: 'owner.example.org' });
    expect(page.data[0].children.map((child: { nick: string }) => child.nick)).toEqual(['Reader', 'Reader']);
    expect(page.data[0].children[1]).toMatchObject({ pid: page.data[0].children[0].objectId, link: '' });
  });

  it('keeps pageviews under the raw path and counts D1 and Mongo rows when ids and likes are wrapped', async () => {
    expect(await reading(api, '/posts/%E4%BD%A0%E5%A5%BD/')).toEqual({ time: 42 });
    expect((await list(api, '/b/')).data[0]).toMatchObject({ like: 1, nick: 'Anonymous' });
    expect((await list(api, '/m/')).data[0].children).toHaveLength(1);
    expect(await siteCount(api)).toBe(6);
  });

  it('never stores uid tokens when the export carries them', async () => {
    const client = createDocumentClient({ endpoint: table.endpoint });
    const items = (await client.send(new ScanCommand({ TableName: table.tableName }))).Items ?? [];
    client.destroy();

    expect(JSON.stringify(items)).not.toMatch(/token/);
  });
});

describe('import of Disqus XML and Artalk Artrans', () => {
  let table: TestTable;
  let api: Api;
  let disqusOutcome: Awaited<ReturnType<typeof importInto>>['outcome'];

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table);
    disqusOutcome = (await importInto(table, [fixture('disqus.xml')])).outcome;
    await importInto(table, [fixture('artalk.artrans')]);
  });
  afterAll(() => table.drop());

  it('flattens Disqus threads into root + pid when posts are nested and one is deleted', async () => {
    const page = await list(api, '/blog/first-post/');

    expect(page.count).toBe(4);
    const first = page.data.find((root: { nick: string }) => root.nick === 'Ann');
    expect(first.children.map((child: { nick: string }) => child.nick)).toEqual(['Bob', 'Dee']);
    expect(first.children[1]).toMatchObject({ pid: first.children[0].objectId, rid: first.objectId });
    expect(await counts(api, ['/blog/second/'])).toEqual([1]);
    expect(disqusOutcome.skipped.map((skip) => skip.reason).sort()).toEqual([
      'deleted in Disqus (its replies move up to the nearest kept ancestor)',
      'its thread is not in the file (orphan post)',
      'its thread was deleted in Disqus',
      'its time is missing or unreadable',
    ]);
  });

  it('flattens Artrans parents of any depth and keeps pending, pinned and votes', async () => {
    const page = await list(api, '/posts/a/');

    expect(page.count).toBe(4);
    const [root] = page.data;
    expect(root).toMatchObject({ nick: 'Ann', sticky: true, like: 4, time: Date.UTC(2023, 4, 1, 4) });
    expect(root.children.map((child: { nick: string }) => child.nick)).toEqual(['Bob', 'Cid', 'Fay']);
    expect(root.children.every((child: { rid: string }) => child.rid === root.objectId)).toBe(true);
    expect(await api.services.moderation.queueSizes()).toMatchObject({ waiting: 1, spam: 1 });
    expect((await list(api, '/posts/b/')).data[0]).toMatchObject({ like: 2 });
  });
});
