import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config.js';
import { trimMiddleware } from './client-stack.js';
import { createDocumentSend, type Translation } from './document-send.js';
import { createRequestHandler, type RequestTimeouts } from './request-handler.js';

export type { RequestTimeouts } from './request-handler.js';

/** Options of {@link createDocumentClient}. */
export interface DocumentClientOptions {
  /** DynamoDB Local's address; unset on AWS. */
  readonly endpoint?: string;
  /**
   * Timeouts of each attempt; none when unset (a stalled request waits for the socket's 300 s idle timeout,
   * as with the SDK's default handler). The functions set them; the CLIs, which may send megabytes per request
   * from a slow uplink, do not.
   */
  readonly timeouts?: RequestTimeouts;
}

/** A DynamoDB number as JavaScript holds it: a number when exact as one, else a NumberValue. */
function readNumber(text: string): number | NumberValue {
  const value = Number(text);
  return Number.isSafeInteger(value) || !Number.isInteger(value) ? value : NumberValue.from(text);
}

/** The SDK's own send of the document client, as the class had it when this module loaded. */
const sdkSend: unknown = DynamoDBDocumentClient.prototype.send;

/** Attempts per request: the first and two retries, each within the timeouts. */
const maxAttempts = 3;

/**
 * Builds the document client the repositories share. `endpoint` is set only in local mode, where
 * DynamoDB Local accepts any credentials: fixed ones keep a developer's real AWS keys out of it.
 *
 * The SDK's client as it comes cost 2.3 to 3.5 times the CPU of the bare exchange per call (the same request
 * signed with the SDK's signer, posted with node:http, parsed with JSON.parse: scripts/bench/sdk-overhead.ts,
 * `npm run bench -- --only=sdk`). What it does per call that we have no use for is taken out: the request
 * handler (request-handler.ts), the schema serde (json-serde.ts), the per-call signer, auth scheme, user agent
 * and most of the stack (client-stack.ts), the endpoint parsing and the configuration copy (below). CPU
 * profiles of 3,000 calls each of GetItem, BatchGetItem of 3 and Query of 30 against DynamoDB Local, Node 20,
 * self time, share of the client's CPU before and after:
 *
 * | work                                                 | before          | after                         |
 * | ---------------------------------------------------- | --------------- | ----------------------------- |
 * | request handler and node:http under it               | 18.5%, 1,817 ms | 16.9%, 846 ms (bare: 854 ms)  |
 * | serializer and deserializer                          | 19.9%, 1,961 ms | 13.8%, 689 ms (JSON, as bare) |
 * | middleware stack built per call (12 entries, then 5) | 9.5%, 933 ms    | 7.8%, 390 ms                  |
 * | endpoint resolution (URL parsed, config copied)      | 4.5%, 446 ms    | 3.1%, 155 ms                  |
 * | signer provider, auth scheme, SigV4 wrapper          | 4.3%, 425 ms    | 2.4%, 120 ms                  |
 * | user agent                                           | 2.5%, 251 ms    | 0                             |
 * | garbage collection                                   | 11.8%, 1,161 ms | 13.3%, 667 ms                 |
 * | all                                                  | 9,857 ms        | 5,005 ms (bare: 2,617 ms)     |
 *
 * Client / bare per call after, medians: on Node 22 (Lambda's) 1.5-1.6x for each request (2.2-2.3x
 * before); on Node 20 1.5-1.8x for the Query, 2.2-2.5x for GetItem and BatchGetItem (3.4-3.8x before). What
 * remained was the SDK's own: lib-dynamodb's marshalling, the stack it still built per call, its retry loop.
 * The stack is now resolved once per command class, with the marshalling outside it (document-send.ts): in a
 * profile of 5,000 GetItems on Node 20, @smithy/core's self time fell from 854 to 405 ms.
 */
export function createDocumentClient(options: DocumentClientOptions = {}): DynamoDBDocumentClient {
  const { endpoint, timeouts } = options;
  const client = new DynamoDBClient({
    ...(endpoint
      ? {
          // Parsed once: the SDK parses a URL string anew on every call, twice.
          endpoint: parseEndpoint(endpoint),
          region: process.env.AWS_REGION ?? 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    // Lambda has a 10 s budget: fail fast rather than queue behind a throttled table.
    maxAttempts,
    // A timed-out attempt throws TimeoutError, which the SDK retries as a transient error.
    requestHandler: createRequestHandler(timeouts),
  });
  trimMiddleware(client);
  const translation: Translation = {
    // The top-level container and map-wrapper settings are what lib-dynamodb sets on its own.
    marshall: { removeUndefinedValues: true, convertTopLevelContainer: true },
    // A root's like sort value (keys.ts) is a number beyond 2^53: such numbers come back as NumberValue
    // (exact, written back as they were) rather than failing the read; every other number stays a number.
    unmarshall: { wrapNumbers: readNumber, convertWithoutMapWrapper: true },
  };
  const document = DynamoDBDocumentClient.from(client, {
    marshallOptions: { ...translation.marshall },
    unmarshallOptions: { ...translation.unmarshall },
  });
  // Every send hands the document client's configuration to the command's middleware, and the endpoint
  // middleware copies it whole per call. It is the client's own object: 51 keys added one by one, an accessor
  // among them, which V8 keeps as a dictionary (10 µs a copy). A copy made once is a plain object. The
  // middleware only reads it; the client's signer and retry strategy keep the original.
  const config = { ...client.config };
  Object.defineProperty(document, 'config', { value: config, writable: true, enumerable: true });
  // lib-dynamodb's commands, with the stack resolved once per command class (document-send.ts).
  const fastSend = createDocumentSend(
    { middlewareStack: client.middlewareStack, config },
    translation,
    document.send.bind(document) as never,
  );
  // A send put on the class after this module loaded (aws-sdk-client-mock's `mockClient(DynamoDBDocumentClient)`)
  // is the class's for every instance: it is honoured, as it is on a document client as the SDK builds it.
  const send = (command: unknown, options?: unknown) => {
    const classSend = DynamoDBDocumentClient.prototype.send as unknown;
    return classSend === sdkSend
      ? fastSend(command, options)
      : (classSend as (this: unknown, ...args: unknown[]) => Promise<unknown>).call(
          document,
          command,
          options,
        );
  };
  Object.defineProperty(document, 'send', { value: send, writable: true, configurable: true });
  return document;
}

/** An endpoint URL as the SDK's `Endpoint`, which it takes as it stands. */
function parseEndpoint(endpoint: string) {
  const url = new URL(endpoint);
  return {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
  };
}

/** The document client of a function: its table's endpoint (local mode only) and the request timeouts. */
export function createFunctionClient(
  config: Pick<Config, 'DYNAMODB_ENDPOINT' | 'DYNAMODB_CONNECT_TIMEOUT_MS' | 'DYNAMODB_REQUEST_TIMEOUT_MS'>,
): DynamoDBDocumentClient {
  return createDocumentClient({
    endpoint: config.DYNAMODB_ENDPOINT,
    timeouts: {
      connectMs: config.DYNAMODB_CONNECT_TIMEOUT_MS,
      requestMs: config.DYNAMODB_REQUEST_TIMEOUT_MS,
    },
  });
}
