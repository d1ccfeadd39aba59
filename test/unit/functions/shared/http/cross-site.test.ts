import { BatchGetCommand, DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { HttpHandler } from '../../../../../functions/shared/http/http-types.js';
import type { ArticleDependencies } from '../../../../../functions/article/dependencies.js';
import type { CommentDependencies } from '../../../../../functions/comment/dependencies.js';
import { createLocalFunctions } from '../../../../../scripts/local-functions.js';
import { buildEvent, type EventSpec, testContext } from '../../../../support/http-event.js';
import { testConfig } from '../../../../support/test-config.js';

const ddb = mockClient(DynamoDBDocumentClient);

/** Counters that answer without the table, and count what they were asked. */
function fakeCounters() {
  const calls: string[] = [];
  const counters = {
    increment: async (path: string) => (calls.push(`increment ${path}`), 1),
    react: async (path: string, type: string) => (calls.push(`react ${path} ${type}`), 1),
    siteCommentCount: async () => 0,
  };
  return {
    calls,
    counters: counters as unknown as ArticleDependencies['counters'] & CommentDependencies['counters'],
  };
}

function handlers(env: Record<string, string> = {}) {
  const { calls, counters } = fakeCounters();
  const { handlers } = createLocalFunctions(testConfig(env), {
    comment: { counters },
    article: { counters },
  });
  return { calls, ...handlers };
}

async function send(api: { comment: HttpHandler; article: HttpHandler }, spec: EventSpec) {
  const handler = /^(?:\/api)?\/article/.test(spec.path) ? api.article : api.comment;
  const response = await handler(buildEvent(spec), testContext);
  return {
    status: response.statusCode,
    headers: response.headers,
    body: JSON.parse(response.body || 'null'),
  };
}

/** Every route that changes something and reads a JSON body, with and without `/api`. */
const writes: EventSpec[] = ['/api', ''].flatMap((prefix) => [
  { method: 'POST', path: `${prefix}/comment`, body: { comment: 'posted cross-site', url: '/p/csrf' } },
  { method: 'PUT', path: `${prefix}/comment/01ARZ3NDEKTSV4RRFFQ69G5FAV`, body: { like: true } },
  { method: 'POST', path: `${prefix}/article`, body: { path: '/p/csrf', type: 'reaction3' } },
  { method: 'POST', path: `${prefix}/token`, body: { email: 'admin@example.com', password: 'guess' } },
]);
/** The routes that change something without a body. */
const deletes: EventSpec[] = ['/api', ''].flatMap((prefix) => [
  { method: 'DELETE', path: `${prefix}/comment/01ARZ3NDEKTSV4RRFFQ69G5FAV` },
  { method: 'DELETE', path: `${prefix}/token` },
]);
const label = (spec: EventSpec) => `${spec.method} ${spec.path}`;

describe('refusing writes a page on another site may send', () => {
  beforeEach(() => {
    ddb.reset();
    ddb.on(BatchGetCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('refuses a POST or PUT without a content type (a no-cors fetch of a Blob) with 415 on every route, touching nothing', async () => {
    const api = handlers();

    for (const spec of writes) {
      const answer = await send(api, { ...spec, contentType: null });

      expect(answer.status, label(spec)).toBe(415);
      expect(answer.body, label(spec)).toEqual({
        errno: 1000,
        errmsg: 'Content-Type must be application/json.',
      });
    }
    expect(ddb.calls()).toHaveLength(0);
    expect(api.calls).toEqual([]);
  });

  it.each([
    'text/plain; a=application/json',
    'application/jsonp',
    'application/merge-patch+json',
    'xapplication/json',
  ])('refuses %s, which is not application/json, with 415', async (contentType) => {
    const api = handlers();

    const answer = await send(api, { ...writes[0], contentType } as EventSpec);

    expect(answer.status).toBe(415);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('refuses text/plain, the other type a page may send without asking first, in the caller language', async () => {
    const api = handlers();

    const answer = await send(api, {
      ...writes[0],
      query: 'lang=zh-CN',
      contentType: 'text/plain;charset=UTF-8',
    } as EventSpec);

    expect(answer.status).toBe(415);
    expect(answer.body.errmsg).toBe('Content-Type 必须是 application/json。');
    expect(ddb.calls()).toHaveLength(0);
  });

  it('accepts application/json with a charset and in any case, and a base64-encoded JSON body', async () => {
    const api = handlers();

    const charset = await send(api, {
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'with a charset', url: '/p' },
      contentType: 'application/json; charset=utf-8',
    });
    const capitals = await send(api, {
      method: 'POST',
      path: '/comment',
      body: { comment: 'in capitals', url: '/p' },
      contentType: 'Application/JSON',
    });
    const encoded = await send(api, {
      method: 'POST',
      path: '/api/article',
      body: { path: '/p/encoded' },
      contentType: 'application/json;charset=UTF-8',
      base64: true,
    });

    expect([charset.status, charset.body.data.orig]).toEqual([200, 'with a charset']);
    expect([capitals.status, capitals.body.orig ?? capitals.body.data?.orig]).toEqual([200, 'in capitals']);
    expect(encoded.status).toBe(200);
    expect(api.calls).toEqual(['increment /p/encoded']);
  });

  it('refuses an Origin that ALLOWED_ORIGINS does not list with 403 on every state-changing route, touching nothing', async () => {
    const api = handlers({ ALLOWED_ORIGINS: 'https://blog.example' });

    for (const spec of [...writes, ...deletes]) {
      const answer = await send(api, { ...spec, headers: { origin: 'https://attacker.example' } });

      expect(answer.status, label(spec)).toBe(403);
      expect(answer.body.errmsg, label(spec)).toBe(
        'Requests from https://attacker.example are not allowed: it is not one of the sites in ALLOWED_ORIGINS.',
      );
      expect(answer.headers, label(spec)).not.toHaveProperty('access-control-allow-origin');
    }
    expect(ddb.calls()).toHaveLength(0);
    expect(api.calls).toEqual([]);
  });

  it('lets through an allowed Origin, the server own one and a request without Origin when ALLOWED_ORIGINS is set', async () => {
    const api = handlers({ ALLOWED_ORIGINS: 'https://blog.example' });
    const reaction = { method: 'POST', path: '/api/article', body: { path: '/p', type: 'reaction0' } };

    const allowed = await send(api, { ...reaction, headers: { origin: 'https://blog.example' } });
    // The sign-in page posts from the server's own origin: the host the request reached.
    const own = await send(api, {
      ...reaction,
      headers: { origin: 'https://api.example', host: 'api.example' },
    });
    const noOrigin = await send(api, reaction);

    expect([allowed.status, own.status, noOrigin.status]).toEqual([200, 200, 200]);
    expect(api.calls).toHaveLength(3);
  });

  it('checks no Origin of a write when every origin is allowed, and none of a read', async () => {
    const open = handlers();
    const listed = handlers({ ALLOWED_ORIGINS: 'https://blog.example' });

    const write = await send(open, {
      method: 'POST',
      path: '/api/article',
      body: { path: '/p' },
      headers: { origin: 'https://elsewhere.example' },
    });
    const read = await send(listed, {
      path: '/api/comment',
      query: 'type=count',
      headers: { origin: 'https://elsewhere.example' },
    });

    expect(write.status).toBe(200);
    expect([read.status, read.body.data]).toEqual([200, 0]);
  });
  it('refuses a foreign PATCH too, an Origin that is no URL (a sandboxed page sends "null"), and names at most 200 characters of it', async () => {
    const api = handlers({ ALLOWED_ORIGINS: 'https://blog.example' });
    const long = `https://${'a'.repeat(300)}.example`;

    const patch = await send(api, {
      method: 'PATCH',
      path: '/api/comment/01ARZ3NDEKTSV4RRFFQ69G5FAV',
      body: { like: true },
      headers: { origin: 'https://attacker.example' },
    });
    const sandboxed = await send(api, {
      ...writes[2],
      headers: { origin: 'null', host: 'null' },
    } as EventSpec);
    const named = await send(api, { ...writes[2], headers: { origin: long } } as EventSpec);

    expect([patch.status, sandboxed.status, named.status]).toEqual([403, 403, 403]);
    expect(named.body.errmsg).toContain(long.slice(0, 200));
    expect(named.body.errmsg).not.toContain(long.slice(0, 201));
    expect(api.calls).toEqual([]);
  });
});
