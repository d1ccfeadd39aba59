import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue } from '@aws-sdk/lib-dynamodb';

/** A DynamoDB number as JavaScript holds it: a number when exact as one, else a NumberValue. */
function readNumber(text: string): number | NumberValue {
  const value = Number(text);
  return Number.isSafeInteger(value) || !Number.isInteger(value) ? value : NumberValue.from(text);
}

/**
 * Builds the document client the repositories share. `endpoint` is set only in local mode, where
 * DynamoDB Local accepts any credentials: fixed ones keep a developer's real AWS keys out of it.
 */
export function createDocumentClient(options: { endpoint?: string } = {}): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    ...(options.endpoint
      ? {
          endpoint: options.endpoint,
          region: process.env.AWS_REGION ?? 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    // Lambda has a 10 s budget: fail fast rather than queue behind a throttled table.
    maxAttempts: 3,
  });
  // The logger middleware builds a redacted copy of every input and output for `logger.info`, even for
  // the SDK's no-op logger: a fifth of the CPU of a 30-item Query. We configure no logger, so drop it.
  client.middlewareStack.remove('loggerMiddleware');
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
    // A root's like sort value (keys.ts) is a number beyond 2^53: such numbers come back as NumberValue
    // (exact, written back as they were) rather than failing the read; every other number stays a number.
    unmarshallOptions: { wrapNumbers: readNumber },
  });
}
