import { describe, expect, it } from 'vitest';
import { createOAuthRoutes } from '../../../../functions/comment/oauth-routes.js';
import type { SignInProvider } from '../../../../functions/comment/sign-in-provider.js';
import { toApiRequest } from '../../../../functions/shared/http/request.js';
import type { OAuthFlow, OAuthFlows } from '../../../../functions/shared/table/oauth-flows.js';
import { buildEvent } from '../../../support/http-event.js';

const now = Date.UTC(2026, 10, 29, 15, 0);

/** A provider that records what it is asked and never signs anyone in. */
function fakeProvider(calls: string[]): SignInProvider {
  return {
    key: 'oidc-1',
    label: 'Test',
    issuer: 'https://issuer.example.test',
    authorizationUrl: async ({ state, codeChallenge, redirectUri }) => {
      calls.push(`authorize ${redirectUri}`);
      return new URL(`https://issuer.example.test/auth?state=${state}&code_challenge=${codeChallenge}`);
    },
    identityOf: async () => {
      calls.push('identityOf');
      throw new Error('not in these tests');
    },
  };
}

/** Flows in memory that record each call. */
function fakeFlows(calls: string[]): OAuthFlows & { stored: Map<string, OAuthFlow> } {
  const stored = new Map<string, OAuthFlow>();
  return {
    stored,
    begin: async (stateHash, flow) => {
      calls.push('begin');
      stored.set(stateHash, flow);
    },
    take: async () => {
      calls.push('take');
      return undefined;
    },
  };
}

function routes(calls: string[]) {
  const flows = fakeFlows(calls);
  const built = createOAuthRoutes({
    providers: [fakeProvider(calls)],
    flows,
    accountOfIdentity: async () => {
      throw new Error('no account in these tests');
    },
    issueSession: async () => {
      throw new Error('no session in these tests');
    },
    config: { ALLOWED_ORIGINS: ['https://blog.example.test'] },
    now: () => now,
  });
  return { ...built, flows };
}

const request = (path: string, query = '', headers: Record<string, string> = {}) =>
  toApiRequest(buildEvent({ path, query, headers: { host: 'comments.example.test', ...headers } }));

describe('createOAuthRoutes', () => {
  it('stores a flow bound to a new cookie and sends the browser to the provider with an S256 challenge', async () => {
    const calls: string[] = [];
    const { begin, flows } = routes(calls);
    const answer = await begin(
      request('/api/oauth/oidc-1', 'redirect=https%3A%2F%2Fblog.example.test%2Fp&remember=0'),
    );

    expect(answer.statusCode).toBe(302);
    expect(calls).toEqual(['authorize https://comments.example.test/api/oauth/callback', 'begin']);
    const cookie = answer.headers['set-cookie'] ?? '';
    expect(cookie).toMatch(
      /^__Host-marginalia-signin=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/,
    );
    const [flow] = [...flows.stored.values()];
    expect(flow).toMatchObject({
      provider: 'oidc-1',
      redirect: 'https://blog.example.test/p',
      remember: false,
      validUntil: now + 600_000,
    });
    expect(flow?.browserHash).not.toBe(cookie.split(';')[0]?.split('=')[1]);
    const location = new URL(answer.headers.location ?? '');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('code_challenge')).not.toBe(flow?.codeVerifier);
  });

  it('refuses an unknown provider and a redirect to an unconfigured site, storing nothing', async () => {
    const calls: string[] = [];
    const { begin } = routes(calls);
    expect((await begin(request('/api/oauth/nope'))).statusCode).toBe(404);
    const elsewhere = await begin(
      request('/api/oauth/oidc-1', 'redirect=https%3A%2F%2Fevil.example.test%2F'),
    );
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.headers['set-cookie']).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('refuses a callback without the cookie before reading any flow or asking the provider', async () => {
    const calls: string[] = [];
    const { callback } = routes(calls);
    const answer = await callback(request('/api/oauth/callback', 'state=abc&code=stolen'));
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('not started in this browser');
    expect(answer.body).not.toContain('stolen');
    expect(calls).toEqual([]);
  });

  it('refuses a callback whose flow is not this browser’s without asking the provider', async () => {
    const calls: string[] = [];
    const { callback } = routes(calls);
    const cookie = `__Host-marginalia-signin=${'a'.repeat(43)}`;
    const answer = await callback(request('/api/oauth/callback', 'state=abc&code=c', { cookie }));
    expect(answer.statusCode).toBe(400);
    expect(calls).toEqual(['take']);
  });

  it('refuses a callback without a state, or with a repeated one', async () => {
    const calls: string[] = [];
    const { callback } = routes(calls);
    expect((await callback(request('/api/oauth/callback', 'code=c'))).statusCode).toBe(400);
    expect((await callback(request('/api/oauth/callback', 'state=a&state=b'))).statusCode).toBe(400);
    expect(calls).toEqual([]);
  });
});
