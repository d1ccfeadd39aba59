import { readFileSync } from 'node:fs';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createAddressHasher } from '../../../../functions/shared/notify/address-hash.js';
import { type LinkClaims, signLinkToken } from '../../../../functions/shared/notify/link-token.js';
import { keys, type SuppressionScope } from '../../../../functions/shared/table/keys.js';
import { signInTestAdministrator } from '../../../support/administrator.js';
import { createLocalApi } from '../../../support/local-services.js';
import { createTestTable, type TestTable } from '../../../support/test-table.js';

/** The keyed address hash under the test configuration's salt (test/support/test-config.ts). */
const addressHash = createAddressHasher('test-salt-0123456789abcdef');

const jwt = 'j'.repeat(40);
/** The link key: a value of its own, not the sign-in key's. */
const linkKey = 'l'.repeat(40);
const form = 'application/x-www-form-urlencoded';

/** A schema of docs/openapi.yaml's components, compiled with the rest of them. */
function documentedSchema(name: string) {
  const document = parse(readFileSync(new URL('../../../../docs/openapi.yaml', import.meta.url), 'utf8')) as {
    components: unknown;
  };
  return new Ajv2020({ strict: false, allErrors: true }).compile({
    $ref: `#/components/schemas/${name}`,
    components: document.components,
  });
}

interface LoggedEvent {
  id: string;
  cause: string;
  state: string;
  comment?: { id: string; url: string; status: string };
}

