import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSsoAssertionClaimer,
  usedSsoAssertionHash,
} from '../../../../../functions/shared/table/sso-assertions.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);
const claim = createSsoAssertionClaimer(client, 't');
const at = Date.UTC(2026, 10, 29, 9, 0, 0, 500);

describe('createSsoAssertionClaimer', () => {
  afterEach(() => ddb.reset());

  it("puts the mark of (issuer, jti) only where none is, kept until the assertion's own end", async () => {
    ddb.on(PutCommand).resolves({});

    expect(await claim('sso:https://comments.example.com', 'jti-1', at, 1_800_000_180)).toBe(true);
    const hash = createHash('sha256')
      .update(JSON.stringify(['sso:https://comments.example.com', 'jti-1']))
      .digest('base64url');
    expect(ddb.commandCalls(PutCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: 't',
        Item: {
          pk: `SSO#${hash}`,
          sk: 'USED',
          entity: 'used-sso-assertion',
          usedAt: at,
          expiresAt: 1_800_000_180,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    ]);
  });

  it('answers false when the mark exists: the assertion was exchanged before', async () => {
    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));

    expect(await claim('sso:a', 'jti-1', at, 1)).toBe(false);
  });

  it('lets any other failure through, for the exchange to fail rather than take the assertion twice', async () => {
    ddb.on(PutCommand).rejects(new Error('throttled'));

    await expect(claim('sso:a', 'jti-1', at, 1)).rejects.toThrow('throttled');
  });

  it('keeps two issuers with the same jti apart, and no jti can pass for another by its separators', () => {
    expect(usedSsoAssertionHash('sso:a', 'x')).not.toBe(usedSsoAssertionHash('oidc:a', 'x'));
    expect(usedSsoAssertionHash('sso:a', 'b#c')).not.toBe(usedSsoAssertionHash('sso:a#b', 'c'));
  });
});
