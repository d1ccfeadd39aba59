import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config.js';
import { addOwnAttributeNames } from './own-attribute-names.js';

/** How long one DynamoDB request may take, in milliseconds. */
export interface RequestTimeouts {
  /** To open the connection. */
  readonly connectMs: number;
  /** From the request's start to the answer's headers, connection included. */
  readonly requestMs: number;
}

/** Options of {@link createDocumentClient}. */
export interface DocumentClientOptions {
  /** DynamoDB Local's address; unset on AWS. */
  readonly endpoint?: string;
  /**
   * Timeouts of each attempt; none when unset (a stalled request waits on its socket). The functions set them;
   * the CLIs, which may send megabytes per request from a slow uplink, do not.
   */
  readonly timeouts?: RequestTimeouts;
}

/** Attempts per request: the first and two retries, each within the timeouts. */
const maxAttempts = 3;

/** A DynamoDB number as JavaScript holds it: a number when exact as one, else a NumberValue. */
function readNumber(text: string): number | NumberValue {
  const value = Number(text);
  return Number.isSafeInteger(value) || !Number.isInteger(value) ? value : NumberValue.from(text);
}

/**
 * Builds the document client the repositories share: the SDK's DynamoDBClient and lib-dynamodb's document client,
 * configured through their documented options only (README.md in this folder says why and how to upgrade).
 *
 * `endpoint` is set only in local mode, where DynamoDB Local accepts any credentials: fixed ones keep a developer's
 * real AWS keys out of it.
 */
export function createDocumentClient(options: DocumentClientOptions = {}): DynamoDBDocumentClient {
  const { endpoint, timeouts } = options;
  const client = new DynamoDBClient({
    ...(endpoint
      ? {
          endpoint,
          region: process.env.AWS_REGION ?? 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    // Lambda has a 10 s budget: fail fast rather than queue behind a throttled table.
    maxAttempts,
    // The NodeHttpHandler's documented options (agents as their constructor options). Keep-alive spares a TLS
    // handshake per call. With the timeouts, a
    // stalled attempt fails with a TimeoutError, which the SDK retries as a transient error.
    requestHandler: {
      httpAgent: { keepAlive: true, maxSockets: 50 },
      httpsAgent: { keepAlive: true, maxSockets: 50 },
      ...(timeouts
        ? {
            connectionTimeout: timeouts.connectMs,
            requestTimeout: timeouts.requestMs,
            throwOnRequestTimeout: true,
          }
        : {}),
    },
  });
  // The logger middleware copies every answer for a logger nobody set.
  client.middlewareStack.remove('loggerMiddleware');
  addOwnAttributeNames(client.middlewareStack);
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
    // A root's like sort value (keys.ts) is a number beyond 2^53: such numbers come back as NumberValue (exact,
    // written back as they were) rather than failing the read; every other number stays a number.
    unmarshallOptions: { wrapNumbers: readNumber },
  });
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
