import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../../functions/shared/auth/password.js';
import { signToken } from '../../../functions/shared/auth/token.js';
import type { HttpHandler } from '../../../functions/shared/http/http-types.js';
import { createAccountRepository } from '../../../functions/shared/table/account-repository.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { startFakeSecretsExtension } from '../../support/fake-secrets-extension.js';
import { buildEvent, type EventSpec, testContext } from '../../support/http-event.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const jwtParameter = '/marginalia/jwt-secret';
const akismetParameter = '/marginalia/akismet-key';
const ssoParameter = '/marginalia/sso-secret';
const ssoAudience = 'https://comments.example.com';

/** The comment function as Lambda loads it (functions/comment/handler.ts), with its secrets in SSM. */
describe('the comment function with its secrets in SSM', () => {
  let table: TestTable;
  let extension: Awaited<ReturnType<typeof startFakeSecretsExtension>>;
  let handler: HttpHandler;
  const akismet = vi.fn<typeof fetch>(async () => new Response('true', { status: 200 }));
  const call = async (spec: EventSpec) => {
    const response = await handler(buildEvent(spec), testContext);
    return { status: response.statusCode, body: JSON.parse(response.body || 'null') };
  };
  const me = async (token: string) =>
    (await call({ path: '/api/token', headers: { authorization: `Bearer ${token}` } })).body.data;

  beforeAll(async () => {
    table = await createTestTable();
    // The handler reaches the extension at localhost, as on Lambda.
    extension = await startFakeSecretsExtension('localhost');
    extension.values.set(jwtParameter, 'a'.repeat(40));
    extension.values.set(akismetParameter, 'abc123def456');
    extension.values.set(ssoParameter, 's'.repeat(40));
    await createAccountRepository(createDocumentClient({ endpoint: table.endpoint }), table.tableName).create(
      {
        type: 'administrator',
        state: 'active',
        sessionVersion: 0,
        id: '01ADMIN',
        email: 'admin@example.com',
        displayName: 'Admin',
        passwordHash: await hashPassword('a long enough password'),
        createdAt: 0,
      },
    );
    // What the stack gives the comment function (lib/marginalia-stack.ts), pointed at DynamoDB Local.
    vi.stubEnv('TABLE_NAME', table.tableName);
    vi.stubEnv('DYNAMODB_ENDPOINT', table.endpoint);
    vi.stubEnv('IP_HASH_SALT', 'test-salt-0123456789abcdef');
    vi.stubEnv('JWT_TOKEN', undefined);
    vi.stubEnv('AKISMET_KEY', undefined);
    vi.stubEnv('JWT_SECRET_PARAMETER', jwtParameter);
    vi.stubEnv('AKISMET_KEY_PARAMETER', akismetParameter);
    vi.stubEnv('SSO_SECRET_PARAMETER', ssoParameter);
    vi.stubEnv('SSO_AUDIENCE', ssoAudience);
    vi.stubEnv('PARAMETERS_SECRETS_EXTENSION_HTTP_PORT', String(extension.port));
    vi.stubEnv('AWS_SESSION_TOKEN', 'the-session-token');
    vi.stubGlobal('fetch', akismet);
    vi.resetModules();
    ({ handler } = await import('../../../functions/comment/handler.js'));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
    await extension.close();
    await table.drop();
  });

  it('asks Akismet with the key read from its parameter, and marks the comment spam when it says so', async () => {
    const posted = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'cheap pills', url: '/akismet' },
    });

    expect(posted.body.data.status).toBe('spam');
    expect(String(akismet.mock.calls[0]?.[0])).toBe(
      'https://abc123def456.rest.akismet.com/1.1/comment-check',
    );
    expect(extension.requests).toContainEqual({ name: akismetParameter, token: 'the-session-token' });
  });

  it('exchanges a single sign-on assertion signed with the key read from SSO_SECRET_PARAMETER', async () => {
    const iat = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ sub: 'member-1', name: 'Member One', jti: 'secrets-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(ssoAudience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(new TextEncoder().encode('s'.repeat(40)));

    const signedIn = await call({ method: 'POST', path: '/api/token/sso', body: { assertion } });

    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toMatchObject({ display_name: 'Member One', token: expect.any(String) });
    expect(extension.requests).toContainEqual({ name: ssoParameter, token: 'the-session-token' });
  });

  it('accepts tokens of a rotated key at once, and then no longer those of the old key', async () => {
    const signIn = await call({
      method: 'POST',
      path: '/api/token',
      body: { email: 'admin@example.com', password: 'a long enough password' },
    });
    const oldToken: string = signIn.body.data.token;
    expect(await me(oldToken)).toMatchObject({ email: 'admin@example.com' });

    extension.values.set(jwtParameter, 'b'.repeat(40));
    const newToken = await signToken('b'.repeat(40), {
      sub: '01ADMIN',
      email: 'admin@example.com',
      exp: Math.floor(Date.now() / 1000) + 3600,
    });

    expect(await me(newToken)).toMatchObject({ email: 'admin@example.com' });
    expect(await me(oldToken)).toEqual({});
    expect(extension.requests.filter((request) => request.name === jwtParameter)).toHaveLength(2);
  });
});
