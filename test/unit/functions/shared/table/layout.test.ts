import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { UpgradeRequiredError } from '../../../../../functions/shared/domain/errors.js';
import { createLayoutCheck } from '../../../../../functions/shared/table/layout.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);

/** The one read a layout check makes: the layout attribute of the site item. */
const siteRead = {
  TableName: 't',
  Key: { pk: 'SITE', sk: 'SITE' },
  ProjectionExpression: '#p0',
  ExpressionAttributeNames: { '#p0': 'layout' },
};
const reads = () => ddb.commandCalls(GetCommand).map((call) => call.args[0].input);

describe('createLayoutCheck', () => {
  afterEach(() => ddb.reset());

  it('passes a table with no site item, a new one, and remembers it', async () => {
    ddb.on(GetCommand).resolves({});
    const check = createLayoutCheck(client, 't');

    await expect(check()).resolves.toBeUndefined();
    await expect(check()).resolves.toBeUndefined();
    expect(reads()).toEqual([siteRead]);
  });

  it('passes a table of layout 3 with one GetItem for every check of the instance', async () => {
    ddb.on(GetCommand).resolves({ Item: { layout: 3 } });
    const check = createLayoutCheck(client, 't');

    await Promise.all([check(), check()]);
    await check();
    expect(reads()).toEqual([siteRead]);
  });

  it('throws UpgradeRequiredError for a site item without a layout, and reads again at the next check', async () => {
    ddb.on(GetCommand).resolves({ Item: { comments: 3 } });
    const check = createLayoutCheck(client, 't');

    const error = await check().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UpgradeRequiredError);
    expect((error as UpgradeRequiredError).storedLayout).toBeUndefined();
    expect((error as Error).message).toContain('npm run migrate');
    await expect(check()).rejects.toBeInstanceOf(UpgradeRequiredError);
    expect(reads()).toHaveLength(2);
  });

  it('throws UpgradeRequiredError for layout 1, and passes once the table has been migrated', async () => {
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: { layout: 1 } })
      .resolves({ Item: { layout: 3 } });
    const check = createLayoutCheck(client, 't');

    await expect(check()).rejects.toMatchObject({ name: 'UpgradeRequiredError', storedLayout: 1 });
    await expect(check()).resolves.toBeUndefined();
    await check();
    expect(reads()).toHaveLength(2);
  });

  it('reads again after a failed read rather than remembering the failure', async () => {
    ddb
      .on(GetCommand)
      .rejectsOnce(new Error('throttled'))
      .resolves({ Item: { layout: 3 } });
    const check = createLayoutCheck(client, 't');

    await expect(check()).rejects.toThrow('throttled');
    await expect(check()).resolves.toBeUndefined();
    expect(reads()).toHaveLength(2);
  });
});
