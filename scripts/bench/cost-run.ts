/**
 * The measurements the cost section bills (aws-cost.ts): what a widget page load, a new comment with its
 * notices and a run of the notifier's sweep ask of AWS. The real handlers run in this process, as
 * operation-costs.ts runs them, twice over: through the capacity recorder for their DynamoDB read and write
 * units (a few rounds: units do not vary), and straight against DynamoDB Local for each invocation's wall
 * and CPU time (the recorder's own work would be counted in both). The notifier mails through SES's real
 * client, pointed at a loopback stub that counts the mails and answers at once.
 *
 * A page load is what the v3 widget sends on a page with comments and a pageview counter: the list's page 1,
 * the count of the page, and one pageview increment (@waline/client's comment and pageview modules), whose
 * JSON body costs a CORS preflight on a site served from another origin than the API. A new
 * comment is its submit and the notifier's run on its outbox event, as the table's stream would invoke it:
 * a root comment mails the owner; a reply mails the owner and the author of the comment it answers.
 */
import { createServer } from 'node:http';
import {
  type AttributeValue,
  type DynamoDBClient,
  GetItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord, ScheduledEvent } from 'aws-lambda';
import { createChannels } from '../../functions/notify/channels/channels.js';
import { plainNotifySecrets } from '../../functions/notify/dependencies.js';
import type { NotifyFunction } from '../../functions/notify/notify-function.js';
import { loadNotifyConfig } from '../../functions/notify/notify-config.js';
import { streamSettings } from '../../functions/notify/stream-settings.js';
import { loadConfig } from '../../functions/shared/config.js';
import type { HttpHandler } from '../../functions/shared/http/http-types.js';
import { entities, keys } from '../../functions/shared/table/keys.js';
import { buildEvent, type EventSpec, testContext } from '../../test/support/http-event.js';
import { createLocalDynamoDbClient } from '../create-table.js';
import { createLocalFunctions, createLocalNotifier } from '../local-functions.js';
import type { MeasuredInvocation, WorkUsage } from './aws-cost.js';
import { billedMs } from './aws-cost.js';
import type { RecordedRequest } from './capacity-recorder.js';
import { itemBytes, type TransactionItem, transactionTableWriteUnits } from './dynamodb-billing.js';
import { accessLogBytes, accessLogValues, platformLogBytes } from './log-volume.js';
import { listenOnLoopback } from './loopback-server.js';
import { seeded } from './seed.js';
import type { FunctionSettings } from './stack-fixed-costs.js';

/** The functions the bench runs, by the name the usage bills them under. */
export type BenchFunction = 'comment' | 'article' | 'notify';

/** What the cost section measured, each piece of work as its totals over its rounds. */
export interface CostMeasurement {
  readonly pageLoad: WorkUsage;
  readonly rootComment: WorkUsage;
  readonly reply: WorkUsage;
  readonly sweep: WorkUsage;
}

/** What the measurement runs against. */
export interface CostRunSettings {
  /** DynamoDB Local itself: the timed rounds. */
  readonly endpoint: string;
  /** The capacity recorder in front of it: the rounds whose units are counted. */
  readonly recorderEndpoint: string;
  /** What the recorder saw since the last call. */
  readonly take: () => RecordedRequest[];
  readonly tableName: string;
  /** The API stage's access-log format (the template's), for the bytes each request logs. */
  readonly accessLogFormat: string;
  /** Each function's deployed memory and architecture, for the bytes of its REPORT line. */
  readonly functions: Readonly<Record<BenchFunction, FunctionSettings>>;
  /** Timed rounds of each piece of work (after as many unmeasured ones); default 40. */
  readonly rounds?: number;
  /** Rounds through the recorder; default 3. */
  readonly unitRounds?: number;
}

/** One API request of a piece of work: its event and the function API Gateway sends it to. */
interface ApiCall {
  readonly function: 'comment' | 'article';
  readonly spec: EventSpec;
}

/** Totals of the rounds of one piece of work, as they are added up. */
interface Tally {
  rounds: number;
  apiRequests: number;
  invocations: MeasuredInvocation[];
  readUnits: number;
  writeUnits: number;
  mails: number;
  logBytes: number;
}

const newTally = (): Tally => ({
  rounds: 0,
  apiRequests: 0,
  invocations: [],
  readUnits: 0,
  writeUnits: 0,
  mails: 0,
  logBytes: 0,
});

