import { type DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';

/**
 * Every item of one `entity` in the table, page by page: a Scan, for offline tools (the CLI, the export, a
 * migration) only, never a request's path.
 */
export async function* scanEntity(
  client: DynamoDBDocumentClient,
  tableName: string,
  entity: string,
): AsyncGenerator<Record<string, unknown>> {
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      // The filter runs after the read: the whole table is read, only the entity's items come back.
      FilterExpression: '#entity = :entity',
      ExpressionAttributeNames: { '#entity': 'entity' },
      ExpressionAttributeValues: { ':entity': entity },
    },
  );
  for await (const page of pages) yield* page.Items ?? [];
}
