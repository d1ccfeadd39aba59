import { type JWTPayload, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createIssueSession } from '../../../../functions/comment/issue-session.js';
import { createAccountOfIdentity } from '../../../../functions/comment/sign-in-with-identity.js';
import { createSignInWithSso, ssoAssertionVerifier } from '../../../../functions/comment/sign-in-with-sso.js';
import { verifyToken } from '../../../../functions/shared/auth/token.js';
import type { Account } from '../../../../functions/shared/domain/account.js';
import { createFakeAccountRepository } from '../../../support/fake-account-repository.js';
import { routeAnswer } from '../../../support/route-answer.js';
import { testConfig } from '../../../support/test-config.js';

const audience = 'https://comments.example.com';
const ssoSecret = 's'.repeat(40);
const tokenSecret = 't'.repeat(40);
const time = 1_800_000_000_000;
const seconds = time / 1000;

const assertion = (claims: JWTPayload = {}) =>
  new SignJWT({
    aud: audience,
    sub: 'member-42',
    name: 'Ada Lovelace',
    email: 'ada@site.example',
    email_verified: true,
    iat: seconds,
    exp: seconds + 60,
    jti: 'jti-1',
    ...claims,
  })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(ssoSecret));

function setUp(env: Record<string, string> = { SSO_SECRET: ssoSecret, SSO_AUDIENCE: audience }) {
  const config = testConfig({ JWT_TOKEN: tokenSecret, ...env });
  const accounts = createFakeAccountRepository();
  const attempts: string[] = [];
  const used = new Set<string>();
  const confirmed: string[] = [];
  let verified = 0;
  const verify = ssoAssertionVerifier(config, async () => config.SSO_SECRET);
  const route = createSignInWithSso({
    config,
    verifyAssertion: verify
      ? async (...args) => {
          verified += 1;
          return verify(...args);
        }
      : undefined,
    tokenSecret: async () => config.JWT_TOKEN,
    accountLimits: {
      countAttempt: async (action, networkHash) => attempts.push(`${action} ${networkHash}`),
    },
    claimAssertion: async (issuer, jti) => {
      const key = `${issuer} ${jti}`;
      if (used.has(key)) return false;
      used.add(key);
      return true;
    },
    accountOfIdentity: createAccountOfIdentity({
      accounts,
      confirmations: { confirm: async (hash) => void confirmed.push(hash) },
      hashAddress: (address) => `hash:${address}`,
      config,
      now: () => time,
      newId: () => '01SSOACCOUNT00000000000001',
    }),
    issueSession: createIssueSession({
      tokenSecret: async () => config.JWT_TOKEN,
      config,
      now: () => time,
      avatarFor: () => 'https://avatar.example/computed.png',
    }),
    now: () => time,
  });
  const exchange = async (body: unknown) =>
    routeAnswer(route, { method: 'POST', path: '/api/token/sso', body, sourceIp: '203.0.113.9' });
  return { route, exchange, accounts, attempts, confirmed, verified: () => verified };
}

describe('POST /api/token/sso', () => {
  it('answers as POST /api/token: the account of (sso:<audience>, sub) and a token for it', async () => {
    const { exchange, accounts, confirmed } = setUp();

    const answer = await exchange({ assertion: await assertion() });

    expect(answer.statusCode).toBe(200);
    const { data } = answer.body as {
      data: { objectId: string; display_name: string; type: string; token: string };
    };
    expect(data).toMatchObject({
      objectId: '01SSOACCOUNT00000000000001',
      display_name: 'Ada Lovelace',
      type: 'guest',
    });
    const account = (await accounts.findByIdentity('sso:site', 'member-42')) as Account;
    expect(account).toMatchObject({ id: data.objectId, email: 'ada@site.example', emailVerified: true });
    expect(await verifyToken(tokenSecret, data.token, time)).toMatchObject({ sub: data.objectId });
    expect(confirmed).toEqual(['hash:ada@site.example']);
  });

  it('refuses the same assertion a second time (401 naming the rule), and takes a new one of the same member', async () => {
    const { exchange, accounts } = setUp();
    const once = await assertion();

    await exchange({ assertion: once });
    const replay = await exchange({ assertion: once });
    const next = await exchange({ assertion: await assertion({ jti: 'jti-2' }) });

    expect(replay).toEqual({
      statusCode: 401,
      body: { errno: 401, errmsg: 'assertion: jti already used (every assertion is exchanged once)' },
    });
    expect(next.statusCode).toBe(200);
    expect(accounts.byId.size).toBe(1);
  });

  it('counts every exchange of the network before verifying any signature, and stops past 60 an hour', async () => {
    const { exchange, attempts, verified } = setUp();
    const forged = `${(await assertion()).slice(0, -4)}AAAA`;

    for (let i = 0; i < 60; i += 1) expect((await exchange({ assertion: forged })).statusCode).toBe(401);
    const limited = await exchange({ assertion: await assertion() });

    expect(limited.statusCode).toBe(429);
    expect(verified()).toBe(60);
    expect(attempts).toHaveLength(61);
    expect(attempts[0]).toMatch(/^sso /);
  });

  it('says single sign-on is not configured (403) when no key nor issuer is set, and counts nothing', async () => {
    const { exchange, attempts } = setUp({});

    const answer = await exchange({ assertion: await assertion() });

    expect(answer.statusCode).toBe(403);
    expect((answer.body as { errmsg: string }).errmsg).toContain('Single sign-on is not configured');
    expect(attempts).toEqual([]);
  });

  it('refuses a banned member as a password sign-in does (issue-session.ts)', async () => {
    const { exchange, accounts } = setUp();
    await exchange({ assertion: await assertion() });
    const account = (await accounts.findByIdentity('sso:site', 'member-42')) as Account;
    await accounts.update(account.id, { type: 'banned' });

    const answer = await exchange({ assertion: await assertion({ jti: 'jti-3' }) });

    expect(answer.statusCode).toBe(403);
  });

  it('refuses a body without an assertion (400 naming the field)', async () => {
    const { exchange } = setUp();

    const answer = await exchange({ token: 'x' });

    expect(answer.statusCode).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('assertion');
  });
});