/** The three requests of a widget page load (what @waline/client 3 sends for a page with both counters). */
export function pageLoadCalls(path: string): ApiCall[] {
  const query = (parameters: Record<string, string>) => new URLSearchParams(parameters).toString();
  return [
    {
      function: 'comment',
      spec: {
        path: '/api/comment',
        query: query({ path, pageSize: '10', page: '1', lang: 'en-US', sortBy: 'insertedAt_desc' }),
      },
    },
    {
      function: 'comment',
      spec: { path: '/api/comment', query: query({ type: 'count', url: path, lang: 'en-US' }) },
    },
    {
      function: 'article',
      spec: {
        method: 'POST',
        path: '/api/article',
        query: 'lang=en-US',
        body: { path, type: 'time', action: 'inc' },
      },
    },
  ];
}

/** One set of the three functions, against one DynamoDB endpoint, with the SES stub as their mail. */
interface Functions {
  readonly http: Record<'comment' | 'article', HttpHandler>;
  readonly notify: NotifyFunction;
}

function buildFunctions(endpoint: string, tableName: string, ses: SESv2Client): Functions {
  const config = loadConfig({
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    IP_HASH_SALT: 'marginalia-bench-salt-0123456789',
    // Off, so that every page load reads DynamoDB: what a blog whose pages are seldom read within the same
    // second of each other pays (the deployed 1 s cache only spares reads within one second).
    LIST_CACHE_MS: '0',
    JWT_TOKEN: 'marginalia-bench-jwt-key-0123456789abcdef',
    // The reader's reply mail carries a signed unsubscribe link: without the link key it would fail, unsent.
    LINK_SECRET: 'marginalia-bench-link-key-0123456789abcdef',
    SITE_NAME: 'Bench',
    SITE_URL: 'https://blog.example.com',
  });
  const notify = loadNotifyConfig({
    MAIL_TRANSPORT: 'ses',
    AUTHOR_EMAIL: 'owner@example.com',
    SENDER_EMAIL: 'comments@example.com',
    SERVER_URL: 'https://comments.example.com',
    // High enough that no notice of the bench is capped: every comment's mails are sent and counted.
    NOTIFY_CAP_PER_HOUR: '1000',
    NOTIFY_CAP_PER_DAY: '10000',
    NOTIFY_SITE_CAP_PER_HOUR: '100000',
    NOTIFY_SITE_CAP_PER_DAY: '1000000',
    NOTIFY_DOMAIN_CAP_PER_HOUR: '100000',
    AUTHOR_NOTIFY_CAP_PER_HOUR: '10000',
    // Every reply mailed, as the bench measured before confirmations: the most mail a site pays for.
    REPLY_MAIL: 'all',
  });
  const { handlers } = createLocalFunctions(config);
  const channels = createChannels({
    config,
    notify,
    secrets: plainNotifySecrets(config, notify),
    now: Date.now,
    ses,
  });
  return { http: handlers, notify: createLocalNotifier(config, notify, { channels }).handler };
}

/** A loopback stand-in for SES v2's SendEmail: counts the mails, answers at once. */
async function startSesStub() {
  let mails = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method === 'POST' && request.url?.startsWith('/v2/email/outbound-emails')) mails++;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ MessageId: `bench-${mails}` }));
    });
  });
  const listening = await listenOnLoopback(server);
  const client = new SESv2Client({
    endpoint: listening.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  });
  return {
    client,
    mails: () => mails,
    async close() {
      client.destroy();
      await listening.close();
    },
  };
}

/** Runs `call` and measures it as one invocation of `fn`: wall time and this process's CPU time. */
async function timed<T>(
  fn: BenchFunction,
  call: () => Promise<T>,
): Promise<{ result: T; run: MeasuredInvocation }> {
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  const result = await call();
  const wallMs = performance.now() - startedAt;
  const cpu = process.cpuUsage(cpuBefore);
  return { result, run: { function: fn, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 } };
}

/** The four pieces of work, each with its tally. */
type Tallies = Record<keyof CostMeasurement, Tally>;
const newTallies = (): Tallies => ({
  pageLoad: newTally(),
  rootComment: newTally(),
  reply: newTally(),
  sweep: newTally(),
});

