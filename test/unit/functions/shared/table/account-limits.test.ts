import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccountLimits } from '../../../../../functions/shared/table/account-limits.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);
const limits = createAccountLimits(client, 't');
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'no', $metadata: {} });

describe('createAccountLimits', () => {
  afterEach(() => ddb.reset());

  it('counts an attempt per network, action and window with ADD, and answers the count', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { attempts: 4 } });

    expect(await limits.countAttempt('reset', 'net-1', 42, 1000)).toBe(4);
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input).toEqual({
      TableName: 't',
      Key: { pk: 'IP#net-1', sk: 'RESET#42' },
      UpdateExpression: 'ADD attempts :one SET #entity = :entity, #expires = :expires',
      ExpressionAttributeNames: { '#entity': 'entity', '#expires': 'expiresAt' },
      ExpressionAttributeValues: { ':one': 1, ':entity': 'account-attempts', ':expires': 1000 },
      ReturnValues: 'UPDATED_NEW',
    });
  });

  it('takes a mail slot only below the cap, and answers false (nothing written) at the cap', async () => {
    ddb.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFailed());

    expect(await limits.takeMailSlot('addr', 'reset#D#2026-11-29', 5, 2000)).toBe(true);
    expect(await limits.takeMailSlot('addr', 'reset#D#2026-11-29', 5, 2000)).toBe(false);
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input).toMatchObject({
      Key: { pk: 'ACCOUNTMAIL#addr', sk: 'reset#D#2026-11-29' },
      ConditionExpression: 'attribute_not_exists(mails) OR mails < :max',
      ExpressionAttributeValues: { ':one': 1, ':max': 5, ':entity': 'account-mail', ':expires': 2000 },
    });
  });

  it('claims a link once with a conditional put, and lets other failures through', async () => {
    ddb.on(PutCommand).resolvesOnce({}).rejectsOnce(conditionFailed()).rejectsOnce(new Error('throttled'));

    expect(await limits.claimLink('link-hash', 5, 3000)).toBe(true);
    expect(await limits.claimLink('link-hash', 6, 3000)).toBe(false);
    await expect(limits.claimLink('link-hash', 7, 3000)).rejects.toThrow('throttled');
    expect(ddb.commandCalls(PutCommand)[0]?.args[0].input).toEqual({
      TableName: 't',
      Item: { pk: 'LINK#link-hash', sk: 'USED', entity: 'used-link', usedAt: 5, expiresAt: 3000 },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });
});
