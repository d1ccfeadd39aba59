import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HttpHandler } from '../../../functions/shared/http/http-types.js';
import { buildEvent, type EventSpec, testContext } from '../../support/http-event.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

/** The article function as Lambda loads it (functions/article/handler.ts), configured from its environment. */
describe('the article function entry point', () => {
  let table: TestTable;
  let handler: HttpHandler;
  const call = async (spec: EventSpec) => {
    const response = await handler(buildEvent(spec), testContext);
    return { status: response.statusCode, body: JSON.parse(response.body || 'null') };
  };

  beforeAll(async () => {
    table = await createTestTable();
    // What the stack gives the article function (lib/marginalia-stack.ts), pointed at DynamoDB Local.
    vi.stubEnv('TABLE_NAME', table.tableName);
    vi.stubEnv('DYNAMODB_ENDPOINT', table.endpoint);
    vi.stubEnv('IP_HASH_SALT', 'test-salt-0123456789abcdef');
    vi.resetModules();
    ({ handler } = await import('../../../functions/article/handler.js'));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await table.drop();
  });

  it('counts a pageview and reads it back, on the table its environment names', async () => {
    const counted = await call({ method: 'POST', path: '/api/article', body: { path: '/entry' } });
    const read = await call({ path: '/api/article', query: 'path=%2Fentry' });

    expect(counted).toEqual({ status: 200, body: { errno: 0, errmsg: '', data: [{ time: 1 }] } });
    expect(read.body.data).toEqual([{ time: 1 }]);
  });
});
