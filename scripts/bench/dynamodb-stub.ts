/**
 * A stand-in DynamoDB for the cold-start runs: it answers each operation in DynamoDB's JSON protocol with
 * a small, valid result (three comments for a Query, the asked-for counters of a BatchGetItem and no
 * other item, success for writes), instantly, so a run times the function's own start, not a database.
 */
import { createServer } from 'node:http';
import { layoutVersion } from '../../functions/shared/table/table-definition.js';
import { listenOnLoopback } from './loopback-server.js';

/** A running stub. */
export interface DynamoDbStub {
  readonly endpoint: string;
  close(): Promise<void>;
}

const s = (value: string) => ({ S: value });
const n = (value: number) => ({ N: String(value) });

function commentItem(index: number) {
  const id = `01JBENCHCOLDSTART0000000${index}`.slice(0, 26);
  return {
    pk: s('URL#/cold'),
    sk: s(`C#${id}`),
    commentId: s(id),
    url: s('/cold'),
    nick: s(`Reader ${index}`),
    mail: s(`reader${index}@example.com`),
    link: s('https://example.com'),
    browser: s('Chrome 126.0.0.0'),
    os: s('Linux'),
    orig: s('Hello **world**'),
    html: s('<p>Hello <strong>world</strong></p>\n'),
    status: s('approved'),
    like: n(index),
    insertedAt: n(1_700_000_000_000 + index),
  };
}

function answer(operation: string, input: { RequestItems?: Record<string, { Keys?: unknown[] }> }): unknown {
  switch (operation) {
    case 'Query':
      return { Items: [1, 2, 3].map(commentItem), Count: 3, ScannedCount: 3 };
    case 'BatchGetItem': {
      const [table, request] = Object.entries(input.RequestItems ?? {})[0] ?? ['', { Keys: [] }];
      // Counters exist (reading counts, comment counts); a submit's marks (rate, duplicate, administrator)
      // do not, so a first submit goes through as it would on a fresh table.
      const counters = (request.Keys ?? []).filter(
        (key) => (key as { sk?: { S?: string } }).sk?.S === 'PAGE',
      );
      const items = counters.map((key, index) => ({ ...(key as object), time: n(index + 1) }));
      return { Responses: { [table]: items }, UnprocessedKeys: {} };
    }
    case 'GetItem':
      // The site item carries the layout: without it, the layout check would answer 503 (layout.ts).
      return { Item: { pk: s('SITE'), sk: s('SITE'), comments: n(3), layout: n(layoutVersion) } };
    case 'UpdateItem':
      return { Attributes: { time: n(1) } };
    default:
      return {};
  }
}

/** Starts the stub on a free 127.0.0.1 port. */
export async function startDynamoDbStub(): Promise<DynamoDbStub> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Parameters<
        typeof answer
      >[1];
      const body = JSON.stringify(answer(operation, input));
      response.writeHead(200, {
        'content-type': 'application/x-amz-json-1.0',
        'x-amzn-requestid': 'stub',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    });
  });
  return listenOnLoopback(server);
}
