/**
 * `npm start`: DynamoDB Local (data kept in .data/dynamodb), the table from functions/shared/table/table-definition.ts, and both
 * functions served over HTTP on 127.0.0.1 like API Gateway would call them; the notifier, woken by a poller
 * of the table's stream (its checkpoint in .data/), sending to a local inbox when no mail is configured.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { HttpHandler } from '../functions/shared/http/http-types.js';
import type { FunctionName } from '../functions/api-routes.js';
import { createLocalDynamoDbClient, ensureTable } from './create-table.js';
import { acquireDataLock, type DataLock } from './data-lock.js';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.js';
import {
  inboxPortsFromEnvironment,
  type LocalInbox,
  needsLocalInbox,
  startLocalInbox,
} from './local-inbox.js';
import { localDataDir } from './local-data-dir.js';
import { createLocalServer } from './local-server.js';
import { createLocalSite } from './local-site.js';
import { captchaWidgetOf } from '../functions/comment/pages/captcha-widget.js';
import type { RunningNotifier } from './local-stream/local-notifier.js';

const host = '127.0.0.1';
const dataRoot = localDataDir();
/** Where `npm run admin` finds the running DynamoDB Local (it must not open the same files twice). */
const endpointFile = join(dataRoot, 'dynamodb-endpoint');
/** How far the notifier has read the table's stream: a restart sends nothing twice. */
const streamCheckpointFile = join(dataRoot, 'notify-stream-checkpoint.json');
/** The on-failure messages of batches the notifier gave up on (the events stay failed in /ui). */
const deadLetterFile = join(dataRoot, 'notify-dead-letters.jsonl');
/** Local mode's owner, when AUTHOR_EMAIL is unset and mail goes to the local inbox. */
const demoOwnerAddress = 'owner@localhost.test';

let dataLock: DataLock | undefined;
let dynamoDb: DynamoDbLocal | undefined;
let server: Server | undefined;
let inbox: LocalInbox | undefined;
let notifier: RunningNotifier | undefined;
let shuttingDown = false;

try {
  await main();
} catch (error) {
  await fail(`Marginalia could not start: ${error instanceof Error ? error.message : String(error)}`);
}

async function main(): Promise<void> {
  // Node 20 is a supported development platform; the deployed functions run on Node 22.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
  const port = parsePort(process.env.PORT);
  process.once('SIGINT', () => void shutDown());
  process.once('SIGTERM', () => void shutDown());
  // Before anything opens .data: a second start on it stops here, naming the first one's PID and port.
  dataLock = await acquireDataLock(dataRoot, { command: 'npm start', port });

  // Bind the port first, so a port in use fails at once rather than after Java has started. Requests that
  // arrive before the functions are built wait for them.
  let provideHandlers: (handlers: Record<FunctionName, HttpHandler>) => void = () => {};
  const handlersReady = new Promise<Record<FunctionName, HttpHandler>>((resolveHandlers) => {
    provideHandlers = resolveHandlers;
  });
  // The demo's widget gets the captcha site key (the configuration, read later, checks its form).
  const siteKey = (name: string) => process.env[name]?.trim() || undefined;
  const captcha = captchaWidgetOf({
    TURNSTILE_KEY: siteKey('TURNSTILE_KEY'),
    RECAPTCHA_V3_KEY: siteKey('RECAPTCHA_V3_KEY'),
  });
  const localServer = createLocalServer(
    {
      comment: async (event, context) => (await handlersReady).comment(event, context),
      article: async (event, context) => (await handlersReady).article(event, context),
    },
    {
      site: createLocalSite({
        captcha,
        // The demo site's backend signs with the server's own SSO settings, set below once the port is known.
        sso: () => {
          const { SSO_SECRET: secret, SSO_AUDIENCE: audience } = process.env;
          return secret && audience ? { secret, audience } : undefined;
        },
      }),
    },
  );
  await listen(localServer, port);
  server = localServer;
  const listening = localServer.address();
  await dataLock.setPort(typeof listening === 'object' && listening ? listening.port : port);

  console.log('Starting DynamoDB Local...');
  const startedAt = Date.now();
  dynamoDb = await startDynamoDbLocal({ dataDir: join(dataRoot, 'dynamodb') });
  const engine = dynamoDb;
  engine.exited.then(({ code, signal }) => {
    if (shuttingDown) return;
    void fail(
      `Marginalia stopped: DynamoDB Local exited unexpectedly (exit code ${code}, signal ${signal}).`,
    );
  });

  process.env.TABLE_NAME ||= 'marginalia';
  process.env.DYNAMODB_ENDPOINT = engine.endpoint;
  process.env.AWS_REGION ||= 'us-east-1';
  // Dummy credentials: DynamoDB Local accepts any, and real ones must never be needed (or sent) locally.
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  delete process.env.AWS_SESSION_TOKEN;
  process.env.IP_HASH_SALT ||= await loadOrCreateSecret('ip-hash-salt');
  // The key that signs administrators' sign-in tokens; on AWS it is an SSM SecureString.
  process.env.JWT_TOKEN ||= await loadOrCreateSecret('jwt-secret');
  // The key that signs the links in mails, a secret of its own; on AWS too an SSM SecureString.
  process.env.LINK_SECRET ||= await loadOrCreateSecret('link-secret');
  // Avatars are identicons from this server's /avatar route, so the demo loads nothing from libravatar.
  const address = localServer.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  process.env.GRAVATAR_STR ||= `http://${host}:${actualPort}/avatar/{{mail|md5}}.svg`;
  // Writes from this server's own pages (the demo, /ui) only, unless the site is named: any other page would
  // otherwise make its visitors' browsers post through it (docs/local-development.md).
  if (!process.env.ALLOWED_ORIGINS?.trim() && !process.env.SECURE_DOMAINS?.trim()) {
    process.env.ALLOWED_ORIGINS = `http://${host}:${actualPort}`;
  }
  // The links in mails (unsubscribe, approve from the mail) lead to this server.
  process.env.SERVER_URL ||= `http://${host}:${actualPort}`;
  // Single sign-on with the demo site (/demo/site-login): its fake backend and this server share a key, and
  // assertions name this server as their audience.
  process.env.SSO_SECRET ||= await loadOrCreateSecret('sso-secret');
  process.env.SSO_AUDIENCE ||= `http://${host}:${actualPort}`;
  if (needsLocalInbox(process.env)) {
    inbox = await startLocalInbox({ host, ...inboxPortsFromEnvironment(process.env) });
    process.env.SMTP_HOST = inbox.smtpHost;
    process.env.SMTP_PORT = String(inbox.smtpPort);
    // A demo owner, so that new and waiting comments show their owner mails in the inbox too.
    process.env.AUTHOR_EMAIL ||= demoOwnerAddress;
    process.env.SENDER_EMAIL ||= 'marginalia@localhost.test';
    process.env.SENDER_NAME ||= 'Marginalia (local)';
    // The demo's readers can register: their confirmation and reset mails land in the inbox too.
    process.env.REGISTRATION ||= 'open';
  }

  // Imported only now, so that modules reading the environment at load time see the values set above.
  const { loadConfig } = await import('../functions/shared/config.js');
  const { loadNotifyConfig } = await import('../functions/notify/notify-config.js');
  const { createLocalFunctions } = await import('./local-functions.js');
  const { startLocalNotifier } = await import('./local-stream/local-notifier.js');

  const config = loadConfig(process.env);
  const notifyConfig = loadNotifyConfig(process.env);
  const client = createLocalDynamoDbClient(engine.endpoint);
  try {
    await ensureTable(client, config.TABLE_NAME);
  } finally {
    client.destroy();
  }
  await writeFile(endpointFile, engine.endpoint);
  provideHandlers(createLocalFunctions(config).handlers);
  notifier = await startLocalNotifier({
    config,
    notify: notifyConfig,
    checkpointPath: streamCheckpointFile,
    deadLetterPath: deadLetterFile,
    log: (message) => console.error(message),
  });

  console.log(
    `DynamoDB Local: ${engine.endpoint} (ready in ${Date.now() - startedAt} ms), table ${config.TABLE_NAME}`,
  );
  console.log(
    engine.loopbackOnly
      ? `  It listens on ${host} only: no other host can reach it.`
      : '  WARNING: it listens on every network interface, with no authentication: other hosts can read and ' +
          'change its data (see the warning above). Do not import real exports into it.',
  );
  console.log(`Marginalia is listening on http://${host}:${actualPort} (the demo page is there too)`);
  console.log(describeMail(notifyConfig));
  console.log('Press Ctrl-C to stop.');
}

