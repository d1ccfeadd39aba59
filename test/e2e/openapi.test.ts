import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { parse } from 'yaml';
import { hashPassword } from '../../functions/shared/auth/password.js';
import { tokenFor } from '../../functions/shared/auth/token.js';
import { routes } from '../../lib/routes.js';
import { saveTestAccount, saveTestAdministrator, testAdministrator } from '../support/administrator.js';
import { type LocalHttpServer, startLocalHttpServer } from '../support/local-http-server.js';
import { createTestTable, type TestTable } from '../support/test-table.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document and the answers are whatever JSON they are
type Json = any;

const document: Json = parse(readFileSync(new URL('../../docs/openapi.yaml', import.meta.url), 'utf8'));
// OpenAPI 3.1 schemas are JSON Schema 2020-12; `strict: false` lets ajv skip OpenAPI's own keywords.
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its plugin is the module itself, `default` only under some loaders.
const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as Json;
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();
const jwtSecret = 'j'.repeat(40);
/** Single sign-on with the site: the key its backend signs with, and the API's audience. */
const sso = { SSO_SECRET: 's'.repeat(40), SSO_AUDIENCE: 'https://comments.openapi.example' };

/** Resolves a local `$ref` (`#/components/...`) of the document. */
function resolve(node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  return resolve(
    (node.$ref as string)
      .slice(2)
      .split('/')
      .reduce((at: Json, key: string) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document),
  );
}

/** A validator of `schema`, whose `$ref`s point into the document's components. */
function validatorOf(key: string, schema: Json): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: document.components });
    validators.set(key, validate);
  }
  return validate;
}

/** The document's answer for `status` of `method` on `template`, or a component response by name. */
function responseOf(template: string, method: string, status: number, component?: string): Json {
  if (component) return resolve({ $ref: `#/components/responses/${component}` });
  const operation = document.paths[template]?.[method.toLowerCase()];
  return resolve(operation?.responses?.[String(status)]);
}

/** What an answer broke of its schema, in words; empty when it matches. */
function violations(validate: ValidateFunction, body: unknown): string {
  return validate(body)
    ? ''
    : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ');
}

