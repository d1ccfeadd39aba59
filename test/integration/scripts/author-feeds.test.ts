import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import type { StoredComment } from '../../../functions/shared/domain/comment.js';
import { createAddressHasher } from '../../../functions/shared/notify/address-hash.js';
import { authorFeedPut } from '../../../functions/shared/table/author-count-items.js';
import { backfillAuthorFeeds, runAuthorFeedStep } from '../../../scripts/migrate/author-feeds.js';
import { createCommentMaker, storeLegacyComments } from '../../support/legacy-comments.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const salt = 'test-salt-0123456789abcdef';
const hash = createAddressHasher(salt);
const t0 = Date.UTC(2026, 0, 10);
const comment = createCommentMaker(t0);

describe('backfilling the feed entries of stored comments, on DynamoDB Local', () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;
  /** Comments as a table written before the entries holds them: the items alone. */
  const store = (...comments: StoredComment[]) => storeLegacyComments(client, table.tableName, comments);
  /** The ids an author key's feed holds, oldest first. */
  const feed = async (authorKey: string) =>
    (
      await client.send(
        new QueryCommand({
          TableName: table.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :feed)',
          ExpressionAttributeValues: { ':pk': `AUTHOR#${authorKey}`, ':feed': 'FEED#' },
          ConsistentRead: true,
        }),
      )
    ).Items?.map((item) => ({ of: item.of, url: item.url, rid: item.rid })) ?? [];

  beforeEach(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
  });
  afterEach(() => table.drop());

  it("files every comment under its author (any status, +tag spellings as one; an account's under its address too), writes nothing on a dry run, and nothing twice", async () => {
    const root = comment();
    const reply = comment({ rid: root.id, pid: root.id, status: 'waiting', mail: 'Ann+blog@Example.com' });
    const spam = comment({ status: 'spam', url: '/b' });
    const account = comment({ userId: '01CAROL', mail: 'carol@example.com' });
    const nobody = comment({ mail: '' });
    await store(root, reply, spam, account, nobody);
    const ann = `mail:${hash('ann@example.com')}`;

    const dry = await backfillAuthorFeeds(client, table.tableName, salt, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, comments: 5, authorless: 1, put: 5, already: 0, errors: [] });
    expect(await feed(ann)).toEqual([]);

    const run = await backfillAuthorFeeds(client, table.tableName, salt, { dryRun: false });
    expect(run).toMatchObject({ put: 5, already: 0, errors: [] });
    expect(await feed(ann)).toEqual([
      { of: root.id, url: '/a', rid: undefined },
      { of: reply.id, url: '/a', rid: root.id },
      { of: spam.id, url: '/b', rid: undefined },
    ]);
    expect(await feed('user:01CAROL')).toEqual([{ of: account.id, url: '/a', rid: undefined }]);
    expect(await feed(`mail:${hash('carol@example.com')}`)).toEqual([
      { of: account.id, url: '/a', rid: undefined },
    ]);

    const rerun = await runAuthorFeedStep(client, table.tableName, salt, { dryRun: false });
    expect(rerun.complete).toBe(true);
    expect(rerun.report).toMatch(/entries put: 0/);
    expect(rerun.report).toMatch(/there already: 5/);
  });

  it('resumes where a run stopped, and without the salt files only the accounts and says so', async () => {
    const first = comment();
    const second = comment();
    const account = comment({ userId: '01DAVE' });
    await store(first, second, account);
    // A stopped run wrote one entry already, as the functions write it.
    const put = authorFeedPut(table.tableName, `mail:${hash('ann@example.com')}`, first).Put;
    await client.send(new PutCommand({ TableName: table.tableName, Item: put?.Item }));

    const saltless = await runAuthorFeedStep(client, table.tableName, undefined, { dryRun: false });
    expect(saltless.report).toMatch(/entries put: 1/);
    expect(saltless.report).toMatch(
      /3 comments of addresses left without an entry: run again with --ip-hash-salt/,
    );

    const resumed = await backfillAuthorFeeds(client, table.tableName, salt, { dryRun: false });
    expect(resumed).toMatchObject({ put: 2, already: 2 });
    expect((await feed(`mail:${hash('ann@example.com')}`)).map((entry) => entry.of)).toEqual([
      first.id,
      second.id,
      account.id,
    ]);
  });
});
