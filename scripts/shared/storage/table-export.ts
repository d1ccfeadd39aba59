import { type DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';

/**
 * Every item of the table, page by page (1 MB each). A Scan reads the whole table: fine for the
 * offline export tool, never used by a Lambda.
 */
export async function* scanTable(
  client: DynamoDBDocumentClient,
  tableName: string,
): AsyncGenerator<Record<string, unknown>> {
  for await (const page of paginateScan({ client }, { TableName: tableName, ConsistentRead: true })) {
    yield* page.Items ?? [];
  }
}
