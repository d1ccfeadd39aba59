/**
 * The reference of the cold-start measure: a Lambda handler that does nothing but one BatchGetItem
 * through the document client the functions use (functions/shared/dynamodb-client/client.ts), bundled the same
 * way. Its first answer is the least any function built on the AWS SDK can reach on the machine.
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../functions/shared/dynamodb-client/client.js';

const client = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
const tableName = process.env.TABLE_NAME ?? 'marginalia';

/** Reads one page counter and answers 200. */
export async function handler(): Promise<{ statusCode: number }> {
  await client.send(
    new BatchGetCommand({ RequestItems: { [tableName]: { Keys: [{ pk: 'URL#/a', sk: 'PAGE' }] } } }),
  );
  return { statusCode: 200 };
}
