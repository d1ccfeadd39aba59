import { randomBytes } from 'node:crypto';
import { DeleteTableCommand, type DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { createLocalDynamoDbClient, ensureTable } from '../../scripts/create-table.js';

/** A throwaway table in the run's DynamoDB Local. */
export interface TestTable {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly endpoint: string;
  /** Deletes the table and closes the client. */
  drop(): Promise<void>;
}

/** Creates a fresh table (`test-<random>`) with the real definition in the shared DynamoDB Local. */
export async function createTestTable(): Promise<TestTable> {
  const endpoint = inject('dynamoEndpoint');
  if (!endpoint) {
    throw new Error(
      'No DynamoDB Local endpoint: integration tests belong under test/integration or test/e2e.',
    );
  }
  const client = createLocalDynamoDbClient(endpoint);
  const tableName = `test-${randomBytes(8).toString('hex')}`;
  await ensureTable(client, tableName);
  return {
    client,
    tableName,
    endpoint,
    async drop() {
      try {
        await client.send(new DeleteTableCommand({ TableName: tableName }));
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      } finally {
        client.destroy();
      }
    },
  };
}
