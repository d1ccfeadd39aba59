import { githubProvider } from '../../functions/comment/github-sign-in.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BadIdTokenIssuer, startBadIdTokenIssuer, subjectOf } from '../support/bad-id-token-issuer.js';
import { type FakeGithub, startFakeGithub } from '../support/fake-github.js';
import { type LocalHttpServer, startLocalHttpServer } from '../support/local-http-server.js';
import { createTestTable, type TestTable } from '../support/test-table.js';

/**
 * Sign-in with an OpenID Connect issuer and with GitHub (issue 28) over the local HTTP API, against real servers on
 * loopback: oidc-provider as the issuer (its development login and consent pages, driven over HTTP), a hand-made
 * issuer that signs faulty ID tokens, and a fake GitHub.
 */

const clientId = 'marginalia';
const clientSecret = 'issuer-client-secret-0123456789abcdef';
const githubSecret = 'github-client-secret-0123456789abcdef';
const site = 'https://blog.example.test';
const cookieName = 'marginalia-signin';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are whatever JSON they are
type Json = any;

/** Cookies of one host, as a browser keeps them (names and values only). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      this.cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/** A GET that follows no redirect, with `jar`'s cookies, keeping the ones it is given. */
async function get(url: string, jar?: CookieJar): Promise<Response> {
  const response = await fetch(url, {
    redirect: 'manual',
    headers: jar ? { cookie: jar.header() } : {},
  });
  jar?.take(response);
  return response;
}

/** The user a callback's page hands to the widget, with its redirect. */
function handedOff(html: string): { user: Json; remember: boolean; redirect: string | null } {
  const json = /<script type="application\/json" id="signed-in">(.*?)<\/script>/s.exec(html)?.[1];
  if (!json) throw new Error(`no signed-in user on the page: ${html}`);
  return JSON.parse(json);
}

/** The plain words of a refusal's page. */
const refusalOf = (html: string) => /<p class="error" role="alert" id="refusal">(.*?)<\/p>/s.exec(html)?.[1];

