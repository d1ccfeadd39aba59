import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import type { StoredComment } from '../../../functions/shared/domain/comment.js';
import { createCommentRepository } from '../../../functions/shared/table/comment-repository.js';
import { keys } from '../../../functions/shared/table/keys.js';
import {
  migrateFirstCommentTimes,
  runFirstCommentStep,
} from '../../../scripts/migrate/first-comment-times.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const day = 86_400_000;
const t0 = Date.UTC(2026, 0, 10);

const comment = (url: string, at: number, extra: Partial<StoredComment> = {}): StoredComment => ({
  id: ulid(at),
  url,
  nick: 'Ann',
  mail: 'ann@example.com',
  link: '',
  ua: '',
  ipHash: 'ip',
  browser: '',
  os: '',
  orig: `said at ${at}`,
  html: `<p>said at ${at}</p>`,
  status: 'approved',
  like: 0,
  sticky: false,
  insertedAt: at,
  ...extra,
});

describe("setting articles' first-comment times, on DynamoDB Local", () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;

  const firstCommentAt = async (url: string) =>
    (
      await client.send(
        new GetCommand({ TableName: table.tableName, Key: keys.pageCounters(url), ConsistentRead: true }),
      )
    ).Item?.firstCommentAt as number | undefined;
  /** What a table written before this attribute holds: the page counters without it. */
  const forget = (url: string) =>
    client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.pageCounters(url),
        UpdateExpression: 'REMOVE firstCommentAt',
      }),
    );

  // Each test its own table: /a has an older waiting root, a root, a held reply and a later root; /b one spam
  // root; /c only page views; /d was commented on since the upgrade, and keeps its time.
  beforeEach(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
    const comments = createCommentRepository(client, table.tableName);
    const root = comment('/a', t0 + 5 * day);
    for (const [stored, guards] of [
      [comment('/a', t0 + 3 * day, { status: 'waiting' }), {}],
      [root, {}],
      [comment('/a', t0 + 6 * day, { pid: root.id, rid: root.id, status: 'waiting' }), {}],
      [comment('/a', t0 + 9 * day), {}],
      [comment('/b', t0 + 2 * day, { status: 'spam' }), {}],
      [comment('/d', t0 + 1 * day), {}],
    ] as const) {
      expect(await comments.insert(stored, { contentHash: stored.id, ...guards })).toEqual({ ok: true });
    }
    await forget('/a');
    await forget('/b');
    await client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...keys.pageCounters('/c'), entity: 'page', url: '/c', time: 12 },
      }),
    );
  });
  afterEach(async () => {
    client.destroy();
    await table.drop();
  });

  it("keeps the submit's time on the page counters: the first comment's, never a later one's", async () => {
    expect(await firstCommentAt('/d')).toBe(t0 + day);
    await createCommentRepository(client, table.tableName).insert(comment('/d', t0 + 3 * day), {
      contentHash: 'later',
    });

    expect(await firstCommentAt('/d')).toBe(t0 + day);
  });

  it('counts on a dry run, and writes nothing', async () => {
    const outcome = await migrateFirstCommentTimes(client, table.tableName, { dryRun: true });

    expect(outcome).toEqual({ dryRun: true, set: 1, corrected: 0, already: 1, noComment: 2, errors: [] });
    expect(await firstCommentAt('/a')).toBeUndefined();
    expect(await firstCommentAt('/b')).toBeUndefined();
  });

  it("sets each article's oldest approved comment time, and finds nothing left when run again", async () => {
    const first = await migrateFirstCommentTimes(client, table.tableName, { dryRun: false });
    const second = await runFirstCommentStep(client, table.tableName, { dryRun: false });

    expect(first).toEqual({ dryRun: false, set: 1, corrected: 0, already: 1, noComment: 2, errors: [] });
    // The waiting root of /a is older, the spam root of /b its only comment: neither dates its article.
    expect(await firstCommentAt('/a')).toBe(t0 + 5 * day);
    expect(await firstCommentAt('/b')).toBeUndefined();
    expect(await firstCommentAt('/c')).toBeUndefined();
    expect(await firstCommentAt('/d')).toBe(t0 + day);
    expect(second.complete).toBe(true);
    expect(second.report).toContain('  set: 0\n');
    expect(second.report).toContain('corrected (newer than the oldest approved comment): 0');
    expect(second.report).toContain('right already: 2');
    expect(second.report).toContain('articles without an approved comment: 2');
  });

  it('moves back the time a submit gave an old article after the upgrade, before the migration ran', async () => {
    // /d's page as the upgrade left it (no time), then a comment a month later, as a submit before `npm run
    // migrate` would: the page gets that comment's time, and the article would stay open a month too long.
    await forget('/d');
    const later = t0 + 40 * day;
    await createCommentRepository(client, table.tableName).insert(comment('/d', later), {
      contentHash: 'after-upgrade',
    });
    expect(await firstCommentAt('/d')).toBe(later);

    const dry = await migrateFirstCommentTimes(client, table.tableName, { dryRun: true });
    expect(dry).toMatchObject({ set: 1, corrected: 1, already: 0 });
    expect(await firstCommentAt('/d')).toBe(later);
    const first = await migrateFirstCommentTimes(client, table.tableName, { dryRun: false });
    const second = await migrateFirstCommentTimes(client, table.tableName, { dryRun: false });

    expect(first).toMatchObject({ set: 1, corrected: 1, already: 0, errors: [] });
    expect(await firstCommentAt('/d')).toBe(t0 + day);
    expect(second).toMatchObject({ set: 0, corrected: 0, already: 2, errors: [] });
  });

  it('replaces the newer time a submit wrote during the run with the oldest comment time', async () => {
    const newer = t0 + 30 * day;
    await createCommentRepository(client, table.tableName).insert(comment('/a', newer), {
      contentHash: 'meanwhile',
    });
    expect(await firstCommentAt('/a')).toBe(newer);
    await forget('/a');
    // The scan saw /a without a time; a submit then sets its own just before the run's write.
    const submitMeanwhile = new UpdateCommand({
      TableName: table.tableName,
      Key: keys.pageCounters('/a'),
      UpdateExpression: 'SET firstCommentAt = if_not_exists(firstCommentAt, :now)',
      ExpressionAttributeValues: { ':now': newer },
    });
    let raced = false;
    const racing = Object.create(client) as DynamoDBDocumentClient;
    racing.send = (async (command: unknown) => {
      if (!raced && command instanceof UpdateCommand) {
        raced = true;
        await client.send(submitMeanwhile);
        expect(await firstCommentAt('/a')).toBe(newer);
      }
      return client.send(command as never);
    }) as DynamoDBDocumentClient['send'];

    await migrateFirstCommentTimes(racing, table.tableName, { dryRun: false });

    expect(raced).toBe(true);
    expect(await firstCommentAt('/a')).toBe(t0 + 5 * day);
  });
});