/**
 * How a round is run: `units` through the recorder, adding units and mails to `tallies`; `time` straight
 * against DynamoDB Local, adding requests, invocations and log bytes. Without tallies, a round is not
 * counted (warm-up).
 */
interface RoundMode {
  readonly functions: Functions;
  readonly units: boolean;
  readonly tallies?: Tallies;
}

/** Measures every piece of work: units through the recorder, times straight against DynamoDB Local. */
export async function measureAwsCost(settings: CostRunSettings): Promise<CostMeasurement> {
  const rounds = settings.rounds ?? 40;
  const unitRounds = settings.unitRounds ?? 3;
  const ses = await startSesStub();
  const admin = createLocalDynamoDbClient(settings.endpoint);
  let round = 0;

  /** The log bytes of the invocation `run`, and of its API request when it had one. */
  const logBytes = (run: MeasuredInvocation, request?: Parameters<typeof accessLogValues>[0]) => {
    const deployed = settings.functions[run.function as BenchFunction];
    const platform = platformLogBytes(run.wallMs, billedMs(run, deployed), deployed.memoryMb);
    return platform + (request ? accessLogBytes(settings.accessLogFormat, accessLogValues(request)) : 0);
  };

  /** Records `run` (and its API request) in `tally`: units from the recorder, or its time and logs. */
  const record = async (
    mode: RoundMode,
    tally: Tally | undefined,
    run: MeasuredInvocation,
    request?: Parameters<typeof accessLogValues>[0],
  ) => {
    if (!tally) return;
    if (mode.units) {
      const units = await billedUnits(settings.take(), admin);
      tally.readUnits += units.readUnits;
      tally.writeUnits += units.writeUnits;
      return;
    }
    if (request) tally.apiRequests++;
    tally.invocations.push(run);
    tally.logBytes += logBytes(run, request);
  };

  /** Sends `call` through API Gateway's event to its function; an answer above 2xx stops the bench. */
  const send = async (mode: RoundMode, call: ApiCall, tally?: Tally) => {
    const event = buildEvent(call.spec);
    if (mode.units) settings.take();
    const { result, run } = await timed(call.function, () =>
      mode.functions.http[call.function](event, testContext),
    );
    if (result.statusCode >= 300) {
      throw new Error(
        `cost: ${event.requestContext.http.method} ${call.spec.path} answered ${result.statusCode}`,
      );
    }
    await record(mode, tally, run, {
      method: event.requestContext.http.method,
      routeKey: event.routeKey,
      path: call.spec.path,
      status: result.statusCode,
      responseBytes: Buffer.byteLength(result.body ?? ''),
      latencyMs: run.wallMs,
    });
    // A JSON body makes a cross-site request "non-simple": the browser asks first with an OPTIONS preflight,
    // which API Gateway answers itself (no function) and bills and logs as a request. It caches the answer
    // (max-age a day, Chrome keeps 2 h) per URL, so a returning reader's next page skips it: counted on every
    // page here, the upper bound.
    if (tally && !mode.units && call.spec.body !== undefined) {
      tally.apiRequests++;
      tally.logBytes += accessLogBytes(
        settings.accessLogFormat,
        accessLogValues({
          method: 'OPTIONS',
          routeKey: `OPTIONS ${call.spec.path}`,
          path: call.spec.path,
          status: 204,
          responseBytes: 0,
          latencyMs: 1,
        }),
      );
    }
    return JSON.parse(result.body ?? '{}') as { data?: { objectId?: string } };
  };

  /**
   * Runs the notifier on the pending outbox events, in one batch as the stream's mapping would, and checks
   * that it sent the `expectedMails` the work should cost (a delivery that failed is no failure of the batch).
   */
  const notifyPending = async (mode: RoundMode, expectedMails: number, tally?: Tally) => {
    const records = await pendingOutboxRecords(admin, settings.tableName);
    if (records.length === 0) throw new Error('cost: a new comment left no pending outbox event');
    const mailsBefore = ses.mails();
    if (mode.units) settings.take();
    const { result, run } = await timed('notify', () =>
      mode.functions.notify({ Records: records }, notifyContext),
    );
    if (result.batchItemFailures.length > 0) throw new Error('cost: the notifier failed an outbox event');
    const sent = ses.mails() - mailsBefore;
    if (sent !== expectedMails)
      throw new Error(`cost: the notifier sent ${sent} mails, not ${expectedMails}`);
    await record(mode, tally, run);
    if (tally && mode.units) tally.mails += sent;
  };

  /** One new root comment and a reply to it, each followed by the notifier's run on its event. */
  const commentRound = async (mode: RoundMode) => {
    round++;
    const article = `/bench/cost-${round}`;
    // A new address per round: IPQPS (60 s, as deployed) checks each comment's rate mark and lets it through.
    const ip = (n: number) => `10.${(round >> 8) & 255}.${round & 255}.${n}`;
    const text = `Comment ${round}: a **new** comment with a [link](https://example.com/${round}) and \`code\`.`;
    const post = (body: Record<string, unknown>, sourceIp: string): ApiCall => ({
      function: 'comment',
      spec: {
        method: 'POST',
        path: '/api/comment',
        query: 'lang=en-US',
        body: { url: article, ...body },
        sourceIp,
      },
    });
    const root = await send(
      mode,
      post({ comment: text, nick: 'Ann', mail: `ann-${round}@example.com` }, ip(1)),
      mode.tallies?.rootComment,
    );
    await notifyPending(mode, 1, mode.tallies?.rootComment);
    const rootId = root.data?.objectId;
    if (!rootId) throw new Error('cost: a submitted comment came back without an objectId');
    await send(
      mode,
      post({ comment: `Re: ${text}`, nick: 'Bob', pid: rootId, rid: rootId, at: 'Ann' }, ip(2)),
      mode.tallies?.reply,
    );
    await notifyPending(mode, 2, mode.tallies?.reply);
    if (mode.tallies) {
      mode.tallies.rootComment.rounds++;
      mode.tallies.reply.rounds++;
    }
  };

  const pageLoadRound = async (mode: RoundMode) => {
    for (const call of pageLoadCalls(seeded.listPath)) await send(mode, call, mode.tallies?.pageLoad);
    if (mode.tallies) mode.tallies.pageLoad.rounds++;
  };

  const sweepRound = async (mode: RoundMode) => {
    if (mode.units) settings.take();
    const { run } = await timed('notify', () => mode.functions.notify(scheduledEvent(), notifyContext));
    await record(mode, mode.tallies?.sweep, run);
    if (mode.tallies) mode.tallies.sweep.rounds++;
  };

  try {
    const recorded = buildFunctions(settings.recorderEndpoint, settings.tableName, ses.client);
    const direct = buildFunctions(settings.endpoint, settings.tableName, ses.client);
    // The seeded comments' events (seed.ts posts through the API, and no stream runs here): processed first,
    // in the mapping's batches, so that each round's run sees its own event alone and the sweep finds none.
    for (let pass = 0; pass < 10; pass++) {
      const records = await pendingOutboxRecords(admin, settings.tableName);
      if (records.length === 0) break;
      for (let first = 0; first < records.length; first += streamSettings.batchSize) {
        await direct.notify(
          { Records: records.slice(first, first + streamSettings.batchSize) },
          notifyContext,
        );
      }
    }
    const units = newTallies();
    const times = newTallies();
    for (const work of [pageLoadRound, commentRound, sweepRound]) {
      // Units: a first round, not counted, opens the recorder's connections and fills what a warm instance
      // keeps (the table's layout, the sign-in key); units do not vary from round to round after it.
      await work({ functions: recorded, units: true });
      for (let unit = 0; unit < unitRounds; unit++)
        await work({ functions: recorded, units: true, tallies: units });
      // Times: as many unmeasured rounds first, to warm the JIT, then the measured ones.
      for (let warm = 0; warm < rounds; warm++) await work({ functions: direct, units: false });
      for (let measured = 0; measured < rounds; measured++) {
        await work({ functions: direct, units: false, tallies: times });
      }
    }
    const usage = (name: keyof CostMeasurement): WorkUsage => {
      const time = times[name];
      const unit = units[name];
      // The units of one round, times the timed rounds: the usage is one total over `count` rounds.
      const scaled = (value: number) => (unit.rounds > 0 ? (value / unit.rounds) * time.rounds : 0);
      return {
        count: time.rounds,
        apiRequests: time.apiRequests,
        invocations: time.invocations,
        logBytes: time.logBytes,
        readUnits: scaled(unit.readUnits),
        writeUnits: scaled(unit.writeUnits),
        mails: scaled(unit.mails),
      };
    };
    return {
      pageLoad: usage('pageLoad'),
      rootComment: usage('rootComment'),
      reply: usage('reply'),
      sweep: usage('sweep'),
    };
  } finally {
    admin.destroy();
    await ses.close();
  }
}