describe('sign-in with an OpenID Connect issuer and GitHub, end to end', () => {
  let table: TestTable;
  let api: LocalHttpServer;
  let issuerServer: Server;
  let issuer: string;
  let badIssuer: BadIdTokenIssuer;
  let github: FakeGithub;
  let unreachableIssuer: string;

  beforeAll(async () => {
    table = await createTestTable();
    // The issuer's address goes into the API's settings, and the API's callback into the issuer's client.
    const issuerApp: { provider?: Provider } = {};
    issuerServer = createServer((request, response) => issuerApp.provider?.callback()(request, response));
    await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    badIssuer = await startBadIdTokenIssuer(clientId);
    github = await startFakeGithub('github-client', githubSecret);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    unreachableIssuer = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    api = await startLocalHttpServer(table, {
      IPQPS: '0',
      JWT_TOKEN: 'oauth-e2e-secret-0123456789abcdef-0123456',
      ALLOWED_ORIGINS: site,
      OIDC_ISSUER: `${issuer},${badIssuer.issuer},${unreachableIssuer}`,
      OIDC_CLIENT_ID: `${clientId},${clientId},${clientId}`,
      OIDC_CLIENT_SECRET: `${clientSecret},${clientSecret},${clientSecret}`,
      OIDC_LABEL: 'Test issuer,Faulty issuer,Gone issuer',
      GITHUB_CLIENT_ID: 'github-client',
      GITHUB_CLIENT_SECRET: githubSecret,
      GITHUB_URL: github.url,
      GITHUB_API_URL: github.url,
    });
    issuerApp.provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [`${api.base}/api/oauth/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      async findAccount(_context, sub) {
        return {
          accountId: sub,
          claims: async () => ({
            sub,
            name: `Reader ${sub}`,
            email: `${sub}@readers.example.test`,
            email_verified: sub !== 'unverified',
            website: 'https://olive.example.test',
          }),
        };
      },
      claims: { openid: ['sub'], profile: ['name', 'website'], email: ['email', 'email_verified'] },
      // The profile and address claims in the ID token itself, as Cognito, Google and Auth0 answer them.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: true } },
    });
  });

  afterAll(async () => {
    await api?.close();
    await new Promise<void>((resolve) => issuerServer?.close(() => resolve()));
    await badIssuer?.close();
    await github?.close();
    await table?.drop();
  });

  /** Begins a sign-in as a browser with `jar` would: the login page's link, answered with the provider's address. */
  async function begin(providerKey: string, jar: CookieJar, query = ''): Promise<URL> {
    const response = await get(`${api.base}/api/oauth/${providerKey}${query}`, jar);
    expect(response.status, await response.clone().text()).toBe(302);
    return new URL(response.headers.get('location') ?? '');
  }

  /** Signs `sub` in at oidc-provider (its login, then its consent page) and answers the callback's address. */
  async function signInAtIssuer(authorization: URL, sub: string): Promise<string> {
    const jar = new CookieJar();
    let next = authorization.toString();
    for (let step = 0; step < 12; step += 1) {
      if (next.startsWith(`${api.base}/api/oauth/callback`)) return next;
      const response = await get(next, jar);
      if (response.status >= 300 && response.status < 400) {
        next = new URL(response.headers.get('location') ?? '', next).toString();
        continue;
      }
      const page = await response.text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      if (!prompt || !action) throw new Error(`the issuer answered ${response.status}: ${page}`);
      const posted = await fetch(new URL(action, next), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt, login: sub, password: 'any' }).toString(),
      });
      jar.take(posted);
      next = new URL(posted.headers.get('location') ?? '', next).toString();
    }
    throw new Error('the issuer never sent the browser back');
  }

  it('shows a button per provider on /ui/login', async () => {
    const page = await (await fetch(`${api.base}/ui/login`)).text();
    expect(page).toContain('Sign in with Test issuer');
    expect(page).toContain('Sign in with Faulty issuer');
    expect(page).toContain('Sign in with GitHub');
    expect(page).toContain('data-provider="oidc-1"');
    expect(page).toContain('data-provider="github"');
  });

  it('signs a reader in through the code flow with PKCE, and finds the same account by (issuer, sub) the next time', async () => {
    const jar = new CookieJar();
    const authorization = await begin(
      'oidc-1',
      jar,
      `?redirect=${encodeURIComponent(`${site}/post/1`)}&remember=0`,
    );
    expect(authorization.origin).toBe(issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${api.base}/api/oauth/callback`);
    expect(jar.get(cookieName)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const callback = await signInAtIssuer(authorization, 'olive');
    const page = await get(callback, jar);
    const html = await page.text();
    expect(page.status, html).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const { user, remember, redirect } = handedOff(html);
    expect(user).toMatchObject({
      display_name: 'Reader olive',
      email: 'olive@readers.example.test',
      type: 'guest',
    });
    expect(remember).toBe(false);
    expect(redirect).toBe(`${site}/post/1`);

    const me = (await (
      await fetch(`${api.base}/api/token`, { headers: { authorization: `Bearer ${user.token}` } })
    ).json()) as Json;
    expect(me.data.objectId).toBe(user.objectId);
    const account = await api.services.accounts.findByIdentity(`oidc:${issuer}`, 'olive');
    expect(account).toMatchObject({
      id: user.objectId,
      emailVerified: true,
      link: 'https://olive.example.test',
    });

    const again = await signInAtIssuer(await begin('oidc-1', jar), 'olive');
    expect(handedOff(await (await get(again, jar)).text()).user.objectId).toBe(user.objectId);
  });

  it('keeps an address the issuer does not mark verified as a contact only', async () => {
    const jar = new CookieJar();
    const callback = await signInAtIssuer(await begin('oidc-1', jar), 'unverified');
    expect((await get(callback, jar)).status).toBe(200);
    const account = await api.services.accounts.findByIdentity(`oidc:${issuer}`, 'unverified');
    expect(account).toMatchObject({ email: 'unverified@readers.example.test', emailVerified: false });
  });

  it('refuses a callback from another browser (no cookie, another cookie) and lets the browser that began finish', async () => {
    const jar = new CookieJar();
    const callback = await signInAtIssuer(await begin('oidc-1', jar), 'victim-of-csrf');

    const without = await get(callback);
    expect(without.status).toBe(400);
    expect(refusalOf(await without.text())).toMatch(/not started in this browser/);
    const other = new CookieJar();
    await begin('oidc-1', other);
    const withOther = await get(callback, other);
    expect(withOther.status).toBe(400);
    expect(await api.services.accounts.findByIdentity(`oidc:${issuer}`, 'victim-of-csrf')).toBeUndefined();

    expect((await get(callback, jar)).status).toBe(200);
  });

  it('takes a flow once: the same callback again is refused', async () => {
    const jar = new CookieJar();
    const callback = await signInAtIssuer(await begin('oidc-1', jar), 'once');
    expect((await get(callback, jar)).status).toBe(200);
    const replay = await get(callback, jar);
    expect(replay.status).toBe(400);
    expect(refusalOf(await replay.text())).toMatch(/used already/);
  });

  it('says so plainly when the reader denies consent', async () => {
    const jar = new CookieJar();
    const authorization = await begin('oidc-1', jar);
    const callback = new URL(`${api.base}/api/oauth/callback`);
    callback.searchParams.set('error', 'access_denied');
    callback.searchParams.set('state', authorization.searchParams.get('state') ?? '');
    callback.searchParams.set('iss', issuer);
    const page = await get(callback.toString(), jar);
    const html = await page.text();
    expect(page.status).toBe(400);
    expect(refusalOf(html)).toBe('Test issuer did not sign you in (access_denied).');
    expect(html).not.toContain('signed-in');
  });

  it.each([['wrong-nonce'], ['wrong-audience'], ['expired']] as const)(
    'refuses an ID token with a %s, and makes no account',
    async (fault) => {
      badIssuer.setFault(fault);
      const jar = new CookieJar();
      const authorization = await begin('oidc-2', jar);
      const redirected = await get(authorization.toString());
      const callback = redirected.headers.get('location') ?? '';
      const page = await get(callback, jar);
      const html = await page.text();
      expect(page.status).toBe(400);
      expect(refusalOf(html)).toMatch(/could not be verified/);
      expect(html).not.toMatch(/eyJ/);
      expect(
        await api.services.accounts.findByIdentity(`oidc:${badIssuer.issuer}`, subjectOf(fault)),
      ).toBeUndefined();
    },
  );

  it('signs in with the faulty issuer once its ID token is right (the negative cases fail for their fault alone)', async () => {
    badIssuer.setFault('none');
    const jar = new CookieJar();
    const redirected = await get((await begin('oidc-2', jar)).toString());
    const page = await get(redirected.headers.get('location') ?? '', jar);
    expect(page.status).toBe(200);
    expect(
      await api.services.accounts.findByIdentity(`oidc:${badIssuer.issuer}`, subjectOf('none')),
    ).toBeDefined();
  });

  it('exchanges no code for a refused state', async () => {
    const before = badIssuer.exchanges();
    const jar = new CookieJar();
    const redirected = await get((await begin('oidc-2', jar)).toString());
    const stolen = redirected.headers.get('location') ?? '';
    expect((await get(stolen, new CookieJar())).status).toBe(400);
    expect(badIssuer.exchanges()).toBe(before);
  });

  it('answers a page, not a 500, when the issuer cannot be reached', async () => {
    const page = await get(`${api.base}/api/oauth/oidc-3`, new CookieJar());
    expect(page.status).toBe(502);
    expect(refusalOf(await page.text())).toMatch(/Gone issuer could not be reached/);
  });

  it('refuses a redirect to a site this server is not configured for', async () => {
    const page = await get(
      `${api.base}/api/oauth/oidc-1?redirect=${encodeURIComponent('https://evil.example.test/')}`,
      new CookieJar(),
    );
    expect(page.status).toBe(400);
    expect(page.headers.get('set-cookie')).toBeNull();
  });

  describe('GitHub', () => {
    async function signInWithGithub(jar = new CookieJar()): Promise<{ status: number; html: string }> {
      const authorization = await begin('github', jar);
      expect(authorization.searchParams.get('scope')).toBe('read:user user:email');
      const redirected = await get(authorization.toString());
      const page = await get(redirected.headers.get('location') ?? '', jar);
      return { status: page.status, html: await page.text() };
    }

    it('keys the account by the numeric id: a renamed login keeps its account', async () => {
      const email = { email: 'octo@example.test', primary: true, verified: true };
      github.signInAs({ id: 4242, login: 'octo', name: 'Octo Cat', emails: [email] });
      const first = await signInWithGithub();
      expect(first.status, first.html).toBe(200);
      const { user } = handedOff(first.html);
      expect(user).toMatchObject({ display_name: 'Octo Cat', email: 'octo@example.test' });
      const sent = github.tokenRequests.at(-1);
      expect(sent?.get('client_secret')).toBe(githubSecret);
      expect(sent?.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,128}$/);

      github.signInAs({ id: 4242, login: 'octo-renamed', emails: [email] });
      const second = await signInWithGithub();
      expect(handedOff(second.html).user.objectId).toBe(user.objectId);
      expect(await api.services.accounts.findByIdentity(githubProvider(github.url), '4242')).toMatchObject({
        id: user.objectId,
        emailVerified: true,
      });
      expect(await api.services.accounts.findByIdentity(githubProvider(github.url), 'octo')).toBeUndefined();
    });

    it('takes no address GitHub does not say is verified', async () => {
      github.signInAs({
        id: 77,
        login: 'unverified',
        emails: [
          { email: 'unverified@example.test', primary: true, verified: false },
          { email: 'other@example.test', primary: false, verified: false },
        ],
      });
      const { status, html } = await signInWithGithub();
      expect(status, html).toBe(200);
      expect(handedOff(html).user).toMatchObject({ display_name: 'unverified', email: '' });
      const account = await api.services.accounts.findByIdentity(githubProvider(github.url), '77');
      expect(account?.email).toBe('');
    });

    it('says so plainly when the reader denies consent', async () => {
      github.signInAs('deny');
      const { status, html } = await signInWithGithub();
      expect(status).toBe(400);
      expect(refusalOf(html)).toBe('GitHub did not sign you in (access_denied).');
    });
  });
});
