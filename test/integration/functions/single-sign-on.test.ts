import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../../functions/shared/table/keys.js';
import { usedSsoAssertionHash } from '../../../functions/shared/table/sso-assertions.js';
import { createLocalApi } from '../../support/local-services.js';
import { type LoopbackIssuer, startLoopbackIssuer } from '../../support/loopback-issuer.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const audience = 'https://comments.example.com';
const ssoSecret = 'the site backend key, shared with marginalia';
const time = 1_800_000_000_000;
const seconds = time / 1000;

/** What the site's backend mints for its member 42: a new `jti` each time unless told. */
const assertion = (claims: JWTPayload) =>
  new SignJWT({
    aud: audience,
    sub: 'member-42',
    name: 'Ada Lovelace',
    iat: seconds,
    exp: seconds + 120,
    ...claims,
  })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(ssoSecret));

describe('single sign-on on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let ip = 0;
  const exchange = (body: unknown) =>
    api.call({ method: 'POST', path: '/api/token/sso', body, sourceIp: `198.18.7.${++ip % 250}` });

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(
      table,
      { JWT_TOKEN: 'j'.repeat(40), SSO_SECRET: ssoSecret, SSO_AUDIENCE: audience },
      { now: () => time },
    );
  });
  afterAll(() => table.drop());

  it('takes an assertion once: its jti is marked used until it would expire, and a second use is refused', async () => {
    const once = await assertion({ jti: 'once' });

    const first = await exchange({ assertion: once });
    const replay = await exchange({ assertion: once });

    expect(first.status).toBe(200);
    expect(replay).toMatchObject({
      status: 401,
      body: { errno: 401, errmsg: 'assertion: jti already used (every assertion is exchanged once)' },
    });
    const { Item } = await table.client.send(
      new GetItemCommand({
        TableName: table.tableName,
        Key: {
          pk: { S: keys.usedSsoAssertion(usedSsoAssertionHash('sso:site', 'once')).pk },
          sk: { S: 'USED' },
        },
      }),
    );
    // Kept until exp plus the skew allowed, when the assertion would be refused as expired anyway; the jti is
    // only in the hash of the key.
    expect(unmarshall(Item ?? {})).toMatchObject({
      entity: 'used-sso-assertion',
      expiresAt: seconds + 120 + 60,
    });
    expect(JSON.stringify(Item)).not.toContain('"once"');
  });

  it('lets exactly one of ten exchanges of one assertion at once through (a conditional put)', async () => {
    const raced = await assertion({ jti: 'raced' });

    const answers = await Promise.all(Array.from({ length: 10 }, () => exchange({ assertion: raced })));

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array(9).fill(401)]);
  });

  it('signs the same member in to one account by (site, sub), and keeps the address as it was given', async () => {
    const first = await exchange({
      assertion: await assertion({ jti: 'a1', sub: 'member-7', email: 'seven@site.example' }),
    });
    const second = await exchange({
      assertion: await assertion({ jti: 'a2', sub: 'member-7', name: 'Renamed' }),
    });

    expect(first.status).toBe(200);
    expect(second.body.data.objectId).toBe(first.body.data.objectId);
    const account = await api.services.accounts.findByIdentity('sso:site', 'member-7');
    expect(account).toMatchObject({
      id: first.body.data.objectId,
      displayName: 'Ada Lovelace',
      email: 'seven@site.example',
      emailVerified: false,
    });
  });
});

describe("single sign-on with the site's own issuer, on DynamoDB Local", () => {
  let table: TestTable;
  let issuer: LoopbackIssuer;
  let api: ReturnType<typeof createLocalApi>;

  beforeAll(async () => {
    [table, issuer] = await Promise.all([createTestTable(), startLoopbackIssuer()]);
    // The issuer alone: its ID tokens are the assertions, HS256 is refused.
    api = createLocalApi(table, {
      JWT_TOKEN: 'j'.repeat(40),
      SSO_ISSUER: issuer.issuer,
      SSO_AUDIENCE: audience,
    });
  });
  afterAll(async () => {
    await issuer.close();
    await table.drop();
  });

  it("signs the issuer's user in to the account of (issuer, sub), and refuses its ID token a second time", async () => {
    const now = Math.floor(Date.now() / 1000);
    const idToken = await issuer.sign({
      aud: audience,
      sub: 'user-9',
      name: 'Grace',
      iat: now,
      exp: now + 60,
      jti: 'id-1',
    });
    const exchange = (assertion: string) =>
      api.call({ method: 'POST', path: '/api/token/sso', body: { assertion }, sourceIp: '198.18.9.1' });

    const first = await exchange(idToken);
    const replay = await exchange(idToken);
    const hs256 = await exchange(await assertion({ jti: 'hs-1', iat: now, exp: now + 60 }));

    expect(first.status).toBe(200);
    const account = await api.services.accounts.findByIdentity(`oidc:${issuer.issuer}`, 'user-9');
    expect(account?.id).toBe(first.body.data.objectId);
    expect(replay.body.errmsg).toBe('assertion: jti already used (every assertion is exchanged once)');
    expect(hs256.body).toEqual({
      errno: 401,
      errmsg: 'assertion: alg HS256 is accepted only with SSO_SECRET, which is not set here',
    });
  });
});
