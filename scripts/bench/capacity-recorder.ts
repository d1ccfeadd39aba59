/**
 * A recording proxy between the SDK and DynamoDB Local: it asks for the consumed capacity of every data
 * request (ReturnConsumedCapacity=INDEXES: the table's units plus each index's, where TOTAL would leave out
 * index writes on DynamoDB Local) and notes each request's operation, items and units. Sitting at the HTTP
 * level, it sees every round trip the handlers make, whichever repository sends it, SDK retries included.
 * DynamoDB Local does not check request signatures, so the rewritten body needs no new one.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

/** One DynamoDB request as the proxy saw it. */
export interface RecordedRequest {
  /** The operation, e.g. `Query` or `TransactWriteItems`. */
  readonly operation: string;
  /** The request as the client sent it (before the recorder asked for the consumed capacity). */
  readonly input: Readonly<Record<string, unknown>>;
  /** The index a Query or Scan read (IndexName), absent for the table itself. */
  readonly index?: string;
  /** Items it touched: a transaction's or a batch's items, a query's results, else 1. */
  readonly items: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  /** Of `readUnits` or `writeUnits`, those of the table's indexes (the rest are the table's own). */
  readonly indexUnits: number;
  /** When the proxy received it and when it had the answer (performance.now, ms). */
  readonly startedAt: number;
  readonly endedAt: number;
}

/**
 * The round trips of `requests`: the longest chain of requests each sent after the one before had
 * its answer. Requests sent in parallel count once.
 */
export function roundTrips(requests: readonly RecordedRequest[]): number {
  const rounds: { endedAt: number; round: number }[] = [];
  for (const request of [...requests].sort((a, b) => a.startedAt - b.startedAt)) {
    const before = rounds.filter((done) => done.endedAt <= request.startedAt);
    rounds.push({ endedAt: request.endedAt, round: 1 + Math.max(0, ...before.map((done) => done.round)) });
  }
  return Math.max(0, ...rounds.map((done) => done.round));
}

/** A running recorder. */
export interface CapacityRecorder {
  /** Point the SDK here (DYNAMODB_ENDPOINT). */
  readonly endpoint: string;
  /** Returns what was recorded since the last call, and starts a new record. */
  take(): RecordedRequest[];
  close(): Promise<void>;
}

/** With INDEXES, `CapacityUnits` is the table's units plus every index's, and `Table` the table's alone. */
type ConsumedCapacity = { CapacityUnits?: number; Table?: { CapacityUnits?: number } };

const readOperations = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const dataOperations = new Set([
  ...readOperations,
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);

/** Starts the recorder on 127.0.0.1, forwarding to DynamoDB Local at `target`. */
export async function startCapacityRecorder(target: string): Promise<CapacityRecorder> {
  const upstream = new URL(target);
  let recorded: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const startedAt = performance.now();
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const sent = await readAll(request);
      const isData = dataOperations.has(operation);
      const input = isData ? (JSON.parse(sent.toString('utf8')) as Record<string, unknown>) : {};
      const body = isData
        ? Buffer.from(JSON.stringify({ ...input, ReturnConsumedCapacity: 'INDEXES' }))
        : sent;
      const answer = await forward(upstream, request, body);
      if (isData && answer.status === 200) {
        recorded.push({ ...record(operation, input, answer.body), startedAt, endedAt: performance.now() });
      }
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    })().catch((error: unknown) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`capacity recorder: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    take() {
      const taken = recorded;
      recorded = [];
      return taken;
    },
  };
}

/** Sums the capacity of one answer: an object for single-item calls, a list (one per table) for batches. */
function record(
  operation: string,
  input: Record<string, unknown>,
  body: Buffer,
): Omit<RecordedRequest, 'startedAt' | 'endedAt'> {
  const answer = JSON.parse(body.toString('utf8') || '{}') as {
    ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[];
    Count?: number;
  };
  let readUnits = 0;
  let writeUnits = 0;
  let indexUnits = 0;
  for (const capacity of [answer.ConsumedCapacity ?? []].flat()) {
    const units = capacity.CapacityUnits ?? 0;
    if (readOperations.has(operation)) readUnits += units;
    else writeUnits += units;
    indexUnits += units - (capacity.Table?.CapacityUnits ?? units);
  }
  const index = typeof input.IndexName === 'string' ? input.IndexName : undefined;
  return {
    operation,
    input,
    ...(index === undefined ? {} : { index }),
    items: itemCount(operation, input, answer.Count),
    readUnits,
    writeUnits,
    indexUnits,
  };
}

function itemCount(
  operation: string,
  input: Record<string, unknown>,
  resultCount: number | undefined,
): number {
  if (operation === 'Query' || operation === 'Scan') return resultCount ?? 0;
  if (operation.startsWith('Transact')) return (input.TransactItems as unknown[] | undefined)?.length ?? 0;
  if (operation.startsWith('Batch')) {
    const perTable = Object.values((input.RequestItems ?? {}) as Record<string, unknown>);
    return perTable.reduce<number>(
      (sum, table) =>
        sum + (Array.isArray(table) ? table.length : ((table as { Keys?: unknown[] }).Keys?.length ?? 0)),
      0,
    );
  }
  return 1;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolveBody(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function forward(
  upstream: URL,
  request: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
  return new Promise((resolveAnswer, reject) => {
    const headers: Record<string, string | string[] | undefined> = {
      ...request.headers,
      host: upstream.host,
    };
    headers['content-length'] = String(body.length);
    const outgoing = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers },
      (incoming) => {
        readAll(incoming).then((answer) => {
          const answerHeaders: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(incoming.headers)) {
            // The answer is passed on whole, so its length stays; a CRC32 header stays valid too.
            if (value !== undefined && name !== 'transfer-encoding') answerHeaders[name] = value;
          }
          answerHeaders['content-length'] = String(answer.length);
          resolveAnswer({ status: incoming.statusCode ?? 502, headers: answerHeaders, body: answer });
        }, reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