function listen(localServer: Server, port: number): Promise<void> {
  return new Promise((resolveListening, reject) => {
    localServer.once('error', (error: NodeJS.ErrnoException) => {
      const inUse = error.code === 'EADDRINUSE';
      reject(inUse ? new Error(`port ${port} is in use; set PORT=... to another port`) : error);
    });
    localServer.listen(port, host, () => resolveListening());
  });
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 8360;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, got "${value}"`);
  }
  return port;
}

/**
 * A local secret (the IP-hash salt, the token key, the link key), created once with 32 random bytes and kept in
 * .data, so hashes stay comparable and sign-ins survive a restart.
 */
async function loadOrCreateSecret(name: string): Promise<string> {
  const file = join(dataRoot, name);
  try {
    const secret = (await readFile(file, 'utf8')).trim();
    if (secret) return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('hex');
  await mkdir(dataRoot, { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Where the notifier's mail goes, for the start-up banner (no password, no address but the demo's). */
function describeMail(notify: { readonly mailTransport?: string; readonly AUTHOR_EMAIL?: string }): string {
  if (inbox) {
    const owner =
      notify.AUTHOR_EMAIL === demoOwnerAddress ? `; the owner is ${demoOwnerAddress} (set AUTHOR_EMAIL)` : '';
    return (
      `Notifications: mails go to the local inbox, read them at ${inbox.webUrl} ` +
      `(SMTP ${inbox.smtpHost}:${inbox.smtpPort}${owner})`
    );
  }
  const channel = notify.mailTransport === 'ses' ? 'Amazon SES' : 'the SMTP server configured';
  return `Notifications: mails go through ${channel}`;
}

async function closeEverything(): Promise<void> {
  shuttingDown = true;
  await rm(endpointFile, { force: true });
  // The batch being sent finishes first, its checkpoint written, while the table is still there.
  await notifier?.stop();
  await inbox?.stop();
  const localServer = server;
  if (localServer?.listening) {
    await new Promise<void>((resolveClosed) => {
      localServer.close(() => resolveClosed());
      localServer.closeAllConnections();
    });
  }
  await dynamoDb?.stop();
  // Last: the data folder is free once DynamoDB Local has let go of its files.
  await dataLock?.release();
}

async function shutDown(): Promise<void> {
  if (shuttingDown) return;
  // A second Ctrl-C while we wait: give up waiting (the launcher's exit hook still kills Java).
  process.once('SIGINT', () => process.exit(130));
  console.log('\nStopping...');
  await closeEverything();
  process.exit(0);
}

async function fail(message: string): Promise<void> {
  if (shuttingDown) return;
  console.error(message);
  await closeEverything().catch(() => {});
  process.exit(1);
}
