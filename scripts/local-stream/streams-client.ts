/** The DynamoDB Streams client of a local endpoint, as scripts/create-table.ts makes the DynamoDB one. */
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';

/** A streams client for DynamoDB Local at `endpoint`: region from AWS_REGION (else us-east-1), dummy credentials. */
export function createLocalStreamsClient(endpoint: string): DynamoDBStreamsClient {
  return new DynamoDBStreamsClient({
    endpoint,
    region: process.env.AWS_REGION || 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}
