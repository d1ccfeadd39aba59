import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { attributes, commentSkPrefix, keys } from './keys.js';

/**
 * Every comment item of the article `url`, one Query per MB. `names` limits what is read back
 * (all attributes without it); `consistent` reads what was just written (the base table allows it).
 */
export async function* queryArticleComments(
  client: DynamoDBDocumentClient,
  tableName: string,
  url: string,
  options: { names?: readonly string[]; consistent?: boolean } = {},
): AsyncGenerator<Record<string, unknown>> {
  const names = options.names ?? [];
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const output = await client.send(
      new QueryCommand({
        TableName: tableName,
        // The article partition also holds its counters and duplicate marks: comments only.
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :comments)',
        ...(names.length > 0 ? { ProjectionExpression: names.map((_, i) => `#p${i}`).join(', ') } : {}),
        ExpressionAttributeNames: {
          ...Object.fromEntries(names.map((name, i) => [`#p${i}`, name])),
          '#pk': attributes.pk,
          '#sk': attributes.sk,
        },
        ExpressionAttributeValues: { ':pk': keys.articlePartition(url), ':comments': commentSkPrefix },
        ...(options.consistent ? { ConsistentRead: true } : {}),
        ExclusiveStartKey: startKey,
      }),
    );
    yield* output.Items ?? [];
    startKey = output.LastEvaluatedKey;
  } while (startKey);
}
