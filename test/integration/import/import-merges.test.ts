import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MergeRule } from '../../../scripts/import/page-keys.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { fixture, importInto } from './import-support.js';

type Api = ReturnType<typeof createLocalApi>;
interface Listed {
  nick: string;
  objectId: string;
  children: { nick: string; pid: string; rid: string }[];
}
const q = encodeURIComponent;
const list = async (api: Api, url: string) =>
  (await api.call({ path: '/api/comment', query: `path=${q(url)}&pageSize=50` })).body.data as {
    count: number;
    data: Listed[];
  };
const counts = async (api: Api, urls: string[]) =>
  (await api.call({ path: '/api/comment', query: `type=count&url=${urls.map(q).join(',')}` })).body.data;
const siteCount = async (api: Api) =>
  (await api.call({ path: '/api/comment', query: 'type=count' })).body.data;
const pageviews = async (api: Api, path: string) =>
  (await api.call({ path: '/api/article', query: `path=${q(path)}&type=time` })).body.data[0].time;

/** A fresh table with `files` imported under `rule`, the API on it, and the import's plan. */
async function imported(files: string[], mergePaths?: MergeRule) {
  const table = await createTestTable();
  const { plan } = await importInto(table, files.map(fixture), mergePaths ? { mergePaths } : {});
  return { table, api: createLocalApi(table), plan };
}

describe('import of a Twikoo site whose pages are split over /a and /a/', () => {
  const files = ['twikoo-split-comment.json', 'twikoo-split-counter.json'];
  const tables: TestTable[] = [];
  let api: Api;
  let plan: Awaited<ReturnType<typeof imported>>['plan'];

  beforeAll(async () => {
    const run = await imported(files);
    tables.push(run.table);
    ({ api, plan } = run);
  });
  afterAll(() => Promise.all(tables.map((table) => table.drop())));

  it('shows the whole thread under the slash variant when the comments were on both', async () => {
    const page = await list(api, '/posts/split/');

    expect(page.count).toBe(3);
    expect(page.data.map((root) => root.nick)).toEqual(['Cid', 'Ann']);
    const ann = page.data[1] as Listed;
    expect(ann.children).toEqual([
      expect.objectContaining({ nick: 'Bob', pid: ann.objectId, rid: ann.objectId }),
    ]);
    expect(await counts(api, ['/posts/split/', '/posts/split'])).toEqual([3, 0]);
  });

  it('adds up the pageviews of both variants under the key the browser sends', async () => {
    expect(await pageviews(api, '/posts/split/')).toBe(14);
    expect(await pageviews(api, '/posts/split')).toBe(0);
    expect(await pageviews(api, '/posts/%E4%B8%AD/')).toBe(7);
  });

  it('merges raw, decoded and slash forms of one page under the decoded key the widget asks for', async () => {
    expect(await counts(api, ['/posts/中/', '/posts/中', '/posts/%E4%B8%AD/'])).toEqual([2, 0, 0]);
  });

  it('leaves a page alone when the source had it under one variant only', async () => {
    expect(await counts(api, ['/posts/solo', '/posts/solo/'])).toEqual([1, 0]);
    expect(await pageviews(api, '/posts/solo')).toBe(3);
  });

  it('keeps pending and spam rows out of the page and the counts when Twikoo hid them', async () => {
    expect(await siteCount(api)).toBe(6);
    expect(await api.services.moderation.queueSizes()).toMatchObject({ waiting: 0, spam: 2 });
  });

  it('lists every merge with the keys it came from', () => {
    expect(plan.merges.map((merge) => [merge.into, merge.variants.map((variant) => variant.key)])).toEqual([
      ['/posts/split/', ['/posts/split', '/posts/split/']],
      ['/posts/中/', ['/posts/%E4%B8%AD', '/posts/%E4%B8%AD/', '/posts/中']],
    ]);
  });

  it('shows the thread under the bare variant when the rule is no-slash', async () => {
    const run = await imported(files, 'no-slash');
    tables.push(run.table);

    expect(await counts(run.api, ['/posts/split', '/posts/split/', '/posts/中'])).toEqual([3, 0, 2]);
    expect(await pageviews(run.api, '/posts/split')).toBe(14);
  });

  it('keeps the pages split as the source had them when the rule is none', async () => {
    const run = await imported(files, 'none');
    tables.push(run.table);

    expect(await counts(run.api, ['/posts/split', '/posts/split/'])).toEqual([1, 2]);
    expect(await pageviews(run.api, '/posts/split')).toBe(10);
    expect(run.plan.merges).toEqual([]);
  });
});

describe('import of Valine-era rows hidden by Valine-Admin', () => {
  let table: TestTable;
  let api: Api;

  beforeAll(async () => {
    ({ table, api } = await imported(['waline-leancloud.json']));
  });
  afterAll(() => table.drop());

  it('keeps spam and unreadable rows hidden when a Waline export from LeanCloud carries them', async () => {
    const page = await list(api, '/2021/post/');

    expect(page.data.map((root) => root.nick).sort()).toEqual(['Ann', 'Val']);
    expect(await siteCount(api)).toBe(4);
    expect(await api.services.moderation.queueSizes()).toMatchObject({ waiting: 1, spam: 1 });
  });

  it('threads a reply under its parent when Valine had them on the two variants', async () => {
    const page = await list(api, '/2021/post/');
    const val = page.data.find((root) => root.nick === 'Val') as Listed;

    expect(page.count).toBe(3);
    expect(val.children).toEqual([expect.objectContaining({ nick: 'Rep', pid: val.objectId })]);
    expect(await pageviews(api, '/2021/post/')).toBe(25);
  });

  it('lists an encoded old row under the decoded path when Waline kept it encoded', async () => {
    expect(await counts(api, ['/中文/'])).toEqual([1]);
  });

  it('keeps isSpam and ACL-locked rows hidden when the LeanCloud export is the pre-2020 shape', async () => {
    const run = await imported(['leancloud-hidden.json']);
    try {
      expect(await counts(run.api, ['/hidden/'])).toEqual([1]);
      expect(await run.api.services.moderation.queueSizes()).toMatchObject({ waiting: 1, spam: 1 });
    } finally {
      await run.table.drop();
    }
  });
});
