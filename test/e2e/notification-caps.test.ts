import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadNotifyConfig } from '../../functions/notify/notify-config.js';
import { startLocalNotifier } from '../../scripts/local-stream/local-notifier.js';
import { signInTestAdministrator } from '../support/administrator.js';
import { createLocalApi } from '../support/local-services.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { createPollerFiles } from '../support/stream-poller.js';
import { testConfig } from '../support/test-config.js';
import { createTestTable } from '../support/test-table.js';

/**
 * The site-wide mail caps and the owner's digest, as `npm start` runs them: the comment function writes
 * outbox events, the stream poller wakes the real notifier, which mails a real SMTP server on loopback and
 * counts on DynamoDB Local. The notifier's clock is the test's, so the sweep can be run after the hour.
 */

const owner = 'owner@blog.example.test';
const serverUrl = 'https://comments.example.test';
const waitLong = { timeout: 20_000, interval: 25 };
const hour = 3_600_000;

/** One notification log entry, as GET /api/notification answers it (the fields read here). */
interface LogEntry {
  readonly state: string;
  readonly comment?: { readonly id: string };
  readonly deliveries: readonly { recipient: string; state: string; lastError?: string }[];
}

describe('the site-wide mail caps and the owner digest end to end', () => {
  const cleanups: (() => Promise<void>)[] = [];
  let sourceIp = 0;

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function startPipeline(env: Record<string, string>) {
    const sink: SmtpSink = await startSmtpSink();
    cleanups.push(() => sink.stop());
    const table = await createTestTable();
    cleanups.push(() => table.drop());
    const settings = {
      IPQPS: '0',
      LIST_CACHE_MS: '0',
      JWT_TOKEN: 'caps-e2e-secret-0123456789abcdef-0123456789',
      LINK_SECRET: 'caps-e2e-links-0123456789abcdef-0123456789',
      SITE_NAME: 'Test Blog',
      SITE_URL: 'https://blog.example.test',
      SERVER_URL: serverUrl,
      AUTHOR_EMAIL: owner,
      AUTHOR_LANG: 'en',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
      SENDER_EMAIL: 'noreply@blog.example.test',
      SENDER_NAME: 'Test Blog',
      ...env,
    };
    const api = createLocalApi(table, settings);
    const files = await createPollerFiles();
    cleanups.push(() => files.remove());
    // The notifier's own clock: fixed while the comments come in, then moved past the hour for the sweep.
    let clock = Date.now();
    const notifier = await startLocalNotifier({
      config: testConfig({
        TABLE_NAME: table.tableName,
        DYNAMODB_ENDPOINT: table.endpoint,
        DYNAMODB_CONNECT_TIMEOUT_MS: '10000',
        DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
        ...settings,
      }),
      notify: loadNotifyConfig(settings),
      overrides: { now: () => clock },
      checkpointPath: files.checkpointPath,
      deadLetterPath: files.deadLetterPath,
      poller: { pollIntervalMs: 25, batchingWindowMs: 0, retryDelayMs: 50, maxRetryDelayMs: 100 },
      sweepIntervalMs: 0,
      log: () => {},
    });
    cleanups.push(() => notifier.stop());
    const authorization = await signInTestAdministrator(api);

    const logEntry = async (commentId: string) => {
      const answer = await api.call({
        path: '/api/notification',
        query: 'days=2&limit=200',
        headers: { authorization },
      });
      expect(answer.status).toBe(200);
      return (answer.body.data.data as LogEntry[]).find((entry) => entry.comment?.id === commentId);
    };
    /** POSTs a comment from its own IP and waits until its notices are done; answers its id. */
    const post = async (body: Record<string, unknown>) => {
      sourceIp += 1;
      const answer = await api.call({
        method: 'POST',
        path: '/api/comment',
        body: { url: '/posts/flood', ...body },
        sourceIp: `10.8.${Math.floor(sourceIp / 250)}.${sourceIp % 250}`,
      });
      expect(answer.status).toBe(200);
      const id = answer.body.data.objectId as string;
      await vi.waitFor(async () => expect((await logEntry(id))?.state).toBe('sent'), waitLong);
      return id;
    };
    const parentDelivery = async (commentId: string) =>
      (await logEntry(commentId))?.deliveries.find((delivery) => delivery.recipient === 'parent');
    return {
      sink,
      notifier,
      post,
      parentDelivery,
      logEntry,
      passHour: () => (clock += hour),
    };
  }

  it('mails the owner up to the cap, then one digest of the rest after the hour, linking /ui, only once', async () => {
    const pipeline = await startPipeline({ AUTHOR_NOTIFY_CAP_PER_HOUR: '3' });
    const ids = [];
    for (let comment = 1; comment <= 8; comment += 1) {
      ids.push(
        await pipeline.post({
          comment: `Flood ${comment}`,
          nick: `Reader ${comment}`,
          mail: `r${comment}@x.test`,
        }),
      );
    }

    expect(pipeline.sink.mailsTo(owner)).toHaveLength(3);
    const capped = await pipeline.logEntry(ids[7]!);
    expect(capped?.deliveries).toContainEqual(
      expect.objectContaining({ recipient: 'owner', state: 'skipped', lastError: "in the hour's digest" }),
    );

    // Within the hour the sweep sends no digest: the hour may still overflow.
    await pipeline.notifier.sweep();
    expect(pipeline.sink.mailsTo(owner)).toHaveLength(3);

    pipeline.passHour();
    await pipeline.notifier.sweep();
    await pipeline.notifier.sweep();

    const mails = pipeline.sink.mailsTo(owner);
    expect(mails).toHaveLength(4);
    const digest = mails[3]!;
    expect(digest.parsed.subject).toMatch(/^5 more comments on Test Blog in the hour to \d\d:00 UTC$/);
    expect(digest.parsed.text).toContain('5 more comments came in than the 3 an hour you are mailed about');
    expect(digest.parsed.html).toContain(`<a href="${serverUrl}/ui">`);
    expect(digest.recipients).toEqual([owner]);
  });

  it('stops reader mail to one domain at the domain cap, and all reader mail at the site cap', async () => {
    const pipeline = await startPipeline({
      NOTIFY_DOMAIN_CAP_PER_HOUR: '2',
      NOTIFY_SITE_CAP_PER_HOUR: '3',
      AUTHOR_NOTIFY_CAP_PER_HOUR: '100',
    });
    const readers = ['a1@flood.test', 'a2@FLOOD.test', 'a3@flood.test', 'b@one.test', 'c@two.test'];
    const roots = [];
    for (const mail of readers)
      roots.push(await pipeline.post({ comment: `I am ${mail}`, nick: 'Reader', mail }));

    const replies = [];
    for (const [index, root] of roots.entries()) {
      replies.push(
        await pipeline.post({
          comment: `Answer ${index}`,
          nick: 'Replier',
          mail: 'replier@z.test',
          pid: root,
          rid: root,
        }),
      );
    }

    const mailsTo = (mail: string) =>
      pipeline.sink.mails.filter((received) =>
        received.recipients.some((recipient) => recipient.toLowerCase() === mail.toLowerCase()),
      );
    expect(readers.map((mail) => mailsTo(mail).length)).toEqual([1, 1, 0, 1, 0]);
    expect(await pipeline.parentDelivery(replies[2]!)).toMatchObject({
      state: 'skipped',
      lastError: 'domain cap: 2 reader mails an hour to one domain',
    });
    expect(await pipeline.parentDelivery(replies[4]!)).toMatchObject({
      state: 'skipped',
      lastError: 'site cap: 3 reader mails an hour',
    });
    // The owner is not capped by the reader caps: told of all ten comments.
    expect(pipeline.sink.mailsTo(owner)).toHaveLength(10);
  });
});
