import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../../../functions/shared/dynamodb-client/client.js';
import { keys } from '../../../../../functions/shared/table/keys.js';
import {
  createOAuthFlows,
  type OAuthFlow,
  type OAuthFlows,
} from '../../../../../functions/shared/table/oauth-flows.js';
import { createTestTable, type TestTable } from '../../../../support/test-table.js';

const now = Date.UTC(2026, 10, 29, 14, 0);
const flow: OAuthFlow = {
  provider: 'oidc-1',
  issuer: 'https://issuer.example.test',
  nonce: 'nonce-value',
  codeVerifier: 'verifier-value',
  redirect: 'https://blog.example.test/post',
  remember: true,
  browserHash: 'browser-a',
  validUntil: now + 600_000,
};

describe('createOAuthFlows on DynamoDB Local', () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;
  let flows: OAuthFlows;

  beforeAll(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
    flows = createOAuthFlows(client, table.tableName);
  });
  afterAll(async () => table.drop());

  it('gives a flow back once: a second take of the same state finds nothing', async () => {
    await flows.begin('state-once', flow);
    expect(await flows.take('state-once', 'browser-a', now)).toEqual(flow);
    expect(await flows.take('state-once', 'browser-a', now)).toBeUndefined();
  });

  it('gives one of two takes at once the flow, and the other nothing', async () => {
    await flows.begin('state-race', flow);
    const taken = await Promise.all([
      flows.take('state-race', 'browser-a', now),
      flows.take('state-race', 'browser-a', now),
    ]);
    expect(taken.filter(Boolean)).toHaveLength(1);
  });

  it("refuses another browser's take and leaves the flow for the browser that began it", async () => {
    await flows.begin('state-bound', flow);
    expect(await flows.take('state-bound', 'browser-b', now)).toBeUndefined();
    expect(await flows.take('state-bound', 'browser-a', now)).toEqual(flow);
  });

  it('refuses a flow past its time, which TTL then removes', async () => {
    await flows.begin('state-late', flow);
    expect(await flows.take('state-late', 'browser-a', flow.validUntil)).toBeUndefined();
    const item = await client.send(
      new GetCommand({ TableName: table.tableName, Key: keys.oauthFlow('state-late') }),
    );
    expect(item.Item?.expiresAt).toBe(Math.ceil(flow.validUntil / 1000));
  });

  it('refuses to overwrite a flow of the same state', async () => {
    await flows.begin('state-twice', flow);
    await expect(flows.begin('state-twice', { ...flow, browserHash: 'browser-b' })).rejects.toThrow();
    expect(await flows.take('state-twice', 'browser-a', now)).toEqual(flow);
  });

  it('stores a flow without a redirect as one without', async () => {
    const { redirect: _redirect, ...bare } = flow;
    await flows.begin('state-bare', { ...bare, remember: false });
    expect(await flows.take('state-bare', 'browser-a', now)).toEqual({ ...bare, remember: false });
  });

  it('refuses values past their bounds before writing', async () => {
    await expect(
      flows.begin('state-big', { ...flow, redirect: `https://x.test/${'a'.repeat(2000)}` }),
    ).rejects.toThrow(/bound/);
    await expect(flows.begin('state-big', { ...flow, nonce: 'n'.repeat(301) })).rejects.toThrow(/bound/);
    expect(await flows.take('state-big', 'browser-a', now)).toBeUndefined();
  });
});