/** One entry of a TransactWriteItems as the client sent it (DynamoDB JSON). */
interface TransactEntry {
  readonly Put?: { readonly Item: Record<string, AttributeValue> };
  readonly Update?: { readonly TableName: string; readonly Key: Record<string, AttributeValue> };
  readonly ConditionCheck?: { readonly TableName: string; readonly Key: Record<string, AttributeValue> };
  readonly Delete?: unknown;
}

/**
 * The units DynamoDB would bill for `requests`: as DynamoDB Local reports them, but a transaction's writes
 * to the table per item (dynamodb-billing.ts), each Update and ConditionCheck sized by its item as stored
 * after it, a Delete at the 1 KB minimum (its item is gone; the marks it removes are small).
 */
async function billedUnits(
  requests: readonly RecordedRequest[],
  admin: DynamoDBClient,
): Promise<{ readUnits: number; writeUnits: number }> {
  let readUnits = 0;
  let writeUnits = 0;
  for (const request of requests) {
    readUnits += request.readUnits;
    if (request.operation !== 'TransactWriteItems') {
      writeUnits += request.writeUnits;
      continue;
    }
    const entries = (request.input.TransactItems ?? []) as readonly TransactEntry[];
    const items = await Promise.all(
      entries.map(async (entry): Promise<TransactionItem> => {
        if (entry.Put) return { kind: 'Put', bytes: itemBytes(entry.Put.Item) };
        const target = entry.Update ?? entry.ConditionCheck;
        if (!target) return { kind: 'Delete', bytes: 0 };
        const stored = await admin.send(
          new GetItemCommand({ TableName: target.TableName, Key: target.Key, ConsistentRead: true }),
        );
        return {
          kind: entry.Update ? 'Update' : 'ConditionCheck',
          bytes: stored.Item ? itemBytes(stored.Item) : 0,
        };
      }),
    );
    writeUnits += request.indexUnits + transactionTableWriteUnits(items);
  }
  return { readUnits, writeUnits };
}

