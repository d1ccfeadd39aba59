import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../functions/shared/domain/limits.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';
import { signInTestAdministrator } from '../../support/administrator.js';

/**
 * A proxy in front of DynamoDB Local that counts TransactWriteItems and, while `refuse` is set, cancels
 * those whose body contains it, as DynamoDB cancels a transaction one of whose conditions failed.
 */
async function startTransactionProxy(target: string) {
  const state = { transactions: 0, refuse: undefined as string | undefined };
  const server: Server = createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      if (String(incoming.headers['x-amz-target']).endsWith('.TransactWriteItems')) {
        state.transactions++;
        if (state.refuse !== undefined && body.toString('utf8').includes(state.refuse)) {
          const items = (JSON.parse(body.toString('utf8')) as { TransactItems: unknown[] }).TransactItems;
          answer.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' }).end(
            JSON.stringify({
              __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
              message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
              CancellationReasons: items.map((_, i) => ({
                Code: i === 0 ? 'ConditionalCheckFailed' : 'None',
              })),
            }),
          );
          return;
        }
      }
      const url = new URL(target);
      const forward = request(
        {
          host: url.hostname,
          port: url.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (response) => {
          answer.writeHead(response.statusCode ?? 500, response.headers);
          response.pipe(answer);
        },
      );
      forward.end(body);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    state,
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

describe('moderation changes on DynamoDB Local', () => {
  let table: TestTable;
  let proxy: Awaited<ReturnType<typeof startTransactionProxy>>;
  let api: ReturnType<typeof createLocalApi>;
  let authorization: string;
  const put = (id: string, body: unknown) =>
    api.call({ method: 'PUT', path: `/api/comment/${id}`, body, headers: { authorization } });
  /** Posts a visitor's comment (held for moderation here) and answers its data. */
  const post = async (comment: string, url: string, sourceIp: string) =>
    (await api.call({ method: 'POST', path: '/api/comment', body: { comment, url }, sourceIp })).body.data;
  beforeAll(async () => {
    table = await createTestTable();
    proxy = await startTransactionProxy(table.endpoint);
    api = createLocalApi(table, {
      JWT_TOKEN: 'j'.repeat(40),
      COMMENT_AUDIT: 'true',
      DYNAMODB_ENDPOINT: proxy.endpoint,
    });
    authorization = await signInTestAdministrator(api);
  });
  afterAll(async () => {
    await proxy.close();
    await table.drop();
  });

  it('applies an edit, a pin and an approval as one transaction', async () => {
    const posted = await post('first', '/one', '10.9.0.1');
    const before = proxy.state.transactions;

    const changed = await put(posted.objectId, { comment: 'edited', sticky: 1, status: 'approved' });

    expect(changed.body.data).toMatchObject({ orig: 'edited', sticky: true, status: 'approved' });
    expect(proxy.state.transactions - before).toBe(1);
  });

  it('leaves the text and the pin as they were when the status change is refused', async () => {
    const posted = await post('second', '/two', '10.9.0.2');
    // Any transaction that would approve the comment is cancelled, as by a concurrent change.
    proxy.state.refuse = 'STATUS#approved';

    const refused = await put(posted.objectId, { comment: 'edited', sticky: 1, status: 'approved' }).finally(
      () => (proxy.state.refuse = undefined),
    );

    expect(refused.status).toBe(409);
    expect(await api.services.moderation.get({ url: '/two', id: posted.objectId })).toMatchObject({
      orig: 'second',
      sticky: false,
      status: 'waiting',
    });
  });

  it('answers 409 and keeps the comment when a delete loses a race', async () => {
    const posted = await post('kept', '/three', '10.9.0.3');
    // Any transaction that deletes is cancelled, as when the comment changed after it was read.
    proxy.state.refuse = '"Delete":';

    const refused = await api
      .call({ method: 'DELETE', path: `/api/comment/${posted.objectId}`, headers: { authorization } })
      .finally(() => (proxy.state.refuse = undefined));

    expect(refused.status).toBe(409);
    expect(refused.body.errmsg).toContain(posted.objectId);
    expect(await api.services.moderation.get({ url: '/three', id: posted.objectId })).toMatchObject({
      orig: 'kept',
    });
  });

  it('refuses an edit whose rendered HTML would not fit in one item with 413, writing nothing', async () => {
    const posted = await post('short', '/four', '10.9.0.4');
    const before = proxy.state.transactions;
    // Each '&' becomes '&amp;': within the text limit, past the item limit once rendered.
    const comment = '&'.repeat(limits.commentChars);

    const refused = await put(posted.objectId, { comment });

    expect(refused).toMatchObject({
      status: 413,
      body: {
        errmsg: `comment: with its rendered HTML it is larger than ${limits.storedCommentBytes} bytes; shorten it.`,
      },
    });
    expect(proxy.state.transactions).toBe(before);
    expect(await api.services.moderation.get({ url: '/four', id: posted.objectId })).toMatchObject({
      orig: 'short',
    });
  });
});