describe('the notification routes on DynamoDB Local', () => {
  let table: TestTable;
  let documents: DynamoDBDocumentClient;
  let api: ReturnType<typeof createLocalApi>;
  let authorization: string;
  let ip = 0;

  const link = (claims: LinkClaims) => signLinkToken(linkKey, claims, Date.now() + 3_600_000);
  const query = (values: Record<string, string>) => new URLSearchParams(values).toString();
  const submit = async (body: Record<string, unknown>) =>
    (await api.call({ method: 'POST', path: '/api/comment', body, sourceIp: `10.9.0.${++ip}` })).body
      .data as {
      objectId: string;
      status: string;
    };
  const suppression = async (hash: string, scope: SuppressionScope) =>
    (await documents.send(new GetCommand({ TableName: table.tableName, Key: keys.suppression(hash, scope) })))
      .Item;
  const stored = async (id: string) => api.services.moderation.get((await api.services.comments.locate(id))!);
  const notificationLog = async () =>
    (await api.call({ path: '/api/notification', query: 'days=2', headers: { authorization } })).body.data
      .data as LoggedEvent[];

  beforeAll(async () => {
    table = await createTestTable();
    documents = DynamoDBDocumentClient.from(table.client);
    api = createLocalApi(table, {
      JWT_TOKEN: jwt,
      LINK_SECRET: linkKey,
      COMMENT_AUDIT: 'true',
      // Set: a write from another origin is refused unless its route is a mail link's.
      ALLOWED_ORIGINS: 'https://blog.example',
      SITE_NAME: 'Blog',
      SITE_URL: 'https://blog.example',
    });
    authorization = await signInTestAdministrator(api);
  });
  afterAll(() => table.drop());

  // Each test its own address: they run in any order.
  describe('unsubscribe', () => {
    const reader = addressHash('reader@example.com');

    it('shows its choices on GET and records nothing', async () => {
      const looker = addressHash('looker@example.com');
      const token = await link({ purpose: 'unsubscribe', addressHash: looker, rootId: '01ROOTA' });

      const page = await api.call({ path: '/api/notification/unsubscribe', query: query({ token }) });

      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('Mail from Blog');
      expect(page.body).toContain('Mute this thread');
      expect(await suppression(looker, { kind: 'site' })).toBeUndefined();
      expect(await suppression(looker, { kind: 'thread', rootId: '01ROOTA' })).toBeUndefined();
    });

    it("takes a mail provider's one-click POST from another origin, with no sign-in, and keeps the site suppression", async () => {
      const token = await link({ purpose: 'unsubscribe', addressHash: reader, rootId: '01ROOTA' });
      const oneClick = {
        method: 'POST',
        path: '/api/notification/unsubscribe',
        query: query({ token }),
        body: 'List-Unsubscribe=One-Click',
        contentType: form,
        headers: { origin: 'https://mail.example' },
      };

      const first = await api.call(oneClick);
      const again = await api.call(oneClick);

      expect([first.status, again.status]).toEqual([200, 200]);
      expect(await suppression(reader, { kind: 'site' })).toMatchObject({
        entity: 'suppression',
        reason: 'unsubscribe',
      });
      // The same origin on a comment write is still refused: only the mail links' routes are let through.
      const comment = await api.call({
        method: 'POST',
        path: '/api/comment',
        body: { comment: 'cross-site', url: '/notify-csrf' },
        headers: { origin: 'https://mail.example' },
      });
      expect(comment.status).toBe(403);
    });

    it('mutes one thread from the page, and refuses a moderation token', async () => {
      const other = addressHash('other@example.com');
      const token = await link({ purpose: 'unsubscribe', addressHash: other, rootId: '01ROOTB' });
      const moderation = await link({
        purpose: 'moderate',
        action: 'approve',
        commentId: '01ROOTB',
        status: 'waiting',
      });

      const muted = await api.call({
        method: 'POST',
        path: '/api/notification/unsubscribe',
        query: query({ token, scope: 'thread' }),
        body: '',
        contentType: form,
      });
      const refused = await api.call({
        method: 'POST',
        path: '/api/notification/unsubscribe',
        query: query({ token: moderation, scope: 'site' }),
      });

      expect([muted.status, refused.status]).toEqual([200, 400]);
      expect(await suppression(other, { kind: 'thread', rootId: '01ROOTB' })).toMatchObject({
        rootId: '01ROOTB',
      });
      expect(await suppression(other, { kind: 'site' })).toBeUndefined();
    });
  });

  describe('moderate from the mail', () => {
    it('approves a waiting root once, on POST only, telling nobody of the approval', async () => {
      const comment = await submit({
        comment: 'Waiting for you',
        url: '/notify-moderate',
        nick: 'Ann',
        mail: 'ann-from-mail@example.com',
      });
      const trustMark = async () =>
        (
          await documents.send(
            new GetCommand({
              TableName: table.tableName,
              Key: keys.trust(addressHash('ann-from-mail@example.com')),
              ConsistentRead: true,
            }),
          )
        ).Item;
      expect(await trustMark()).toBeUndefined();
      const token = await link({
        purpose: 'moderate',
        action: 'approve',
        commentId: comment.objectId,
        status: 'waiting',
      });
      expect(comment.status).toBe('waiting');

      const page = await api.call({ path: '/api/notification/moderate', query: query({ token }) });
      expect(page.status).toBe(200);
      expect(page.body).toContain('<p>Waiting for you</p>');
      expect((await stored(comment.objectId))?.status).toBe('waiting');

      const approved = await api.call({
        method: 'POST',
        path: '/api/notification/moderate',
        query: query({ token }),
        body: '',
        contentType: form,
        headers: { origin: 'https://api.example' },
      });
      const again = await api.call({
        method: 'POST',
        path: '/api/notification/moderate',
        query: query({ token }),
      });

      expect([approved.status, again.status]).toEqual([200, 200]);
      expect(approved.body).toContain('Approved');
      expect(again.body).toContain('Already approved');
      expect((await stored(comment.objectId))?.status).toBe('approved');
      // The approval from the mail trusts the address, as one from /ui does (COMMENT_AUDIT=first).
      expect(await trustMark()).toMatchObject({ entity: 'trust', at: expect.any(Number) });
      // A root's approval tells nobody (the owner approved it; it answers nobody): no second event.
      const events = (await notificationLog()).filter((event) => event.comment?.id === comment.objectId);
      expect(events.map((event) => event.cause)).toEqual(['comment.submitted']);
    });

    it("approves a waiting reply from the mail, and that approval writes the event that tells the parent's author", async () => {
      const root = await submit({
        comment: 'A root',
        url: '/notify-reply',
        nick: 'Ann',
        mail: 'ann@example.com',
      });
      const approveRoot = await link({
        purpose: 'moderate',
        action: 'approve',
        commentId: root.objectId,
        status: 'waiting',
      });
      await api.call({
        method: 'POST',
        path: '/api/notification/moderate',
        query: query({ token: approveRoot }),
      });
      const reply = await submit({
        comment: 'A reply',
        url: '/notify-reply',
        nick: 'Bob',
        pid: root.objectId,
        rid: root.objectId,
      });
      const approveReply = await link({
        purpose: 'moderate',
        action: 'approve',
        commentId: reply.objectId,
        status: 'waiting',
      });

      const approved = await api.call({
        method: 'POST',
        path: '/api/notification/moderate',
        query: query({ token: approveReply }),
      });

      expect(approved.status).toBe(200);
      expect((await stored(reply.objectId))?.status).toBe('approved');
      const events = (await notificationLog()).filter((event) => event.comment?.id === reply.objectId);
      expect(events.map((event) => event.cause).sort()).toEqual(['comment.approved', 'comment.submitted']);
    });

    it('deletes with a delete link, then answers 404 for the gone comment', async () => {
      const comment = await submit({ comment: 'Delete me', url: '/notify-delete', nick: 'Bob' });
      const token = await link({
        purpose: 'moderate',
        action: 'delete',
        commentId: comment.objectId,
        status: 'waiting',
      });
      const place = await api.services.comments.locate(comment.objectId);

      const deleted = await api.call({
        method: 'POST',
        path: '/api/notification/moderate',
        query: query({ token }),
      });
      const gone = await api.call({
        method: 'POST',
        path: '/api/notification/moderate',
        query: query({ token }),
      });

      expect([deleted.status, gone.status]).toEqual([200, 404]);
      expect(place).toBeDefined();
      expect(await api.services.moderation.get(place!)).toBeUndefined();
    });

    it('an approve link from the mail does not undo a spam decision taken in /ui since, and says so', async () => {
      const comment = await submit({ comment: 'Spam after all', url: '/notify-decided', nick: 'Eve' });
      const token = await link({
        purpose: 'moderate',
        action: 'approve',
        commentId: comment.objectId,
        status: 'waiting',
      });
      const marked = await api.call({
        method: 'PUT',
        path: `/api/comment/${comment.objectId}`,
        body: { status: 'spam' },
        headers: { authorization },
      });
      expect(marked.status).toBe(200);

      const page = await api.call({ path: '/api/notification/moderate', query: query({ token }) });
      const approve = await api.call({
        method: 'POST',
        path: '/api/notification/moderate',
        query: query({ token }),
      });

      expect([page.status, approve.status]).toEqual([200, 409]);
      expect(page.body).toContain('This comment was marked spam in the meantime');
      expect(page.body).not.toContain('<form');
      expect(approve.body).toContain('This comment was marked spam in the meantime');
      expect(approve.body).toContain('Nothing was changed');
      expect((await stored(comment.objectId))?.status).toBe('spam');
    });

    it('a delete link from the mail leaves a comment approved in /ui since', async () => {
      const comment = await submit({ comment: 'Approved after all', url: '/notify-kept', nick: 'Fay' });
      const token = await link({
        purpose: 'moderate',
        action: 'delete',
        commentId: comment.objectId,
        status: 'waiting',
      });
      await api.call({
        method: 'PUT',
        path: `/api/comment/${comment.objectId}`,
        body: { status: 'approved' },
        headers: { authorization },
      });

      const deleted = await api.call({
        method: 'POST',
        path: '/api/notification/moderate',
        query: query({ token }),
      });

      expect(deleted.status).toBe(409);
      expect(deleted.body).toContain('This comment was approved in the meantime');
      expect((await stored(comment.objectId))?.status).toBe('approved');
      // Below the page's own check, the repository deletes only a comment read in the status asked for.
      const place = await api.services.comments.locate(comment.objectId);
      expect(await api.services.moderation.remove(place!, { status: 'waiting' })).toBe('conflict');
      expect((await stored(comment.objectId))?.status).toBe('approved');
    });

    it('refuses an unsubscribe token and changes nothing', async () => {
      const comment = await submit({ comment: 'Still waiting', url: '/notify-refused', nick: 'Cy' });
      const token = await link({ purpose: 'unsubscribe', addressHash: addressHash('cy@example.com') });

      const refused = await api.call({
        method: 'POST',
        path: '/api/notification/moderate',
        query: query({ token }),
      });

      expect(refused.status).toBe(400);
      expect((await stored(comment.objectId))?.status).toBe('waiting');
    });
  });

  describe('the log and its actions', () => {
    it('lists events for an administrator only, with no address, within its bounds', async () => {
      await submit({ comment: 'Logged', url: '/notify-log', nick: 'Dee', mail: 'dee@example.com' });

      const anonymous = await api.call({ path: '/api/notification' });
      const log = await api.call({ path: '/api/notification', headers: { authorization } });
      const tooFar = await api.call({
        path: '/api/notification',
        query: 'days=31',
        headers: { authorization },
      });

      expect([anonymous.status, log.status, tooFar.status]).toEqual([401, 200, 400]);
      expect(log.body.data.data.some((event: LoggedEvent) => event.comment?.url === '/notify-log')).toBe(
        true,
      );
      const asDocumented = documentedSchema('NotificationLog');
      expect(asDocumented(log.body.data), JSON.stringify(asDocumented.errors)).toBe(true);
      expect(JSON.stringify(log.body)).not.toContain('@');
    });

    it('writes a test event, re-drives a failed one, and answers 404 for an event that does not exist', async () => {
      const test = await api.call({
        method: 'POST',
        path: '/api/notification',
        body: { action: 'test' },
        headers: { authorization },
      });
      const { id } = test.body.data as { id: string };
      expect((await notificationLog()).find((event) => event.id === id)).toMatchObject({ cause: 'test' });

      await documents.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.outboxEvent(id),
          UpdateExpression: 'SET #state = :failed',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':failed': 'failed' },
        }),
      );
      const redriven = await api.call({
        method: 'POST',
        path: '/api/notification',
        body: { action: 'redrive', id },
        headers: { authorization },
      });
      const missing = await api.call({
        method: 'POST',
        path: '/api/notification',
        body: { action: 'redrive', id: ulid() },
        headers: { authorization },
      });

      expect([test.status, redriven.status, missing.status]).toEqual([200, 200, 404]);
      expect((await notificationLog()).find((event) => event.id === id)?.state).toBe('pending');
    });
  });
});