const notifyContext = { awsRequestId: 'bench-notify', getRemainingTimeInMillis: () => 60_000 };

/**
 * The stream records of the outbox events left pending (today's and yesterday's partitions), as the
 * mapping's filter would pass them: an INSERT with the item as its new image.
 */
async function pendingOutboxRecords(admin: DynamoDBClient, tableName: string): Promise<DynamoDBRecord[]> {
  const records: DynamoDBRecord[] = [];
  const now = Date.now();
  for (const day of [new Date(now - 86_400_000), new Date(now)].map((date) =>
    date.toISOString().slice(0, 10),
  )) {
    const answer = await admin.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        // `state` is a reserved word: named through #state.
        FilterExpression: 'entity = :outbox AND #state = :pending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':pk': { S: keys.outboxPartition(day) },
          ':outbox': { S: entities.outbox },
          ':pending': { S: 'pending' },
        },
      }),
    );
    for (const item of answer.Items ?? []) records.push(streamRecord(item));
  }
  return records;
}

function streamRecord(item: Record<string, AttributeValue>): DynamoDBRecord {
  // The SDK's attribute values and Lambda's are the same JSON shapes, typed apart.
  const image = item as Record<string, LambdaAttributeValue>;
  return {
    eventID: `bench-${item.sk?.S ?? ''}`,
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/marginalia-bench/stream/bench',
    dynamodb: {
      Keys: { pk: image.pk ?? { S: '' }, sk: image.sk ?? { S: '' } },
      NewImage: image,
      SequenceNumber: '1',
      SizeBytes: Buffer.byteLength(JSON.stringify(item)),
      StreamViewType: 'NEW_IMAGE',
    },
  };
}

/** The event the sweep's schedule sends. */
function scheduledEvent(): ScheduledEvent {
  return {
    version: '0',
    id: 'bench-sweep',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString(),
    region: 'us-east-1',
    resources: [],
    detail: {},
  };
}
