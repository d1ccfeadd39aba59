import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createSiteMailCaps, siteCapReason } from '../../../../../functions/shared/table/site-mail-caps.js';

const settings = { perHour: 50, perDay: 200, domainPerHour: 20 };
const at = Date.parse('2026-11-25T17:15:00Z');

function setUp() {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' }));
  const mock = mockClient(client);
  return { mock, caps: createSiteMailCaps(client, 't', settings) };
}

/** The update of one window, as the transaction must send it. */
const windowUpdate = (Key: { pk: string; sk: string }, entity: string, cap: number, expiresAt: number) => ({
  Update: {
    TableName: 't',
    Key,
    UpdateExpression: 'SET #entity = :entity, #expiresAt = :expiresAt ADD #count :one',
    ConditionExpression: 'attribute_not_exists(#count) OR #count < :cap',
    ExpressionAttributeNames: { '#entity': 'entity', '#expiresAt': 'expiresAt', '#count': 'count' },
    ExpressionAttributeValues: { ':entity': entity, ':expiresAt': expiresAt, ':one': 1, ':cap': cap },
  },
});

describe('createSiteMailCaps', () => {
  it("counts the site's hour and day and the domain's hour in one transaction, each below its cap", async () => {
    const { mock, caps } = setUp();
    mock.on(TransactWriteCommand).resolves({});

    expect(await caps.take('domainhash', at)).toBeUndefined();

    const hourExpiry = Math.ceil((at + 2 * 3_600_000) / 1000);
    expect(mock.commandCalls(TransactWriteCommand)[0]?.args[0].input).toStrictEqual({
      TransactItems: [
        windowUpdate({ pk: 'SITEMAIL', sk: 'H#2026-11-25T17' }, 'site-mail-cap', 50, hourExpiry),
        windowUpdate(
          { pk: 'SITEMAIL', sk: 'D#2026-11-25' },
          'site-mail-cap',
          200,
          Math.ceil((at + 48 * 3_600_000) / 1000),
        ),
        windowUpdate(
          { pk: 'MAILDOMAIN#domainhash', sk: 'H#2026-11-25T17' },
          'domain-mail-cap',
          20,
          hourExpiry,
        ),
      ],
    });
  });

  it.each([
    [0, 'site-hour'],
    [1, 'site-day'],
    [2, 'domain-hour'],
  ] as const)('names the full cap when the condition of window %i failed', async (index, name) => {
    const { mock, caps } = setUp();
    const reasons = [{ Code: 'None' }, { Code: 'None' }, { Code: 'None' }];
    reasons[index] = { Code: 'ConditionalCheckFailed' };
    mock.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: reasons,
      }),
    );

    expect(await caps.take('domainhash', at)).toBe(name);
  });
});

describe('siteCapReason', () => {
  it('says which cap, and its number', () => {
    expect(siteCapReason('site-hour', settings)).toBe('site cap: 50 reader mails an hour');
    expect(siteCapReason('site-day', settings)).toBe('site cap: 200 reader mails a day');
    expect(siteCapReason('domain-hour', settings)).toBe('domain cap: 20 reader mails an hour to one domain');
  });
});
