import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { scanTable } from '../../scripts/shared/storage/table-export.js';

/**
 * Turns a table of this layout back into what 0.2 (item layout 2) wrote: every comment carries the
 * `recent` index keys of its status (`recentPk` = `STATUS#<status>`, `recentSk` = its id) and none of
 * layout 3's card-index keys nor `textBytes`; the site item says layout 2. Everything else of layout 2
 * (replies under their root, the roots indexes' attributes) is as layout 3 keeps it.
 */
export async function rewriteAsLayout2(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  for await (const item of scanTable(client, tableName)) {
    if (item.entity === 'comment') {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression:
            'SET recentPk = :partition, recentSk = commentId REMOVE approvedPk, approvedSk, heldPk, heldSk, textBytes',
          ExpressionAttributeValues: { ':partition': `STATUS#${String(item.status ?? 'approved')}` },
        }),
      );
    }
  }
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { pk: 'SITE', sk: 'SITE' },
      UpdateExpression: 'SET #layout = :two',
      ExpressionAttributeNames: { '#layout': 'layout' },
      ExpressionAttributeValues: { ':two': 2 },
    }),
  );
}
