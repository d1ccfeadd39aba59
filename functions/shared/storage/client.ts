import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
