/**
 * A yardstick of the cold-start measure (cold-start.ts): the AWS SDK alone (as sdk-alone-handler.ts) sending the
 * requests of the comment list's first answer, as the list sends them: the layout check, the page counters and the
 * two roots-index partitions side by side, then the page's threads. Its first answer over the SDK alone's is what
 * those requests cost a cold start before any code of the function's own: what the list's target leaves for the
 * rest.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../functions/shared/dynamodb-client/client.js';

const client = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
const TableName = process.env.TABLE_NAME ?? 'marginalia';

/** A keys-only page of one partition, as the list reads the roots and the threads. */
const query = (pk: string, IndexName?: string) =>
  new QueryCommand({
    TableName,
    ...(IndexName ? { IndexName } : {}),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    Limit: 10,
  });

/** Sends the list's five requests in its two waves and answers 200. */
export async function handler(): Promise<{ statusCode: number }> {
  await Promise.all([
    client.send(new GetCommand({ TableName, Key: { pk: 'SITE', sk: 'COUNTERS' } })),
    client.send(new GetCommand({ TableName, Key: { pk: 'URL#/cold', sk: 'PAGE' } })),
    client.send(query('ROOTS#/cold#PINNED', 'roots-by-time')),
    client.send(query('ROOTS#/cold', 'roots-by-time')),
  ]);
  await client.send(query('URL#/cold'));
  return { statusCode: 200 };
}
