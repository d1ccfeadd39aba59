import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createChannels } from '../../../../../functions/notify/channels/channels.js';
import { isPermanentFailure } from '../../../../../functions/notify/channels/permanent-failure.js';
import { createWebhookChannel } from '../../../../../functions/notify/channels/webhook-channel.js';
import type { WebhookPayload } from '../../../../../functions/notify/channels/webhook-payload.js';
import type { Notice } from '../../../../../functions/notify/notice.js';
import {
  type Answer,
  type RecordingServer,
  startRecordingServer,
} from '../../../../support/recording-server.js';
import {
  config,
  notifyConfig,
  parentComment,
  readerAddress,
  replyComment,
  secretOf,
  secrets,
  waitingNotice,
} from './notice-fixtures.js';

/** The webhook's notice of a waiting comment, as the rules give it. */
const webhookNotice = (overrides: Partial<Notice> = {}) =>
  waitingNotice({ recipient: 'webhook', to: undefined, ...overrides });

const secret = `whsec_${randomBytes(32).toString('base64')}`;

describe('the webhook channel', () => {
  let server: RecordingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** A receiver answering `answer`, and the webhook channel posting to it (real time: the signature's tolerance is 5 min). */
  const receiver = async (
    answer: (index: number) => Answer | undefined = () => ({ status: 204, body: '' }),
  ) => {
    server = await startRecordingServer((_request, index) => answer(index));
    const channels = createChannels({
      config,
      notify: notifyConfig({ WEBHOOK: `${server.endpoint}/hooks/comments`, WEBHOOK_SECRET: secret }),
      secrets: secrets({ webhookSecret: secretOf(secret) }),
      now: Date.now,
    });
    return { server, webhook: channels.webhook! };
  };

  it('posts a payload that Standard Webhooks verifies', async () => {
    const { server, webhook } = await receiver();
    await webhook(webhookNotice());

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/hooks/comments' });
    expect(request!.headers['content-type']).toBe('application/json');
    const headers = {
      'webhook-id': String(request!.headers['webhook-id']),
      'webhook-timestamp': String(request!.headers['webhook-timestamp']),
      'webhook-signature': String(request!.headers['webhook-signature']),
    };
    const payload = new Webhook(secret).verify(request!.body, headers) as WebhookPayload;
    expect(payload).toMatchObject({
      type: 'comment.waiting',
      version: 1,
      data: {
        eventId: replyComment.id,
        site: { name: 'Notes & Queries', url: 'https://blog.example' },
        comment: {
          id: replyComment.id,
          url: '/posts/hello/',
          postUrl: `https://blog.example/posts/hello/#${replyComment.id}`,
          nick: replyComment.nick,
          html: replyComment.html,
          text: replyComment.orig,
          status: 'waiting',
          pid: parentComment.id,
          rid: parentComment.id,
        },
        parent: { id: parentComment.id, nick: 'Reader' },
      },
    });
  });

  it.each([
    ['owner-new', 'comment.created'],
    ['owner-waiting', 'comment.waiting'],
    ['test', 'test'],
  ] as const)('names a %s notice %s', async (template, type) => {
    const bodies: string[] = [];
    const webhook = createWebhookChannel({
      url: 'https://hooks.example/x',
      secret: secretOf(secret),
      site: config,
      now: Date.now,
      fetch: (_url, init) => {
        bodies.push(String(init?.body));
        return Promise.resolve(new Response(null, { status: 200 }));
      },
    });
    const notice =
      template === 'test'
        ? webhookNotice({ template, self: undefined, parent: undefined })
        : webhookNotice({ template });
    await webhook(notice);
    const payload = JSON.parse(bodies[0]!) as WebhookPayload;
    expect(payload.type).toBe(type);
    expect(payload.data.comment === undefined).toBe(template === 'test');
  });

  it('refuses a tampered body under the same signature (the check above can fail)', async () => {
    const { server, webhook } = await receiver();
    await webhook(webhookNotice());
    const [request] = server.requests;
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
        name,
        String(request!.headers[name]),
      ]),
    );
    expect(() => new Webhook(secret).verify(request!.body.replace('Reader', 'Mallory'), headers)).toThrow();
  });

  it('carries no address, IP or user agent', async () => {
    const { server, webhook } = await receiver();
    await webhook(webhookNotice({ to: readerAddress }));
    const body = server.requests[0]!.body;
    expect(body).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.-]+/);
    expect(body).not.toMatch(/"(mail|ip|ipHash|ua|userAgent|to)"/);
  });

  it('keeps the webhook-id of one notice across retries', async () => {
    const { server, webhook } = await receiver();
    await webhook(webhookNotice());
    await webhook(webhookNotice());
    const [first, second] = server.requests.map((request) => request.headers['webhook-id']);
    expect(first).toBe(`${replyComment.id}.webhook`);
    expect(second).toBe(first);
  });

  it('fails with the status when the receiver answers other than 2xx', async () => {
    const { webhook } = await receiver(() => ({ status: 503, body: 'busy' }));
    await expect(webhook(webhookNotice())).rejects.toThrow('the webhook answered 503');
  });

  it.each([
    [400, true],
    [401, true],
    [404, true],
    [410, true],
    [408, false],
    [429, false],
    [500, false],
    [503, false],
  ])(
    'fails for good on a %i when it is a refusal (4xx but 408 and 429), for now otherwise',
    async (status, permanent) => {
      const { webhook } = await receiver(() => ({ status, body: '' }));
      const failure = await webhook(webhookNotice()).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toBe(`the webhook answered ${status}`);
      expect(isPermanentFailure(failure)).toBe(permanent);
    },
  );

  it('fails for good without a secret, for now when the receiver does not answer in time', async () => {
    server = await startRecordingServer(() => undefined);
    const channel = (secretValue?: string) =>
      createWebhookChannel({
        url: server!.endpoint,
        secret: secretOf(secretValue),
        site: config,
        now: Date.now,
        timeoutMs: 50,
      });
    const unsigned = await channel()(webhookNotice()).catch((error: unknown) => error);
    const silent = await channel(secret)(webhookNotice()).catch((error: unknown) => error);
    expect(isPermanentFailure(unsigned)).toBe(true);
    expect(isPermanentFailure(silent)).toBe(false);
    expect((silent as Error).message).toBe('the webhook could not be reached: no answer in time');
  });

  it('takes its timeout from CHANNEL_TIMEOUT_MS', async () => {
    server = await startRecordingServer(() => undefined);
    const channels = createChannels({
      config,
      notify: notifyConfig({ WEBHOOK: server.endpoint, WEBHOOK_SECRET: secret, CHANNEL_TIMEOUT_MS: '100' }),
      secrets: secrets({ webhookSecret: secretOf(secret) }),
      now: Date.now,
    });
    const started = performance.now();
    await expect(channels.webhook!(webhookNotice())).rejects.toThrow('no answer in time');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('follows no redirect', async () => {
    const { server, webhook } = await receiver(() => ({ status: 307, headers: { location: '/elsewhere' } }));
    await expect(webhook(webhookNotice())).rejects.toThrow('the webhook answered 307');
    expect(server.requests.map((request) => request.url)).toEqual(['/hooks/comments']);
  });

  it('gives up on a receiver that does not answer', async () => {
    server = await startRecordingServer(() => undefined);
    const webhook = createWebhookChannel({
      url: server.endpoint,
      secret: secretOf(secret),
      site: config,
      now: Date.now,
      timeoutMs: 50,
    });
    await expect(webhook(webhookNotice())).rejects.toThrow(
      'the webhook could not be reached: no answer in time',
    );
  });

  it('fails with the reason, not the URL, when nothing listens', async () => {
    server = await startRecordingServer();
    const endpoint = `${server.endpoint}/secret-path-token`;
    await server.close();
    server = undefined;
    const webhook = createWebhookChannel({
      url: endpoint,
      secret: secretOf(secret),
      site: config,
      now: Date.now,
    });
    const failure = webhook(webhookNotice());
    await expect(failure).rejects.toThrow(/^the webhook could not be reached: .*ECONNREFUSED/);
    await failure.catch((error: Error) => expect(error.message).not.toContain('secret-path-token'));
  });

  it.each([
    ['plain http to another host', 'http://hooks.example/x', secret, 'WEBHOOK must be an https URL'],
    ['no secret', 'https://hooks.example/x', undefined, 'WEBHOOK_SECRET is not set'],
    [
      'a short secret',
      'https://hooks.example/x',
      `whsec_${Buffer.from('short').toString('base64')}`,
      'at least 24',
    ],
  ])('sends nothing with %s', async (_case, url, webhookSecret, message) => {
    const calls: unknown[] = [];
    const webhook = createWebhookChannel({
      url,
      secret: secretOf(webhookSecret),
      site: config,
      now: Date.now,
      fetch: (...args) => {
        calls.push(args);
        return Promise.resolve(new Response(null, { status: 204 }));
      },
    });
    await expect(webhook(webhookNotice())).rejects.toThrow(message);
    expect(calls).toHaveLength(0);
  });
});
