import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createCaptchaTokenClaimer } from '../../../../../functions/shared/table/captcha-tokens.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);
const claim = createCaptchaTokenClaimer(client, 't');
const at = Date.UTC(2026, 10, 29, 9, 0, 0, 500);

describe('createCaptchaTokenClaimer', () => {
  afterEach(() => ddb.reset());

  it('puts the mark of the token only where none is, expiring an hour later', async () => {
    ddb.on(PutCommand).resolves({});

    expect(await claim('hash-1', at)).toBe(true);
    expect(ddb.commandCalls(PutCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: 't',
        Item: {
          pk: 'CAPTCHA#hash-1',
          sk: 'USED',
          entity: 'captcha-token',
          usedAt: at,
          expiresAt: Math.ceil((at + 3_600_000) / 1000),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    ]);
  });

  it('answers false when the mark exists: the token was used before', async () => {
    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));

    expect(await claim('hash-1', at)).toBe(false);
  });

  it('lets any other failure through, for the request to fail rather than pass the token', async () => {
    ddb.on(PutCommand).rejects(new Error('throttled'));

    await expect(claim('hash-1', at)).rejects.toThrow('throttled');
  });
});
