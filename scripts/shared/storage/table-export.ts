import { type DynamoDBDocumentClient, ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';

/**
 * Every item of the table, page by page (1 MB each). A Scan reads the whole table: fine for the
 * offline export tool, never used by a Lambda.
 */
export async function* scanTable(
  client: DynamoDBDocumentClient,
  tableName: string,
): AsyncGenerator<Record<string, unknown>> {
  let startKey: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const output = await client.send(
      new ScanCommand({ TableName: tableName, ExclusiveStartKey: startKey, ConsistentRead: true }),
    );
    yield* output.Items ?? [];
    startKey = output.LastEvaluatedKey;
  } while (startKey);
}
