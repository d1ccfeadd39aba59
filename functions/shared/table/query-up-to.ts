import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';

/**
 * Up to `count` items of the Query `input` (every item without `count`), page after page. Each page asks
 * for what is still wanted (its `Limit`), so no page reads past `count`: lib-dynamodb's `paginateQuery`
 * asks every page for the same `Limit`, which would read (and bill) a whole `count` again on a second page.
 */
export async function queryUpTo(
  client: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>,
  count?: number,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const output = await client.send(
      new QueryCommand({
        ...input,
        ExclusiveStartKey: startKey,
        ...(count === undefined ? {} : { Limit: count - items.length }),
      }),
    );
    items.push(...(output.Items ?? []));
    startKey = output.LastEvaluatedKey;
  } while (startKey && (count === undefined || items.length < count));
  return items;
}