describe('the OpenAPI document, against the local server', () => {
  let table: TestTable;
  let server: LocalHttpServer;
  let base: string;
  let authorization: string;

  beforeAll(async () => {
    table = await createTestTable();
    server = await startLocalHttpServer(table, { IPQPS: '0', JWT_TOKEN: jwtSecret, ...sso });
    ({ base } = server);
    await saveTestAdministrator(server.services);
    const signIn = await fetch(`${base}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: testAdministrator.email, password: testAdministrator.password }),
    });
    authorization = `Bearer ${((await signIn.json()) as Json).data.token}`;
  });
  afterAll(async () => {
    await server.close();
    await table.drop();
  });

  /**
   * Sends a request to `url` (which `template` of the document describes), expects `status`, and checks
   * the content type and the body against the document: the operation's answer for that status, or
   * the named component response. A JSON body sent for a success must match the request schema too.
   */
  async function call(spec: {
    method: string;
    template: string;
    url: string;
    status: number;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    admin?: boolean;
    component?: string;
  }): Promise<Json> {
    const { method, template, url, status } = spec;
    const operation = document.paths[template]?.[method.toLowerCase()];
    if (spec.body !== undefined && status < 300) {
      const requestSchema = resolve(operation?.requestBody)?.content?.['application/json']?.schema;
      expect(requestSchema, `${method} ${template} documents no JSON body`).toBeDefined();
      const problems = violations(validatorOf(`${method} ${template} request`, requestSchema), spec.body);
      expect(problems, `${method} ${url}: the request breaks its schema`).toBe('');
    }
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(spec.admin ? { authorization } : {}),
        ...spec.headers,
      },
      body: spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body)),
    });
    const text = await response.text();
    expect(response.status, `${method} ${url} answered ${text.slice(0, 300)}`).toBe(status);

    const documented = responseOf(template, method, status, spec.component);
    expect(documented, `no answer ${status} documented for ${method} ${template}`).toBeDefined();
    const key = `${method} ${template} ${status} ${spec.component ?? ''}`;
    // Each header the answer documents is there, and matches its schema.
    for (const [name, header] of Object.entries((documented.headers ?? {}) as Record<string, Json>)) {
      const value = response.headers.get(name);
      expect(value, `${method} ${url} (${status}): no ${name} header`).not.toBeNull();
      expect(violations(validatorOf(`${key} ${name}`, header.schema), value), `${name}: ${value}`).toBe('');
    }
    // An answer that documents no content (a 304) has none.
    if (documented.content === undefined) {
      expect(text, `${method} ${url} (${status}) has a body`).toBe('');
      return text;
    }
    const [mediaType, media] = Object.entries(documented.content as Record<string, Json>)[0] ?? [];
    expect(response.headers.get('content-type')?.split(';')[0]).toBe(mediaType);
    const body = mediaType === 'application/json' ? JSON.parse(text) : text;
    expect(
      violations(validatorOf(key, media.schema), body),
      `${method} ${url} (${status}): ${text.slice(0, 300)}`,
    ).toBe('');
    return body;
  }

  /** Posts a comment on `url` and answers the stored comment. */
  const post = async (url: string, comment: string, extra: Record<string, unknown> = {}) =>
    (
      await call({
        method: 'POST',
        template: '/api/comment',
        url: '/api/comment?lang=en-US',
        status: 200,
        body: { comment, url, nick: 'Ann', mail: 'ann@example.com', link: 'https://ann.example', ...extra },
      })
    ).data;

  it('documents every route of lib/routes.ts and no other', () => {
    const served = routes.map(({ method, path }) => `${method} ${path}`).sort();
    const documented = Object.entries(document.paths as Record<string, Json>)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) =>
            ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(key),
          )
          .map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort();

    expect(document.openapi).toBe('3.1.0');
    expect(documented).toEqual(served);
  });

  it('compiles every request and answer schema of the document', () => {
    const schemas = Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Json>)
        .filter(([key]) => key !== 'parameters')
        .flatMap(([method, operation]) =>
          [
            ...Object.values(resolve(operation.requestBody)?.content ?? {}),
            ...Object.values(operation.responses as Record<string, Json>).flatMap((answer) =>
              Object.values(resolve(answer).content ?? {}),
            ),
          ].map((media) => [`${method} ${path}`, (media as Json).schema] as const),
        ),
    );

    expect(schemas.length).toBeGreaterThan(100);
    for (const [where, schema] of schemas) {
      expect(() => ajv.compile({ ...schema, components: document.components }), where).not.toThrow();
    }
  });

  it('describes the list, count and recent answers, enveloped and legacy', async () => {
    const root = await post('/openapi-list', 'a root');
    await post('/openapi-list', 'a reply', { pid: root.objectId, rid: root.objectId, at: 'Ann' });

    const page = await call({
      method: 'GET',
      template: '/api/comment',
      url: '/api/comment?path=%2Fopenapi-list&page=1&pageSize=10&sortBy=insertedAt_asc&lang=en-US',
      status: 200,
    });
    expect(page.data.data[0].children).toHaveLength(1);
    await call({
      method: 'GET',
      template: '/api/comment',
      url: '/api/comment?path=%2Fopenapi-list',
      status: 200,
      admin: true,
    });
    await call({
      method: 'GET',
      template: '/comment',
      url: '/comment?path=%2Fopenapi-list&sortBy=create_time',
      status: 200,
    });
    for (const url of ['/api/comment?type=count&url=%2Fopenapi-list,%2Fnone', '/api/comment?type=count']) {
      await call({ method: 'GET', template: '/api/comment', url, status: 200 });
    }
    for (const url of [
      '/comment?type=count&url=%2Fopenapi-list',
      '/comment?type=count&url=%2Fopenapi-list,%2Fnone',
    ]) {
      await call({ method: 'GET', template: '/comment', url, status: 200 });
    }
    const recent = await call({
      method: 'GET',
      template: '/api/comment',
      url: '/api/comment?type=recent&count=5',
      status: 200,
    });
    expect(recent.data.length).toBeGreaterThan(0);
    await call({ method: 'GET', template: '/comment', url: '/comment?type=recent', status: 200 });
    await call({
      method: 'GET',
      template: '/api/comment',
      url: '/api/comment?path=%2Fx&pageSize=101',
      status: 400,
    });
  });

  it('describes likes, moderation and deletion, and their refusals', async () => {
    const root = await post('/openapi-moderation', 'to moderate');
    const { objectId } = root;

    await call({
      method: 'PUT',
      template: '/api/comment/{id}',
      url: `/api/comment/${objectId}`,
      status: 200,
      body: { like: true },
    });
    await call({
      method: 'PUT',
      template: '/comment/{id}',
      url: `/comment/${objectId}`,
      status: 200,
      body: { like: false },
    });
    await call({
      method: 'PUT',
      template: '/api/comment/{id}',
      url: '/api/comment/01NOSUCHCOMMENT',
      status: 404,
      body: { like: true },
    });
    await call({
      method: 'PUT',
      template: '/api/comment/{id}',
      url: `/api/comment/${objectId}`,
      status: 401,
      body: { sticky: 1 },
    });
    const moderated = await call({
      method: 'PUT',
      template: '/api/comment/{id}',
      url: `/api/comment/${objectId}`,
      status: 200,
      body: { status: 'waiting', sticky: 1 },
      admin: true,
    });
    expect(moderated.data).toMatchObject({ status: 'waiting', sticky: true, mail: 'ann@example.com' });
    await call({
      method: 'PUT',
      template: '/comment/{id}',
      url: `/comment/${objectId}`,
      status: 200,
      body: { status: 'approved' },
      admin: true,
    });
    await call({
      method: 'PUT',
      template: '/api/comment/{id}',
      url: `/api/comment/${objectId}`,
      status: 400,
      body: { status: 'gone' },
      admin: true,
    });

    for (const template of ['/api/comment', '/comment']) {
      const list = await call({
        method: 'GET',
        template,
        url: `${template}?type=list&status=approved&keyword=moderate`,
        status: 200,
        admin: true,
      });
      expect(list.data.data.length).toBeGreaterThan(0);
      await call({ method: 'GET', template, url: `${template}?type=list`, status: 401 });
    }

    await call({
      method: 'DELETE',
      template: '/api/comment/{id}',
      url: `/api/comment/${objectId}`,
      status: 401,
    });
    await call({
      method: 'DELETE',
      template: '/api/comment/{id}',
      url: `/api/comment/${objectId}`,
      status: 200,
      admin: true,
    });
    await call({
      method: 'DELETE',
      template: '/comment/{id}',
      url: `/comment/${objectId}`,
      status: 404,
      admin: true,
    });
    const other = await post('/openapi-moderation', 'to delete the legacy way');
    await call({
      method: 'DELETE',
      template: '/comment/{id}',
      url: `/comment/${other.objectId}`,
      status: 200,
      admin: true,
    });
  });

  it('describes the refusals of a submission', async () => {
    const body = { comment: 'only once', url: '/openapi-refusals', nick: 'Ann' };
    await post('/openapi-refusals', 'only once', { mail: '', link: '' });
    const template = '/api/comment';
    const url = '/api/comment?lang=en-US';

    await call({ method: 'POST', template, url, status: 409, body });
    const missing = await call({
      method: 'POST',
      template,
      url,
      status: 400,
      body: { url: '/openapi-refusals' },
    });
    expect(missing.details).toHaveProperty('comment');
    await call({
      method: 'POST',
      template,
      url,
      status: 400,
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    });
    await call({
      method: 'POST',
      template,
      url,
      status: 415,
      rawBody: JSON.stringify(body),
      headers: { 'content-type': 'text/plain' },
    });
    await call({
      method: 'POST',
      template,
      url,
      status: 413,
      body: { ...body, comment: 'x'.repeat(300 * 1024) },
    });
    const forbidden = await call({
      method: 'POST',
      template: '/comment',
      url: '/comment',
      status: 403,
      body: { ...body, mail: testAdministrator.email },
    });
    expect(forbidden.details).toHaveProperty('mail');
    await call({
      method: 'POST',
      template: '/comment',
      url: '/comment',
      status: 200,
      body: { ...body, comment: 'the legacy way' },
    });
  });

  it("describes a commenter's data routes: the request, a download, an erase and the log", async () => {
    await call({
      method: 'POST',
      template: '/api/my-data',
      url: '/api/my-data',
      status: 400,
      body: { email: 'not an address' },
      component: 'BadRequest',
    });
    await call({ method: 'GET', template: '/api/my-data', url: '/api/my-data', status: 401 });
    const guest = await saveTestAccount(server.services, { type: 'guest' });
    const signIn = await fetch(`${base}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: guest.email, password: guest.password }),
    });
    const headers = { authorization: `Bearer ${((await signIn.json()) as Json).data.token}` };
    await call({ method: 'GET', template: '/api/my-data', url: '/api/my-data', status: 200, headers });
    await call({ method: 'DELETE', template: '/api/my-data', url: '/api/my-data', status: 200, headers });
    await call({
      method: 'GET',
      template: '/api/my-data/log',
      url: '/api/my-data/log',
      status: 200,
      admin: true,
    });
    await call({ method: 'GET', template: '/api/my-data/log', url: '/api/my-data/log', status: 401 });
  });

  it('describes the reading counters, enveloped and legacy', async () => {
    await call({
      method: 'POST',
      template: '/api/article',
      url: '/api/article',
      status: 200,
      body: { path: '/openapi-counted' },
    });
    await call({
      method: 'POST',
      template: '/api/article',
      url: '/api/article',
      status: 200,
      body: { path: '/openapi-counted', type: 'reaction2', action: 'inc' },
    });
    await call({
      method: 'POST',
      template: '/article',
      url: '/article',
      status: 200,
      body: { path: '/openapi-counted', type: 'time' },
    });
    await call({
      method: 'GET',
      template: '/api/article',
      url: '/api/article?path=%2Fopenapi-counted,%2Fnone&type=time,reaction2',
      status: 200,
    });
    for (const url of [
      '/article?path=%2Fopenapi-counted',
      '/article?path=%2Fopenapi-counted&type=time,reaction2',
      '/article?path=%2Fa,%2Fb',
    ]) {
      await call({ method: 'GET', template: '/article', url, status: 200 });
    }
    await call({ method: 'GET', template: '/api/article', url: '/api/article', status: 400 });
    await call({
      method: 'POST',
      template: '/article',
      url: '/article',
      status: 400,
      body: { path: '/openapi-counted', action: 'desc' },
    });
  });

  it('describes sign-in, the current user and sign-out', async () => {
    const credentials = { email: testAdministrator.email, password: testAdministrator.password };
    for (const template of ['/api/token', '/token']) {
      const signedIn = await call({
        method: 'POST',
        template,
        url: template,
        status: 200,
        body: credentials,
      });
      expect(signedIn.data.token).toEqual(expect.any(String));
    }
    for (const template of ['/api/token', '/token']) {
      const user = await call({ method: 'GET', template, url: template, status: 200, admin: true });
      expect(user.data.email).toBe(testAdministrator.email);
      expect((await call({ method: 'GET', template, url: template, status: 200 })).data).toEqual({});
      await call({ method: 'DELETE', template, url: template, status: 200 });
    }
    await call({
      method: 'POST',
      template: '/api/token',
      url: '/api/token',
      status: 400,
      body: { email: 'not an address' },
    });
  });

  it("describes single sign-on with the site's assertion and its refusals", async () => {
    const iat = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ sub: 'member-1', name: 'Member One', jti: 'openapi-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(sso.SSO_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(new TextEncoder().encode(sso.SSO_SECRET));
    const exchange = { method: 'POST', template: '/api/token/sso', url: '/api/token/sso' };

    const signedIn = await call({ ...exchange, status: 200, body: { assertion } });
    expect(signedIn.data).toMatchObject({ display_name: 'Member One', token: expect.any(String) });
    const replayed = await call({ ...exchange, status: 401, body: { assertion } });
    expect(replayed.errmsg).toContain('assertion: jti already used');
    await call({ ...exchange, status: 400, body: { token: assertion } });
  });

  it('describes changes to the profile and their refusals', async () => {
    // An administrator of its own, with a token signed here: no sign-in, whose per-IP limit the other
    // tests use up, and no change to the administrator they share.
    const account = {
      id: '01PROFILEOPENAPI',
      email: 'profile@example.com',
      displayName: 'Profile',
      type: 'administrator' as const,
      state: 'active' as const,
      sessionVersion: 0,
      passwordHash: await hashPassword('a long enough password'),
      createdAt: 0,
    };
    await server.services.accounts.create(account);
    const headers = { authorization: `Bearer ${await tokenFor(jwtSecret, account, Date.now(), 1)}` };
    for (const template of ['/api/user', '/user']) {
      const changed = await call({
        method: 'PUT',
        template,
        url: template,
        status: 200,
        body: { display_name: 'Profile', url: 'https://profile.example/' },
        headers,
      });
      expect(changed.data).toMatchObject({ display_name: 'Profile', url: 'https://profile.example/' });
    }
    const refused = await call({
      method: 'PUT',
      template: '/api/user',
      url: '/api/user',
      status: 400,
      body: { url: 'ftp://profile.example/' },
      headers,
    });
    expect(refused.details).toHaveProperty('url');
    await call({ method: 'PUT', template: '/api/user', url: '/api/user', status: 401, body: { url: '' } });
    const rotated = await call({
      method: 'PUT',
      template: '/api/user',
      url: '/api/user',
      status: 200,
      body: { password: 'another long enough password', currentPassword: 'a long enough password' },
      headers,
    });
    expect(rotated.data.token).toEqual(expect.any(String));
  });

  it('describes two-factor enrolment, its state and its refusals, enveloped and legacy', async () => {
    const account = {
      id: '01TWOFACTOROPENAPI',
      email: 'two-factor@example.com',
      displayName: 'Two Factor',
      type: 'guest' as const,
      state: 'active' as const,
      sessionVersion: 0,
      passwordHash: await hashPassword('a long enough password'),
      createdAt: 0,
    };
    await server.services.accounts.create(account);
    const headers = { authorization: `Bearer ${await tokenFor(jwtSecret, account, Date.now(), 1)}` };
    for (const template of ['/api/token/2fa', '/token/2fa']) {
      const shown = await call({ method: 'GET', template, url: template, status: 200, headers });
      expect(shown.data).toMatchObject({ enable: false, secret: expect.any(String) });
      const oracle = await call({
        method: 'GET',
        template,
        url: `${template}?email=a@example.com`,
        status: 200,
      });
      expect(oracle.data).toEqual({ enable: false });
      await call({ method: 'GET', template, url: template, status: 401 });
      const wrong = await call({
        method: 'POST',
        template,
        url: template,
        status: 400,
        body: { code: '12' },
        headers,
      });
      expect(wrong.details).toHaveProperty('code');
      await call({
        method: 'DELETE',
        template,
        url: template,
        status: 200,
        body: { password: 'a long enough password', code: '123456' },
        headers,
      });
    }
  });

  it('describes wrong credentials and the sign-in lock', async () => {
    const guess = { email: 'nobody@example.com', password: 'wrong guess' };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6 && !statuses.includes(429); attempt++) {
      const response = await fetch(`${base}/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(guess),
      });
      statuses.push(response.status);
      const status = response.status;
      const body = await response.json();
      const validate = validatorOf(
        `POST /api/token ${status}`,
        resolve(responseOf('/api/token', 'POST', status)).content['application/json'].schema,
      );
      expect(violations(validate, body), `sign-in answered ${status}`).toBe('');
    }

    expect(statuses[0]).toBe(401);
    expect(statuses.at(-1)).toBe(429);
  });

  it('describes the comment feeds, their 304 and their refusals, enveloped and legacy', async () => {
    await post('/openapi-feed', 'a comment for the feeds');
    const feeds: Array<[string, string]> = [
      ['/api/comment/rss', '/api/comment/rss'],
      ['/api/comment/rss', '/api/comment/rss?path=%2Fopenapi-feed&count=5'],
      ['/comment/rss', '/comment/rss?path=%2Fopenapi-feed'],
    ];
    for (const [template, url] of feeds) {
      const feed = await call({ method: 'GET', template, url, status: 200 });
      expect(feed).toContain('a comment for the feeds');
      const etag = (await fetch(`${base}${url}`)).headers.get('etag') ?? '';
      await call({ method: 'GET', template, url, status: 304, headers: { 'if-none-match': etag } });
    }
    await call({
      method: 'GET',
      template: '/api/comment/rss',
      url: '/api/comment/rss?count=51',
      status: 400,
    });
    const refused = await call({
      method: 'GET',
      template: '/comment/rss',
      url: '/comment/rss?user_id=1',
      status: 404,
    });
    expect(refused.errmsg).toMatch(/No user has the id 1/);
  });

  it('describes the user wall, enveloped and legacy, and its refusal', async () => {
    const comment = {
      comment: 'a comment for the wall',
      url: '/openapi-wall',
      nick: 'Wally',
      mail: 'wally@example.com',
    };
    await call({ method: 'POST', template: '/api/comment', url: '/api/comment', status: 200, body: comment });
    const wall = await call({
      method: 'GET',
      template: '/api/user',
      url: '/api/user?pageSize=5',
      status: 200,
    });
    expect(wall.data.map(({ nick }: { nick: string }) => nick)).toContain('Wally');
    await call({ method: 'GET', template: '/user', url: '/user', status: 200 });
    await call({ method: 'GET', template: '/api/user', url: '/api/user?pageSize=51', status: 400 });
  });

  it('describes the pages and the answers of unknown methods and routes', async () => {
    for (const template of ['/ui', '/ui/login', '/ui/profile']) {
      const page = await call({ method: 'GET', template, url: template, status: 200 });
      expect(page).toContain('<html');
    }
    // No provider is configured here: a sign-in link answers a page that says so, as does a bare callback.
    const refusal = await call({
      method: 'GET',
      template: '/api/oauth/{id}',
      url: '/api/oauth/oidc-1',
      status: 404,
    });
    expect(refusal).toContain('No such sign-in');
    await call({ method: 'GET', template: '/api/oauth/callback', url: '/api/oauth/callback', status: 400 });
    await call({
      method: 'PATCH',
      template: '/api/comment',
      url: '/api/comment',
      status: 405,
      component: 'MethodNotAllowed',
    });
    await call({
      method: 'GET',
      template: '/api/nothing',
      url: '/api/nothing',
      status: 404,
      component: 'NotFound',
    });
  });
});
