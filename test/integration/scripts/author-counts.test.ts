import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import type { StoredComment } from '../../../functions/shared/domain/comment.js';
import { createAddressHasher } from '../../../functions/shared/notify/address-hash.js';
import { createAuthorCounts } from '../../../functions/shared/table/author-counts.js';
import { keys } from '../../../functions/shared/table/keys.js';
import { recountAuthors, runAuthorCountStep } from '../../../scripts/migrate/author-counts.js';
import { createCommentMaker, storeLegacyComments } from '../../support/legacy-comments.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const salt = 'test-salt-0123456789abcdef';
const hash = createAddressHasher(salt);
const t0 = Date.UTC(2026, 0, 10);
const comment = createCommentMaker(t0);

describe('recounting the author counters, on DynamoDB Local', () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;
  /** Comments as a table written before the counters holds them: the items alone, no counter moved. */
  const store = (...comments: StoredComment[]) => storeLegacyComments(client, table.tableName, comments);
  const counter = async (authorKey: string) =>
    (
      await client.send(
        new GetCommand({
          TableName: table.tableName,
          Key: keys.authorCount(authorKey),
          ConsistentRead: true,
        }),
      )
    ).Item;

  beforeEach(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
  });
  afterEach(() => table.drop());

  it('sets each author counter and wall place from the approved comments, and a rerun writes nothing', async () => {
    await store(
      comment(),
      comment({ mail: 'Ann@Example.com', nick: 'Ann (newest)' }),
      comment({ status: 'waiting' }),
      comment({ status: 'spam' }),
      comment({ mail: 'bob@example.com', nick: 'Bob' }),
      comment({ userId: '01CAROL', mail: 'carol@example.com', nick: 'Carol' }),
      comment({ mail: '', nick: 'Nobody' }),
    );
    // A counter gone wrong (say, an approval between a scan and its write) is corrected, not added to.
    await client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...keys.authorCount(`mail:${hash('bob@example.com')}`),
          entity: 'author-count',
          authorKey: `mail:${hash('bob@example.com')}`,
          approved: 7,
          likeSort: 7,
          rootsPk: 'WALL',
        },
      }),
    );

    const dry = await recountAuthors(client, table.tableName, salt, { dryRun: true, env: {} });
    expect(dry).toMatchObject({ approvedComments: 5, uncounted: 1, set: 3, already: 0, errors: [] });
    expect(await counter(`mail:${hash('ann@example.com')}`)).toBeUndefined();

    const run = await recountAuthors(client, table.tableName, salt, { dryRun: false, env: {} });
    expect(run).toMatchObject({ set: 3, already: 0, errors: [] });
    expect(await counter(`mail:${hash('ann@example.com')}`)).toMatchObject({
      approved: 2,
      likeSort: 2,
      rootsPk: 'WALL',
      nick: 'Ann (newest)',
      avatar: expect.stringMatching(/^https:\/\/seccdn\.libravatar\.org\/avatar\//),
    });
    expect(await counter(`mail:${hash('bob@example.com')}`)).toMatchObject({ approved: 1, likeSort: 1 });
    expect(await counter('user:01CAROL')).toMatchObject({ approved: 1, likeSort: 1 });
    expect(await counter('user:01CAROL')).not.toHaveProperty('nick');

    // What the functions read: the wall, most first.
    const wall = await createAuthorCounts(client, table.tableName).wall(10);
    expect(wall.map(({ authorKey, count }) => [authorKey, count])).toEqual([
      [`mail:${hash('ann@example.com')}`, 2],
      expect.arrayContaining([1]),
      expect.arrayContaining([1]),
    ]);

    expect(await recountAuthors(client, table.tableName, salt, { dryRun: false, env: {} })).toMatchObject({
      set: 0,
      already: 3,
    });
  });

  it('sets a counter whose author has no approved comment left to 0, off the wall', async () => {
    await store(comment({ userId: '01GONE', status: 'spam' }));
    await client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...keys.authorCount('user:01GONE'),
          entity: 'author-count',
          authorKey: 'user:01GONE',
          approved: 4,
          likeSort: 4,
          rootsPk: 'WALL',
        },
      }),
    );
    await recountAuthors(client, table.tableName, salt, { dryRun: false, env: {} });
    expect(await counter('user:01GONE')).toMatchObject({ approved: 0, likeSort: 0 });
    expect(await createAuthorCounts(client, table.tableName).wall(10)).toEqual([]);
  });

  it('counts accounts only without the salt, and says the addresses need it', async () => {
    await store(comment(), comment({ userId: '01CAROL' }));
    const step = await runAuthorCountStep(client, table.tableName, undefined, { dryRun: false });
    expect(step.complete).toBe(true);
    expect(step.report).toMatch(
      /1 approved comments of addresses left uncounted: run again with --ip-hash-salt/,
    );
    expect(await counter('user:01CAROL')).toMatchObject({ approved: 1 });
    expect(await counter(`mail:${hash('ann@example.com')}`)).toBeUndefined();
  });
});
