import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createImportRepository } from '../../../../../scripts/shared/storage/import-repository.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(client);
const key = { pk: 'COMMENT#/p/', sk: 'ROOT#01C' };

describe('linkAuthor', () => {
  afterEach(() => mock.reset());

  it('sets userId only on a comment still there that names no author', async () => {
    mock.on(UpdateCommand).resolves({});

    const linked = await createImportRepository(client, 't').linkAuthor(key, '01ACCOUNT');

    expect(linked).toBe(true);
    expect(mock.commandCalls(UpdateCommand)[0]?.args[0].input).toEqual({
      TableName: 't',
      Key: key,
      UpdateExpression: 'SET #userId = :userId',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#userId)',
      ExpressionAttributeNames: { '#userId': 'userId' },
      ExpressionAttributeValues: { ':userId': '01ACCOUNT' },
    });
  });

  it('writes nothing and says so when the comment is gone or names an author already', async () => {
    mock.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));

    expect(await createImportRepository(client, 't').linkAuthor(key, '01ACCOUNT')).toBe(false);
  });
});
