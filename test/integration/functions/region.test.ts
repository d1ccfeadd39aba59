import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

describe('the region of a comment, on DynamoDB Local', () => {
  let table: TestTable;
  let documents: DynamoDBDocumentClient;
  let api: ReturnType<typeof createLocalApi>;
  let withoutRegions: ReturnType<typeof createLocalApi>;
  const post = (on: ReturnType<typeof createLocalApi>, url: string, sourceIp: string) =>
    on.call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: `from ${url}`, url, nick: 'Ann', mail: 'ann@example.com' },
      sourceIp,
    });
  const list = async (url: string) =>
    (await api.call({ path: '/api/comment', query: `path=${encodeURIComponent(url)}` })).body.data.data;

  beforeAll(async () => {
    table = await createTestTable();
    documents = DynamoDBDocumentClient.from(table.client);
    api = createLocalApi(table, { IPQPS: '0', LIST_CACHE_MS: '0' });
    withoutRegions = createLocalApi(table, { IPQPS: '0', LIST_CACHE_MS: '0', DISABLE_REGION: 'true' });
  });
  afterAll(() => table.drop());

  it('fills addr from the IP at write time, shows it in lists, and stores the region but never the IP', async () => {
    const posted = await post(api, '/region', '8.8.8.8');
    expect(posted.body.data).toMatchObject({ addr: 'United States' });
    expect((await list('/region'))[0]).toMatchObject({ addr: 'United States' });

    const { Items = [] } = await documents.send(new ScanCommand({ TableName: table.tableName }));
    const comment = Items.find((item) => item.entity === 'comment' && item.url === '/region');
    expect(comment).toMatchObject({ addr: 'United States' });
    // Nowhere in the table: not on the comment, nor on any mark or event the post wrote.
    const text = JSON.stringify(Items, (_, value: unknown) =>
      typeof value === 'bigint' ? String(value) : value,
    );
    expect(text).toContain('United States');
    expect(text).not.toContain('8.8.8.8');
    expect(comment).not.toHaveProperty('ip');
  });

  it('leaves addr out for an address the database places nowhere, and with DISABLE_REGION', async () => {
    const local = await post(api, '/region-local', '127.0.0.1');
    expect(local.body.data).not.toHaveProperty('addr');
    const disabled = await post(withoutRegions, '/region-off', '193.99.144.80');
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).not.toHaveProperty('addr');
    expect((await list('/region-off'))[0]).not.toHaveProperty('addr');
  });
});
