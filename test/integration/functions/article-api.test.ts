import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

describe('reading counts on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  const update = (body: unknown, path = '/api/article', sourceIp = '203.0.113.7') =>
    api.call({ method: 'POST', path, body, sourceIp });
  const read = (query: string, path = '/api/article') => api.call({ path, query });

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table);
  });
  afterAll(() => table.drop());

  it('increments pageviews by default and returns the new value', async () => {
    expect((await update({ path: '/incremented' })).body).toEqual({
      errno: 0,
      errmsg: '',
      data: [{ time: 1 }],
    });
    expect((await update({ path: '/incremented', type: 'time', action: 'inc' })).body.data).toEqual([
      { time: 2 },
    ]);
  });

  it('decrements reactions but never below zero, and creates nothing for an unknown page', async () => {
    await update({ path: '/r', type: 'reaction2' });

    expect((await update({ path: '/r', type: 'reaction2', action: 'desc' })).body.data).toEqual([
      { reaction2: 0 },
    ]);
    expect((await update({ path: '/r', type: 'reaction2', action: 'desc' })).body.data).toEqual([
      { reaction2: 0 },
    ]);
    expect((await update({ path: '/never', type: 'reaction1', action: 'desc' })).body.data).toEqual([
      { reaction1: 0 },
    ]);
    expect((await read('path=%2Fr&type=reaction2')).body.data).toEqual([{ reaction2: 0 }]);
  });

  it('refuses desc on pageviews with a 400 naming the action, in the caller language, and keeps the count', async () => {
    await update({ path: '/views' });
    await update({ path: '/views' });

    const refused = await update({ path: '/views', type: 'time', action: 'desc' });
    const inChinese = await api.call({
      method: 'POST',
      path: '/api/article',
      query: 'lang=zh-CN',
      body: { path: '/views', action: 'desc' },
    });
    const legacy = await update({ path: '/views', type: 'time', action: 'desc' }, '/article');

    expect(refused).toMatchObject({ status: 400, body: { errno: 1001 } });
    expect(refused.body.errmsg).toBe(
      'Invalid input: action: `desc` applies to reactions only: pageviews only go up',
    );
    expect(refused.body.details).toEqual({
      action: '`desc` applies to reactions only: pageviews only go up',
    });
    expect(inChinese.status).toBe(400);
    expect(inChinese.body.errmsg).toContain('浏览量只增不减');
    expect(legacy.status).toBe(400);
    expect((await read('path=%2Fviews')).body.data).toEqual([{ time: 2 }]);
  });

  it('counts a reaction once per voter, and only its voter can take it back', async () => {
    const react = (action: string, sourceIp: string) =>
      update({ path: '/votes', type: 'reaction4', action }, '/api/article', sourceIp);

    expect((await react('inc', '192.0.2.1')).body.data).toEqual([{ reaction4: 1 }]);
    expect((await react('inc', '192.0.2.1')).body.data).toEqual([{ reaction4: 1 }]);
    expect((await react('inc', '192.0.2.2')).body.data).toEqual([{ reaction4: 2 }]);
    expect((await react('desc', '192.0.2.3')).body.data).toEqual([{ reaction4: 2 }]);
    expect((await react('desc', '192.0.2.1')).body.data).toEqual([{ reaction4: 1 }]);
    expect((await react('desc', '192.0.2.1')).body.data).toEqual([{ reaction4: 1 }]);
    expect((await read('path=%2Fvotes&type=reaction4')).body.data).toEqual([{ reaction4: 1 }]);
  });

  it('reads several paths and types aligned with the request, 0 where unknown', async () => {
    await update({ path: '/several-a' });
    await update({ path: '/several-a' });
    await update({ path: '/several-b', type: 'reaction0' });

    const { body } = await read('path=%2Fseveral-a,%2Fmissing&path=%2Fseveral-b&type=time,reaction0');

    expect(body.data).toEqual([
      { time: 2, reaction0: 0 },
      { time: 0, reaction0: 0 },
      { time: 0, reaction0: 1 },
    ]);
  });

  it('keeps paths opaque: an encoded and a decoded path are different counters', async () => {
    await update({ path: '/%E4%B8%AD' });

    const { body } = await read(`path=${encodeURIComponent('/%E4%B8%AD')},${encodeURIComponent('/中')}`);

    expect(body.data).toEqual([{ time: 1 }, { time: 0 }]);
  });

  it('refuses a missing path, an unknown type or action with a 400 naming the field', async () => {
    await update({ path: '/refused' });
    await update({ path: '/refused' });

    const noPath = await update({ type: 'time' });
    const badType = await update({ path: '/refused', type: 'reaction9' });
    const badAction = await update({ path: '/refused', action: 'double' });
    const readNoPath = await read('type=time');

    expect(noPath).toMatchObject({ status: 400, body: { errno: 1001 } });
    expect(noPath.body.details).toHaveProperty('path');
    expect(badType.body.details).toHaveProperty('type');
    expect(badAction.body.details).toHaveProperty('action');
    expect(readNoPath.body.details).toHaveProperty('path');
    expect((await read('path=%2Frefused')).body.data).toEqual([{ time: 2 }]);
  });

  it('answers the legacy /article route with bare numbers and objects', async () => {
    await update({ path: '/legacy-a' });
    await update({ path: '/legacy-a' });
    await update({ path: '/legacy-b', type: 'reaction0' });

    expect((await update({ path: '/legacy-a' }, '/article')).body).toBe(3);
    expect((await read('path=%2Flegacy-a', '/article')).body).toBe(3);
    expect((await read('path=%2Flegacy-a&type=time,reaction0', '/article')).body).toEqual({
      time: 3,
      reaction0: 0,
    });
    expect((await read('path=%2Flegacy-a,%2Flegacy-b', '/article')).body).toEqual([3, 0]);
    expect((await read('path=%2Flegacy-a,%2Flegacy-b&type=time,reaction0', '/article')).body).toEqual([
      { time: 3, reaction0: 0 },
      { time: 0, reaction0: 1 },
    ]);
  });
});
