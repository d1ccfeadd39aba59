import { randomBytes } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadNotifyConfig } from '../../functions/notify/notify-config.js';
import { type RunningNotifier, startLocalNotifier } from '../../scripts/local-stream/local-notifier.js';
import { signInTestAdministrator } from '../support/administrator.js';
import { createLocalApi } from '../support/local-services.js';
import { type RecordingServer, startRecordingServer } from '../support/recording-server.js';
import { closedPort, type ReceivedMail, type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { createPollerFiles, type PollerFiles } from '../support/stream-poller.js';
import { testConfig } from '../support/test-config.js';
import { createTestTable, type TestTable } from '../support/test-table.js';

/**
 * The whole notification pipeline, as `npm start` runs it: the comment function (through the local API)
 * writes outbox events, the stream poller reads them from DynamoDB Local's stream and wakes the real
 * notifier, which mails a real SMTP server on loopback and posts to a webhook receiver on loopback.
 */

const owner = 'owner@blog.example.test';
const serverUrl = 'https://comments.example.test';
const waitLong = { timeout: 15_000, interval: 25 };

/** One notification log entry as GET /api/notification answers it. */
interface LogEntry {
  readonly id: string;
  readonly state: string;
  readonly attempts: number;
  readonly lastError?: string;
  readonly comment?: { readonly id: string };
  readonly gaveUp?: boolean;
  readonly deliveries: readonly {
    recipient: string;
    state: string;
    attempts: number;
    lastError?: string;
    retryAt?: number;
    gaveUp?: boolean;
  }[];
}

/** A table, the local API over it, and the notifier reading its stream, with a mail sink and a webhook receiver. */
interface Pipeline {
  readonly api: ReturnType<typeof createLocalApi>;
  readonly notifier: RunningNotifier;
  readonly files: PollerFiles;
  readonly webhookSecret: string;
  readonly receiver: RecordingServer;
  /** The status the webhook receiver answers with. */
  webhookStatus: number;
  /** POSTs a comment as a reader from its own IP; answers its id. */
  post(body: Record<string, unknown>, lang?: string): Promise<string>;
  /** The log entry of the event about comment `commentId`. */
  logEntry(commentId: string): Promise<LogEntry | undefined>;
  readonly adminAuthorization: string;
}

describe('notifications end to end', () => {
  const cleanups: (() => Promise<void>)[] = [];
  let sourceIp = 0;

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function startPipeline(options: {
    smtpPort: number;
    /** Notification settings on top (undefined removes one: no WEBHOOK, no secret). */
    env?: Record<string, string | undefined>;
    /** The waits before each retry of a failed delivery (the sweep serves them; tests call it). */
    retryDelaysMs?: readonly number[];
    /** The stream mapping's own retries at the stack's pace (1 s, doubling), not the fast ones of the other tests. */
    stackPacedStream?: boolean;
  }): Promise<Pipeline> {
    const table: TestTable = await createTestTable();
    cleanups.push(() => table.drop());
    let webhookStatus = 204;
    const receiver = await startRecordingServer(() => ({ status: webhookStatus, body: '' }));
    cleanups.push(() => receiver.close());
    const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const given: Record<string, string | undefined> = {
      IPQPS: '0',
      LIST_CACHE_MS: '0',
      JWT_TOKEN: 'notifications-e2e-secret-0123456789abcdef',
      LINK_SECRET: 'notifications-e2e-links-0123456789abcdef',
      SITE_NAME: 'Test Blog',
      SITE_URL: 'https://blog.example.test',
      SERVER_URL: serverUrl,
      AUTHOR_EMAIL: owner,
      AUTHOR_LANG: 'en',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(options.smtpPort),
      SENDER_EMAIL: 'noreply@blog.example.test',
      SENDER_NAME: 'Test Blog',
      WEBHOOK: `${receiver.endpoint}/hook`,
      WEBHOOK_SECRET: webhookSecret,
      // These tests are about the pipeline, not consent: readers are mailed without confirming, as before
      // REPLY_MAIL. The confirmation tests (reply-confirmation.test.ts) remove it for the default.
      REPLY_MAIL: 'all',
      ...options.env,
    };
    const env = Object.fromEntries(
      Object.entries(given).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const api = createLocalApi(table, env);
    const files = await createPollerFiles();
    cleanups.push(() => files.remove());
    const notifier = await startLocalNotifier({
      config: testConfig({
        TABLE_NAME: table.tableName,
        DYNAMODB_ENDPOINT: table.endpoint,
        DYNAMODB_CONNECT_TIMEOUT_MS: '10000',
        DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
        ...env,
      }),
      notify: loadNotifyConfig(env),
      checkpointPath: files.checkpointPath,
      deadLetterPath: files.deadLetterPath,
      ...(options.retryDelaysMs ? { overrides: { retryDelaysMs: options.retryDelaysMs } } : {}),
      poller: {
        pollIntervalMs: 25,
        batchingWindowMs: 0,
        ...(options.stackPacedStream ? {} : { retryDelayMs: 50, maxRetryDelayMs: 100 }),
      },
      sweepIntervalMs: 0,
      log: () => {},
    });
    cleanups.push(() => notifier.stop());
    const adminAuthorization = await signInTestAdministrator(api);
    const pipeline: Pipeline = {
      api,
      notifier,
      files,
      webhookSecret,
      receiver,
      get webhookStatus() {
        return webhookStatus;
      },
      set webhookStatus(status) {
        webhookStatus = status;
      },
      adminAuthorization,
      async post(body, lang) {
        sourceIp += 1;
        const answer = await api.call({
          method: 'POST',
          path: '/api/comment',
          query: lang ? `lang=${lang}` : '',
          body: { url: '/posts/hello', ...body },
          sourceIp: `10.9.${Math.floor(sourceIp / 250)}.${sourceIp % 250}`,
        });
        expect(answer.status).toBe(200);
        return answer.body.data.objectId as string;
      },
      async logEntry(commentId) {
        const answer = await api.call({
          path: '/api/notification',
          query: 'days=2&limit=200',
          headers: { authorization: adminAuthorization },
        });
        expect(answer.status).toBe(200);
        return (answer.body.data.data as LogEntry[]).find((entry) => entry.comment?.id === commentId);
      },
    };
    return pipeline;
  }

  async function startSink(port = 0): Promise<SmtpSink> {
    const sink = await startSmtpSink(port);
    cleanups.push(() => sink.stop());
    return sink;
  }

  const header = (mail: ReceivedMail, name: string) =>
    mail.parsed.headerLines
      .find((line) => line.key === name)
      ?.line.replace(/^[^:]+:\s*/, '')
      .replace(/\r?\n\s+/g, ' ');

  it("mails a reply to the parent's author in the parent's language, once, with one-click unsubscribe the API honours", async () => {
    const sink = await startSink();
    const pipeline = await startPipeline({ smtpPort: sink.port });
    const alice = 'alice@reader.example.test';
    const root = await pipeline.post({ comment: '第一条评论', nick: 'Alice', mail: alice }, 'zh-CN');
    const reply = await pipeline.post(
      {
        comment: 'Hello **Alice** & co',
        nick: 'Bob <b>',
        mail: 'bob@reader.example.test',
        pid: root,
        rid: root,
      },
      'en',
    );

    await vi.waitFor(() => expect(sink.mailsTo(alice)).toHaveLength(1), waitLong);
    await vi.waitFor(async () => {
      expect((await pipeline.logEntry(root))?.state).toBe('sent');
      expect((await pipeline.logEntry(reply))?.state).toBe('sent');
    }, waitLong);
    const [mail] = sink.mailsTo(alice) as [ReceivedMail];
    expect(mail.recipients).toEqual([alice]);
    expect(mail.parsed.to).toMatchObject({ value: [{ address: alice }] });
    expect(mail.parsed.cc).toBeUndefined();
    expect(mail.parsed.from).toMatchObject({ value: [{ address: 'noreply@blog.example.test' }] });
    expect(mail.parsed.subject).toBe('Alice，『Test Blog』上的评论收到了回复');
    expect(mail.parsed.html).toContain('第一条评论');
    expect(mail.parsed.html).toContain('Bob &lt;b&gt;');
    expect(mail.parsed.html).not.toContain('Bob <b>');
    expect(header(mail, 'auto-submitted')).toBe('auto-generated');
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = /^<(https:\/\/[^>]+)>$/.exec(header(mail, 'list-unsubscribe') ?? '')?.[1] ?? '';
    const link = new URL(unsubscribe);
    expect(link.origin + link.pathname).toBe(`${serverUrl}/api/notification/unsubscribe`);
    expect(mail.parsed.html).toContain(unsubscribe.replaceAll('&', '&amp;'));
    // The owner is told of both comments, in AUTHOR_LANG; the replier of nothing.
    expect(sink.mailsTo(owner).map((ownerMail) => ownerMail.parsed.subject)).toEqual([
      'New comment on Test Blog',
      'New comment on Test Blog',
    ]);
    expect(sink.mailsTo('bob@reader.example.test')).toEqual([]);

    const oneClick = await pipeline.api.call({
      method: 'POST',
      path: link.pathname,
      query: link.search.slice(1),
      body: 'List-Unsubscribe=One-Click',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(oneClick.status).toBe(200);
    const again = await pipeline.post(
      { comment: 'Another answer', nick: 'Carol', mail: 'carol@reader.example.test', pid: root, rid: root },
      'en',
    );

    await vi.waitFor(async () => expect((await pipeline.logEntry(again))?.state).toBe('sent'), waitLong);
    const entry = await pipeline.logEntry(again);
    expect(entry?.deliveries).toContainEqual(
      expect.objectContaining({ recipient: 'parent', state: 'skipped' }),
    );
    expect(sink.mailsTo(owner)).toHaveLength(3);
    expect(sink.mailsTo(alice)).toHaveLength(1);
  });

  it('posts each notice to the webhook signed as Standard Webhooks signs, with no address in it', async () => {
    const sink = await startSink();
    const pipeline = await startPipeline({ smtpPort: sink.port });
    const mail = 'dora@reader.example.test';

    const id = await pipeline.post({ comment: 'Signed, sealed', nick: 'Dora', mail });

    await vi.waitFor(() => expect(pipeline.receiver.requests).toHaveLength(1), waitLong);
    const [request] = pipeline.receiver.requests;
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
        name,
        String(request?.headers[name]),
      ]),
    );
    const payload = new Webhook(pipeline.webhookSecret).verify(request?.body ?? '', headers);
    expect(payload).toMatchObject({
      type: 'comment.created',
      version: 1,
      data: { comment: { id, nick: 'Dora', url: '/posts/hello' }, site: { name: 'Test Blog' } },
    });
    expect(request?.body).not.toContain(mail);
    expect(request?.body).not.toContain(owner);
    expect(() =>
      new Webhook(pipeline.webhookSecret).verify((request?.body ?? '').replace('Dora', 'Eve'), headers),
    ).toThrow();
  });

  it('mails each notice exactly once to an SMTP server that was down and then came up', async () => {
    const port = await closedPort();
    const pipeline = await startPipeline({ smtpPort: port, retryDelaysMs: [100, 100, 100, 100, 100] });
    const alice = 'alice.down@reader.example.test';
    const root = await pipeline.post({ comment: 'While the server is down', nick: 'Alice', mail: alice });
    const reply = await pipeline.post({
      comment: 'Answered while down',
      nick: 'Bob',
      mail: 'bob.down@reader.example.test',
      pid: root,
      rid: root,
    });
    // Each event's failure is its deliveries' own: neither holds the other back in the stream.
    await vi.waitFor(async () => {
      for (const [comment, recipient] of [
        [root, 'owner'],
        [reply, 'parent'],
      ] as const) {
        const entry = await pipeline.logEntry(comment);
        expect(entry?.deliveries).toContainEqual(
          expect.objectContaining({
            recipient,
            state: 'failed',
            lastError: expect.stringMatching(/ECONNREFUSED/),
            retryAt: expect.any(Number),
          }),
        );
      }
    }, waitLong);

    const sink = await startSink(port);

    // The sweep (every 10 minutes; here by hand) re-drives each event once a retry is due.
    await vi.waitFor(async () => {
      await pipeline.notifier.sweep();
      expect((await pipeline.logEntry(root))?.state).toBe('sent');
      expect((await pipeline.logEntry(reply))?.state).toBe('sent');
    }, waitLong);
    // Lambda may hand a record over again, and the sweep runs beside the stream: neither sends twice.
    await pipeline.notifier.notifier.handler({
      Records: [outboxRecord(root, '1'), outboxRecord(reply, '2')],
    });
    await pipeline.notifier.sweep();
    expect(sink.mailsTo(owner)).toHaveLength(2);
    expect(sink.mailsTo(alice)).toHaveLength(1);
    expect(sink.mails).toHaveLength(3);
  });

  it('shows a channel that keeps failing as failed in the log, gives it up after its retries, and delivers it once re-driven after the fix', async () => {
    const sink = await startSink();
    const pipeline = await startPipeline({ smtpPort: sink.port, retryDelaysMs: [50, 50] });
    pipeline.webhookStatus = 500;

    const id = await pipeline.post({
      comment: 'Nobody hears the hook',
      nick: 'Frank',
      mail: 'frank@reader.example.test',
    });

    await vi.waitFor(async () => {
      await pipeline.notifier.sweep();
      expect((await pipeline.logEntry(id))?.deliveries).toContainEqual(
        expect.objectContaining({ recipient: 'webhook', gaveUp: true }),
      );
    }, waitLong);
    const failed = await pipeline.logEntry(id);
    expect(failed).toMatchObject({ state: 'failed', gaveUp: true });
    expect(failed?.deliveries).toContainEqual(
      expect.objectContaining({
        recipient: 'webhook',
        state: 'failed',
        attempts: 3,
        lastError: expect.stringContaining('500'),
      }),
    );
    expect(failed?.deliveries).toContainEqual(expect.objectContaining({ recipient: 'owner', state: 'sent' }));
    // Once and two retries, as the schedule says; the stream's record was never retried nor dead-lettered.
    expect(pipeline.receiver.requests).toHaveLength(3);
    expect(await pipeline.files.deadLetters()).toEqual([]);
    await pipeline.notifier.sweep();
    expect(pipeline.receiver.requests).toHaveLength(3);

    pipeline.webhookStatus = 204;
    const redrive = await pipeline.api.call({
      method: 'POST',
      path: '/api/notification',
      body: { action: 'redrive', id: failed?.id },
      headers: { authorization: pipeline.adminAuthorization },
    });
    expect(redrive.status).toBe(200);

    await vi.waitFor(async () => expect((await pipeline.logEntry(id))?.state).toBe('sent'), waitLong);
    expect(pipeline.receiver.requests).toHaveLength(4);
    expect(sink.mailsTo(owner)).toHaveLength(1);
  });

  describe('with REPLY_MAIL=confirmed, the default', () => {
    /** Everything a mail shows: subject, HTML, text and headers. */
    const wholeMail = (mail: ReceivedMail) =>
      [
        mail.parsed.subject,
        mail.parsed.html,
        mail.parsed.text,
        ...mail.parsed.headerLines.map((h) => h.line),
      ].join('\n');

    /** The confirmation link of a confirmation mail. */
    const confirmLink = (mail: ReceivedMail) => {
      const found = /href="([^"]+\/api\/notification\/confirm\?[^"]+)"/.exec(String(mail.parsed.html));
      return new URL((found?.[1] ?? '').replaceAll('&amp;', '&'));
    };

    it('sends the victim of the attack at most one mail, with nothing of the attacker in it, whatever the spellings and replies', async () => {
      const sink = await startSink();
      const pipeline = await startPipeline({ smtpPort: sink.port, env: { REPLY_MAIL: undefined } });
      const spellings = ['victim@gmail.com', 'victim+1@gmail.com', 'v.ictim@gmail.com', 'Victim+2@Gmail.com'];
      const attacker = { nick: 'EvilNick', link: 'https://evil.example.test/phish' };
      const replies: string[] = [];
      for (const [index, mail] of spellings.entries()) {
        const root = await pipeline.post({ ...attacker, comment: `ATTACKER-ROOT-${index}`, mail });
        for (const n of [1, 2]) {
          replies.push(
            await pipeline.post({
              ...attacker,
              comment: `ATTACKER-REPLY-${index}-${n} call evil.example.test`,
              mail: `attacker${index}${n}@evil.example.test`,
              pid: root,
              rid: root,
            }),
          );
        }
      }

      await vi.waitFor(async () => {
        for (const reply of replies) expect((await pipeline.logEntry(reply))?.state).toBe('sent');
      }, waitLong);
      const toVictim = spellings.flatMap((mail) => sink.mailsTo(mail));
      expect(toVictim).toHaveLength(1);
      const [mail] = toVictim as [ReceivedMail];
      expect(mail.recipients).toEqual(['victim@gmail.com']);
      const shown = wholeMail(mail);
      for (const own of ['ATTACKER', 'EvilNick', 'evil.example.test', 'phish'])
        expect(shown).not.toContain(own);
      expect(shown).toContain('Test Blog');
      expect(confirmLink(mail).pathname).toBe('/api/notification/confirm');
      const reasons = await Promise.all(
        replies.map(async (reply) =>
          (await pipeline.logEntry(reply))?.deliveries.find((d) => d.recipient === 'parent'),
        ),
      );
      expect(reasons.map((delivery) => delivery?.lastError).sort()).toEqual([
        'awaiting confirmation (confirmation already sent in the last 30 days)',
        'awaiting confirmation (confirmation already sent in the last 30 days)',
        'awaiting confirmation (confirmation already sent in the last 30 days)',
        'awaiting confirmation (confirmation already sent in the last 30 days)',
        'awaiting confirmation (confirmation already sent in the last 30 days)',
        'awaiting confirmation (confirmation already sent in the last 30 days)',
        'awaiting confirmation (confirmation already sent in the last 30 days)',
        'awaiting confirmation (confirmation mail sent)',
      ]);

      // A way out other than "report spam": the site's one-click unsubscribe, and no confirmation again.
      expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      const leave = new URL(/^<(https:\/\/[^>]+)>$/.exec(header(mail, 'list-unsubscribe') ?? '')?.[1] ?? '');
      expect(leave.pathname).toBe('/api/notification/unsubscribe');
      expect(mail.parsed.html).toContain(leave.href.replaceAll('&', '&amp;'));
      const oneClick = await pipeline.api.call({
        method: 'POST',
        path: leave.pathname,
        query: leave.search.slice(1),
        body: 'List-Unsubscribe=One-Click',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(oneClick.status).toBe(200);
      const root = await pipeline.post({
        ...attacker,
        comment: 'ATTACKER-ROOT-AGAIN',
        mail: 'victim@gmail.com',
      });
      const again = await pipeline.post({
        ...attacker,
        comment: 'Again',
        mail: 'a@evil.example.test',
        pid: root,
        rid: root,
      });
      await vi.waitFor(async () => expect((await pipeline.logEntry(again))?.state).toBe('sent'), waitLong);
      expect((await pipeline.logEntry(again))?.deliveries).toContainEqual(
        expect.objectContaining({ recipient: 'parent', lastError: 'suppressed (the whole site)' }),
      );
      expect(spellings.flatMap((address) => sink.mailsTo(address))).toHaveLength(1);
    });

    it('sends the waiting reply once the reader opened the link and confirmed, and the next reply directly', async () => {
      const sink = await startSink();
      const pipeline = await startPipeline({ smtpPort: sink.port, env: { REPLY_MAIL: undefined } });
      const alice = 'alice+blog@reader.example.test';
      const root = await pipeline.post({ comment: 'A question', nick: 'Alice', mail: alice });
      const reply = await pipeline.post({
        comment: 'The first answer',
        nick: 'Bob',
        mail: 'bob@reader.example.test',
        pid: root,
        rid: root,
      });
      await vi.waitFor(async () => expect((await pipeline.logEntry(reply))?.state).toBe('sent'), waitLong);
      const [confirmation] = sink.mailsTo(alice) as [ReceivedMail];
      expect(wholeMail(confirmation)).not.toContain('The first answer');
      const link = confirmLink(confirmation);

      const page = await pipeline.api.call({ path: link.pathname, query: link.search.slice(1) });
      expect(page.status).toBe(200);
      expect(page.body).toContain('<form method="post"');
      // Opening the page changed nothing: the reply still waits.
      expect((await pipeline.logEntry(reply))?.deliveries).toContainEqual(
        expect.objectContaining({ recipient: 'parent', state: 'skipped' }),
      );
      const wrongUse = await pipeline.api.call({
        method: 'POST',
        path: '/api/notification/unsubscribe',
        query: `${link.search.slice(1)}&scope=site`,
      });
      expect(wrongUse.status).toBe(400);

      const confirmed = await pipeline.api.call({
        method: 'POST',
        path: link.pathname,
        query: link.search.slice(1),
      });
      expect(confirmed.status).toBe(200);
      await vi.waitFor(() => expect(sink.mailsTo(alice)).toHaveLength(2), waitLong);
      expect(sink.mailsTo(alice)[1]?.parsed.html).toContain('The first answer');

      const next = await pipeline.post({
        comment: 'A second answer',
        nick: 'Carol',
        mail: 'carol@reader.example.test',
        pid: root,
        rid: root,
      });
      await vi.waitFor(() => expect(sink.mailsTo(alice)).toHaveLength(3), waitLong);
      expect(sink.mailsTo(alice)[2]?.parsed.html).toContain('A second answer');
      // The notifier records the event as sent after the SMTP server took the mail: a moment later.
      await vi.waitFor(async () => expect((await pipeline.logEntry(next))?.state).toBe('sent'), waitLong);
      // A second click sends nothing again.
      const again = await pipeline.api.call({
        method: 'POST',
        path: link.pathname,
        query: link.search.slice(1),
      });
      expect(again.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sink.mailsTo(alice)).toHaveLength(3);
    });

    it('gives the +tag and Gmail dot spellings of one inbox one allowance of the caps', async () => {
      const sink = await startSink();
      const pipeline = await startPipeline({
        smtpPort: sink.port,
        // Every reader mailed, so that only the caps stop the mail: 2 an hour, for the inbox.
        env: { REPLY_MAIL: 'all', NOTIFY_CAP_PER_HOUR: '2' },
      });
      const spellings = ['dora@gmail.com', 'dora+1@gmail.com', 'd.o.r.a@gmail.com', 'DORA+x@gmail.com'];
      const replies: string[] = [];
      for (const mail of spellings) {
        const root = await pipeline.post({ comment: `A root by ${mail}`, nick: 'Dora', mail });
        replies.push(
          await pipeline.post({
            comment: `A reply to ${mail}`,
            nick: 'Eve',
            mail: 'eve@reader.example.test',
            pid: root,
            rid: root,
          }),
        );
      }

      await vi.waitFor(async () => {
        for (const reply of replies) expect((await pipeline.logEntry(reply))?.state).toBe('sent');
      }, waitLong);
      expect(spellings.flatMap((mail) => sink.mailsTo(mail))).toHaveLength(2);
      const parents = await Promise.all(
        replies.map(async (reply) =>
          (await pipeline.logEntry(reply))?.deliveries.find((d) => d.recipient === 'parent'),
        ),
      );
      expect(
        parents.filter((delivery) => delivery?.lastError === 'capped (2 an hour, 20 a day)'),
      ).toHaveLength(2);
    });
  });

  describe('a channel that fails, beside a working SMTP server', () => {
    /**
     * Posts a root by a reader and a reply to it at once (the root's event just ahead of the reply's in the
     * stream, as when a reply follows closely) and answers how long the reader's reply mail took to arrive.
     * The stream keeps the stack's pace: a record failed as a whole would wait 1 s, 2 s, 4 s... before its
     * retries, and hold back the reply's record behind it.
     */
    async function replyMailDelay(pipeline: Pipeline, sink: SmtpSink, reader: string): Promise<number> {
      const root = await pipeline.post({ comment: 'A question', nick: 'Alice', mail: reader });
      const started = performance.now();
      await pipeline.post({
        comment: 'An answer',
        nick: 'Bob',
        mail: `bob.${reader}`,
        pid: root,
        rid: root,
      });
      await vi.waitFor(() => expect(sink.mailsTo(reader)).toHaveLength(1), waitLong);
      return performance.now() - started;
    }

    /** The reply mail's delay with no webhook nor Telegram at all. */
    async function baseline(sink: SmtpSink): Promise<number> {
      const pipeline = await startPipeline({
        smtpPort: sink.port,
        env: { WEBHOOK: undefined, WEBHOOK_SECRET: undefined },
        stackPacedStream: true,
      });
      return replyMailDelay(pipeline, sink, 'alice.baseline@reader.example.test');
    }

    const refusing = (status: number) => async () => {
      const server = await startRecordingServer(() => ({
        status,
        body: JSON.stringify({ ok: false, error_code: status, description: 'refused' }),
      }));
      cleanups.push(() => server.close());
      return server.endpoint;
    };

    it.each([
      {
        way: 'misconfigured (a Telegram bot token the API refuses: 401)',
        channel: 'telegram',
        permanent: true,
        env: async () => ({
          WEBHOOK: undefined,
          WEBHOOK_SECRET: undefined,
          TG_BOT_TOKEN: '123456:not-a-real-token',
          TG_CHAT_ID: '42',
          TG_API_URL: await refusing(401)(),
        }),
      },
      {
        way: 'a refused connection',
        channel: 'webhook',
        permanent: false,
        env: async () => ({ WEBHOOK: `http://127.0.0.1:${await closedPort()}/hook` }),
      },
      {
        way: 'a 4xx',
        channel: 'webhook',
        permanent: true,
        env: async () => ({ WEBHOOK: `${await refusing(404)()}/hook` }),
      },
      {
        way: 'a 5xx',
        channel: 'webhook',
        permanent: false,
        env: async () => ({ WEBHOOK: `${await refusing(503)()}/hook` }),
      },
      {
        way: 'a timeout',
        channel: 'webhook',
        permanent: false,
        env: async () => {
          const silent = await startRecordingServer(() => undefined);
          cleanups.push(() => silent.close());
          return { WEBHOOK: `${silent.endpoint}/hook` };
        },
      },
    ])(
      "mails the reader's reply as fast as with no channel at all when it fails by $way, and records it $channel failed",
      async ({ channel, permanent, env }) => {
        const sink = await startSink();
        const before = await baseline(sink);
        const pipeline = await startPipeline({
          smtpPort: sink.port,
          env: { ...(await env()), CHANNEL_TIMEOUT_MS: '200' },
          stackPacedStream: true,
        });
        const reader = 'alice.failing@reader.example.test';

        const delay = await replyMailDelay(pipeline, sink, reader);

        // The channel's own timeout (200 ms here) is the most a failing channel adds to the stream's batch.
        expect(delay).toBeLessThan(before + 1000);
        // The owner's notices of both comments through the failing channel: each recorded failed once, with
        // its next try (a temporary failure) or given up (a refusal), once its exchange ended.
        await vi.waitFor(async () => {
          const log = await pipeline.api.call({
            path: '/api/notification',
            query: 'days=2&limit=200',
            headers: { authorization: pipeline.adminAuthorization },
          });
          const channelDeliveries = (log.body.data.data as LogEntry[]).flatMap((entry) =>
            entry.deliveries.filter((delivery) => delivery.recipient === channel),
          );
          expect(channelDeliveries).toHaveLength(2);
          for (const delivery of channelDeliveries) {
            expect(delivery).toMatchObject({ state: 'failed', attempts: 1 });
            expect(delivery.gaveUp === true).toBe(permanent);
            expect(delivery.retryAt !== undefined).toBe(!permanent);
          }
        }, waitLong);
        expect(await pipeline.files.deadLetters()).toEqual([]);
      },
    );
  });
});

/** The stream record of outbox event `eventId` put pending, as Lambda would hand it over (again). */
function outboxRecord(eventId: string, sequenceNumber: string): DynamoDBRecord {
  return {
    eventName: 'INSERT',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: sequenceNumber,
      NewImage: { entity: { S: 'outbox' }, state: { S: 'pending' }, eventId: { S: eventId } },
    },
  };
}
