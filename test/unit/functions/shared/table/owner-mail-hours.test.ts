import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createOwnerMailHours } from '../../../../../functions/shared/table/owner-mail-hours.js';

const at = Date.parse('2026-11-25T17:15:00Z');
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'no', $metadata: {} });

function setUp() {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' }));
  const mock = mockClient(client);
  return { mock, hours: createOwnerMailHours(client, 't', 10) };
}

const updates = (mock: ReturnType<typeof setUp>['mock']) =>
  mock.commandCalls(UpdateCommand).map((call) => call.args[0].input);

describe('createOwnerMailHours', () => {
  it("takes a slot of the hour's cap while below it", async () => {
    const { mock, hours } = setUp();
    mock.on(UpdateCommand).resolves({});

    expect(await hours.take(at)).toBe('send');

    expect(updates(mock)).toStrictEqual([
      {
        TableName: 't',
        Key: { pk: 'OWNERMAIL', sk: 'H#2026-11-25T17' },
        UpdateExpression: 'SET #entity = :entity, #expiresAt = :expiresAt ADD #sent :one',
        ConditionExpression: 'attribute_not_exists(#sent) OR #sent < :cap',
        ExpressionAttributeNames: { '#entity': 'entity', '#expiresAt': 'expiresAt', '#sent': 'sent' },
        ExpressionAttributeValues: {
          ':entity': 'owner-mail-hour',
          ':expiresAt': Math.ceil((at + 8 * 24 * 3_600_000) / 1000),
          ':one': 1,
          ':cap': 10,
        },
      },
    ]);
  });

  it("counts the mail into the hour's digest once the cap is reached, while the digest is not claimed", async () => {
    const { mock, hours } = setUp();
    mock.on(UpdateCommand).rejectsOnce(conditionFailed()).resolves({});

    expect(await hours.take(at)).toBe('digest');

    expect(updates(mock)[1]).toMatchObject({
      Key: { pk: 'OWNERMAIL', sk: 'H#2026-11-25T17' },
      UpdateExpression: 'SET #entity = :entity, #expiresAt = :expiresAt ADD #overflow :one',
      ConditionExpression: 'attribute_not_exists(#closed)',
      ExpressionAttributeNames: { '#overflow': 'overflow', '#closed': 'closed' },
    });
  });

  it('sends the mail by itself when the cap is reached and the digest already claimed', async () => {
    const { mock, hours } = setUp();
    mock.on(UpdateCommand).rejects(conditionFailed());

    expect(await hours.take(at)).toBe('send');
    expect(updates(mock)).toHaveLength(2);
  });

  it('lists the hours of the two days before the current one whose digest is due, consistently', async () => {
    const { mock, hours } = setUp();
    mock.on(QueryCommand).resolves({ Items: [{ pk: 'OWNERMAIL', sk: 'H#2026-11-25T16', overflow: 37 }] });

    expect(await hours.pendingDigests(at)).toEqual([{ hour: '2026-11-25T16', overflow: 37 }]);

    expect(mock.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      FilterExpression:
        '#overflow > :zero AND attribute_not_exists(#sentAt) AND attribute_not_exists(#gaveUp) ' +
        'AND (attribute_not_exists(#leaseUntil) OR #leaseUntil < :now)',
      ExpressionAttributeValues: {
        ':pk': 'OWNERMAIL',
        ':from': 'H#2026-11-23T17',
        ':to': 'H#2026-11-25T16',
        ':zero': 0,
        ':now': at,
      },
    });
  });

  it('claims a digest with a lease, closing its hour, and answers the count the claim froze', async () => {
    const { mock, hours } = setUp();
    mock.on(UpdateCommand).resolves({ Attributes: { overflow: 37, attempts: 1 } });

    expect(await hours.claimDigest('2026-11-25T16', at, 120_000)).toEqual({ count: 37, attempts: 1 });

    expect(updates(mock)[0]).toMatchObject({
      Key: { pk: 'OWNERMAIL', sk: 'H#2026-11-25T16' },
      UpdateExpression: 'SET #closed = :true, #leaseUntil = :until ADD #attempts :one',
      ConditionExpression:
        '#overflow > :zero AND attribute_not_exists(#sentAt) AND attribute_not_exists(#gaveUp) ' +
        'AND (attribute_not_exists(#leaseUntil) OR #leaseUntil < :at)',
      ExpressionAttributeValues: { ':true': true, ':until': at + 120_000, ':one': 1, ':zero': 0, ':at': at },
      ReturnValues: 'ALL_NEW',
    });
  });

  it('answers no claim when another sweep holds the digest or it is done', async () => {
    const { mock, hours } = setUp();
    mock.on(UpdateCommand).rejects(conditionFailed());

    expect(await hours.claimDigest('2026-11-25T16', at, 120_000)).toBeUndefined();
  });

  it('records a digest sent, or failed (given up or not), and frees its lease', async () => {
    const { mock, hours } = setUp();
    mock.on(UpdateCommand).resolves({});

    await hours.recordDigest('2026-11-25T16', { state: 'sent' }, at);
    await hours.recordDigest('2026-11-25T16', { state: 'failed', error: 'down', gaveUp: false }, at);
    await hours.recordDigest('2026-11-25T16', { state: 'failed', error: 'refused', gaveUp: true }, at);

    expect(updates(mock).map((input) => [input.UpdateExpression, input.ExpressionAttributeValues])).toEqual([
      ['SET #sentAt = :at REMOVE #leaseUntil, #lastError', { ':at': at }],
      ['SET #lastError = :error REMOVE #leaseUntil', { ':error': 'down' }],
      ['SET #lastError = :error, #gaveUp = :true REMOVE #leaseUntil', { ':error': 'refused', ':true': true }],
    ]);
  });
});
