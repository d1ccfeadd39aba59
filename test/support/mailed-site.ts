import { loadNotifyConfig } from '../../functions/notify/notify-config.js';
import { type RunningNotifier, startLocalNotifier } from '../../scripts/local-stream/local-notifier.js';
import { type LocalHttpServer, startLocalHttpServer } from './local-http-server.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';
import { createPollerFiles, type PollerFiles } from './stream-poller.js';
import { testConfig } from './test-config.js';
import { createTestTable, type TestTable } from './test-table.js';

/** What the site answered: its status, its text and its JSON (undefined when the text is not JSON). */
export interface SiteAnswer {
  readonly status: number;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are whatever JSON they are
  readonly json: any;
}

/** A site as `npm start` runs it, whose mail reaches a real SMTP server on loopback. */
export interface MailedSite {
  readonly sink: SmtpSink;
  readonly table: TestTable;
  readonly server: LocalHttpServer;
  /** Sends `body` (as JSON) to `path` over HTTP, with `authorization` if given. */
  send(method: string, path: string, body?: unknown, authorization?: string): Promise<SiteAnswer>;
  /** Stops the notifier, the server, the table and the sink. */
  stop(): Promise<void>;
}

/** The real notifier of a test's table, and what it leaves to remove. */
export interface MailNotifier {
  /** Stops it and removes its checkpoint files. */
  stop(): Promise<void>;
}

/**
 * Starts the real notifier on `table`, woken by its stream, with the comment function's `settings` (its mail
 * transport among them): the outbox's mails go out as `npm start` sends them, polled fast for a test.
 */
export async function startMailNotifier(
  table: Pick<TestTable, 'tableName' | 'endpoint'>,
  settings: Readonly<Record<string, string>>,
): Promise<MailNotifier> {
  const files: PollerFiles = await createPollerFiles();
  const notifier: RunningNotifier = await startLocalNotifier({
    config: testConfig({
      TABLE_NAME: table.tableName,
      DYNAMODB_ENDPOINT: table.endpoint,
      DYNAMODB_CONNECT_TIMEOUT_MS: '10000',
      DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
      ...settings,
    }),
    notify: loadNotifyConfig(settings),
    checkpointPath: files.checkpointPath,
    deadLetterPath: files.deadLetterPath,
    poller: { pollIntervalMs: 25, batchingWindowMs: 0, retryDelayMs: 50, maxRetryDelayMs: 100 },
    sweepIntervalMs: 0,
    log: () => {},
  });
  return {
    async stop() {
      await notifier.stop();
      await files.remove();
    },
  };
}

/**
 * Starts the local HTTP API on a fresh table with open registration and mail to an SMTP sink, and the real
 * notifier, woken by the table's stream, that sends the outbox's mails there. `keys` names this test's token and
 * link keys (each 40+ characters); `serverUrl` is the links' base; `settings` adds this test's own.
 */
export async function startMailedSite(options: {
  readonly serverUrl: string;
  readonly keys: { readonly jwt: string; readonly link: string };
  /** Settings of this test beside those above (single sign-on's, say). */
  readonly settings?: Readonly<Record<string, string>>;
}): Promise<MailedSite> {
  const sink = await startSmtpSink();
  const table = await createTestTable();
  const settings = {
    IPQPS: '0',
    LIST_CACHE_MS: '0',
    REGISTRATION: 'open',
    JWT_TOKEN: options.keys.jwt,
    LINK_SECRET: options.keys.link,
    SITE_NAME: 'Test Blog',
    SERVER_URL: options.serverUrl,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(sink.port),
    SENDER_EMAIL: 'noreply@blog.example.test',
    SENDER_NAME: 'Test Blog',
    ...options.settings,
  };
  const server = await startLocalHttpServer(table, settings);
  const notifier = await startMailNotifier(table, settings);
  return {
    sink,
    table,
    server,
    async send(method, path, body, authorization) {
      const response = await fetch(`${server.base}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(authorization ? { authorization } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, text, json };
    },
    async stop() {
      await notifier.stop();
      await server.close();
      await table.drop();
      await sink.stop();
    },
  };
}
