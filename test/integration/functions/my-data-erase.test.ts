import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInTestAccount } from '../../support/administrator.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

/**
 * A signed-in reader's erase under ERASE_WITH_REPLIES=anonymise, on DynamoDB Local: what others answered keeps its
 * text under "Anonymous", the rest goes; the page and site counts, the level counters and the user wall stay
 * exact, and neither the wall nor any list shows the reader's name, address or link again.
 */
describe('erasing with ERASE_WITH_REPLIES=anonymise, on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let ip = 0;

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, {
      JWT_TOKEN: 'j'.repeat(40),
      LIST_CACHE_MS: '0',
      IPQPS: '0',
      LEVELS: '0,1,2',
      ERASE_WITH_REPLIES: 'anonymise',
    });
  });
  afterAll(() => table.drop());

  const post = async (body: Record<string, unknown>, authorization?: string) => {
    const answer = await api.call({
      method: 'POST',
      path: '/api/comment',
      body: { url: '/anon', link: '', ...body },
      sourceIp: `10.9.0.${++ip}`,
      ...(authorization ? { headers: { authorization } } : {}),
    });
    expect(answer.body.errno, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data as { objectId: string };
  };
  const count = async () =>
    (await api.call({ path: '/api/comment', query: 'type=count&url=/anon' })).body.data;

  it('anonymises the answered comment, deletes the rest, and leaves the counts, levels and wall exact', async () => {
    const { account, authorization } = await signInTestAccount(api, {
      type: 'guest',
      email: 'vera.vole@example.com',
      displayName: 'Vera Vole',
    });
    const mine = { nick: 'Vera Vole', mail: account.email, link: 'https://vera-vole.example' };
    const answered = await post({ comment: 'vv kept words', ...mine }, authorization);
    await post({ comment: 'vv anonymous words', ...mine });
    await post({ comment: 'vv more words', ...mine });
    await post({
      comment: 'Wes answers',
      nick: 'Wes',
      mail: 'wes@example.com',
      pid: answered.objectId,
      rid: answered.objectId,
    });
    expect(await count()).toEqual([4]);
    const wallBefore = JSON.stringify((await api.call({ path: '/api/user' })).body);
    expect(wallBefore).toContain('Vera Vole');

    const erased = await api.call({ method: 'DELETE', path: '/api/my-data', headers: { authorization } });
    expect(erased.body.data).toEqual({
      done: true,
      removed: 2,
      kept: 1,
      suppressions: 0,
      account: 1,
      contacts: 0,
    });

    expect(await count()).toEqual([2]);
    const page = (await api.call({ path: '/api/comment', query: 'path=/anon&page=1&pageSize=10' })).body.data;
    expect(page.count).toBe(2);
    const [kept] = page.data as Record<string, unknown>[];
    expect(kept).toMatchObject({ objectId: answered.objectId, nick: 'Anonymous', link: '' });
    expect(String(kept?.comment)).toContain('vv kept words');
    expect((kept?.children as unknown[]).length).toBe(1);
    expect(kept?.user_id).toBeUndefined();
    // The wall shows Wes alone: the reader's counters (account and address) are gone with their display.
    const wall = JSON.stringify((await api.call({ path: '/api/user' })).body);
    expect(wall).toContain('Wes');
    expect(wall).not.toMatch(/Vera|vera-vole/);
    expect(JSON.stringify(page)).not.toMatch(/Vera|vera\.vole|vera-vole|vv anonymous|vv more/);
    // The link of an account that is gone, or a second erase with its token, finds nobody.
    expect(
      (await api.call({ method: 'DELETE', path: '/api/my-data', headers: { authorization } })).status,
    ).toBe(401);
  });
});
