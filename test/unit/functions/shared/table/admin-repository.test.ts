import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdminRepository } from '../../../../../functions/shared/table/admin-repository.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);
const admins = () => createAdminRepository(client, 't');
const item = {
  pk: 'ADMIN#admin@example.com',
  sk: 'ADMIN',
  entity: 'admin',
  id: '01NEW',
  email: 'admin@example.com',
  displayName: 'Admin',
  passwordHash: 'scrypt$new',
  createdAt: 5,
};

describe('createAdminRepository().update', () => {
  afterEach(() => ddb.reset());

  it('sets the new hash and id, removes an emptied link, and only on the account with the id given', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: item });

    const updated = await admins().update('Admin@Example.com', '01OLD', {
      displayName: 'Admin',
      link: '',
      password: { passwordHash: 'scrypt$new', id: '01NEW' },
    });

    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: 't',
        Key: { pk: 'ADMIN#admin@example.com', sk: 'ADMIN' },
        UpdateExpression:
          'SET #displayName = :displayName, #passwordHash = :passwordHash, #id = :newId REMOVE #link',
        ConditionExpression: 'attribute_exists(pk) AND #id = :id',
        ExpressionAttributeNames: {
          '#id': 'id',
          '#displayName': 'displayName',
          '#link': 'link',
          '#passwordHash': 'passwordHash',
        },
        ExpressionAttributeValues: {
          ':id': '01OLD',
          ':displayName': 'Admin',
          ':passwordHash': 'scrypt$new',
          ':newId': '01NEW',
        },
        ReturnValues: 'ALL_NEW',
      },
    ]);
    expect(updated).toEqual({
      id: '01NEW',
      email: 'admin@example.com',
      displayName: 'Admin',
      passwordHash: 'scrypt$new',
      createdAt: 5,
    });
  });

  it('answers undefined when the condition fails: the account was removed or replaced', async () => {
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));

    expect(
      await admins().update('admin@example.com', '01OLD', { link: 'https://a.example' }),
    ).toBeUndefined();
  });

  it('reads the account instead of writing when nothing changes, and answers it only if the id still matches', async () => {
    ddb.on(GetCommand).resolves({ Item: { ...item, link: 'https://a.example' } });

    expect(await admins().update('admin@example.com', '01NEW', {})).toMatchObject({
      id: '01NEW',
      link: 'https://a.example',
    });
    expect(await admins().update('admin@example.com', '01OLD', {})).toBeUndefined();
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});
