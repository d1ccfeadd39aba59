import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { UpgradeRequiredError } from '../../../../../functions/shared/domain/errors.js';
import { limits } from '../../../../../functions/shared/domain/limits.js';
import { createListPage, type PageQuery } from '../../../../../functions/shared/storage/list-page.js';
import { byRound, commentItem, serveCommentTable } from '../../../../support/fake-comment-table.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);
const listPage = () => createListPage(client, 't');

const query = (extra: Partial<PageQuery> = {}): PageQuery => ({
  url: '/p',
  page: 1,
  pageSize: 10,
  sortBy: 'insertedAt_desc',
  withHeld: false,
  ...extra,
});
const threadIds = (page: {
  threads: readonly { root: { id: string }; replies: readonly { id: string }[] }[];
}) => page.threads.map((thread) => [thread.root.id, thread.replies.map((reply) => reply.id)]);

describe('createListPage', () => {
  afterEach(() => ddb.reset());

  it('reads the like index backwards, with its keys, and puts the newer of equal roots first, when sorting by like_desc', async () => {
    // The like key (zero-padded count, then id) orders ties itself, whatever order the items came in.
    const sent = serveCommentTable(ddb, [
      commentItem('/p', '01C', { like: 2 }),
      commentItem('/p', '01B', { like: 7 }),
      commentItem('/p', '01A', { like: 2 }),
    ]);

    const page = await listPage()(query({ sortBy: 'like_desc' }));

    expect(threadIds(page)).toEqual([
      ['01B', []],
      ['01C', []],
      ['01A', []],
    ]);
    expect(
      sent.find(({ input }) => input.ExpressionAttributeValues?.[':partition'] === 'R#approved#flow#/p')
        ?.input,
    ).toEqual({
      TableName: 't',
      IndexName: 'roots-by-like',
      KeyConditionExpression: '#roots = :partition',
      ProjectionExpression: '#p0, #p1',
      ExpressionAttributeNames: { '#roots': 'rootsPk', '#p0': 'sk', '#p1': 'likeSort' },
      ExpressionAttributeValues: { ':partition': 'R#approved#flow#/p' },
      ScanIndexForward: false,
      Limit: 10,
    });
  });

  it('reads the time index forwards when sorting by insertedAt_asc', async () => {
    const sent = serveCommentTable(ddb, [commentItem('/p', '01B'), commentItem('/p', '01A')]);

    const page = await listPage()(query({ sortBy: 'insertedAt_asc' }));

    expect(threadIds(page)).toEqual([
      ['01A', []],
      ['01B', []],
    ]);
    const indexQueries = sent.filter(({ input }) => input.IndexName !== undefined);
    expect(indexQueries.map(({ input }) => [input.IndexName, input.ScanIndexForward])).toEqual([
      ['roots-by-time', true],
      ['roots-by-time', true],
    ]);
  });

  it('reads the counters and the threads consistently when asked, the roots index (a GSI) as it can', async () => {
    const sent = serveCommentTable(ddb, [commentItem('/p', '01A')]);

    await listPage()(query({ consistent: true, withHeld: true }));

    expect(
      sent.map(({ input }) => [
        input.IndexName ?? input.Key?.sk ?? input.ExpressionAttributeValues[':from'],
        input.ConsistentRead,
      ]),
    ).toEqual([
      ['PAGE', true],
      ...Array.from({ length: 6 }, () => ['roots-by-time', undefined]),
      ['C#01A', true],
      ['H#01A#', true],
    ]);
  });

  it('counts held comments and roots for an administrator only', async () => {
    const items = [
      { pk: 'URL#/p', sk: 'PAGE', comments: 4, roots: 3, held: 2, heldRoots: 1 },
      commentItem('/p', '01A'),
    ];
    serveCommentTable(ddb, items);

    const visitor = await listPage()(query());
    const admin = await listPage()(query({ withHeld: true }));

    expect([visitor.comments, visitor.roots]).toEqual([4, 3]);
    expect([admin.comments, admin.roots]).toEqual([6, 4]);
  });

  it("leaves out of a visitor's page a root the index still lists as approved but that was held meanwhile", async () => {
    serveCommentTable(ddb, [commentItem('/p', '01A'), { ...commentItem('/p', '01B'), status: 'waiting' }]);

    expect(threadIds(await listPage()(query()))).toEqual([['01A', []]]);
  });

  it('reads at most repliesPerThread replies of a thread and says there are more', async () => {
    const replies = Array.from({ length: limits.repliesPerThread + 1 }, (_, i) =>
      commentItem('/p', `01R${String(i).padStart(3, '0')}`, { rid: '01A' }),
    );
    serveCommentTable(ddb, [commentItem('/p', '01A'), ...replies]);

    const [thread] = (await listPage()(query())).threads;

    expect(thread?.replies).toHaveLength(limits.repliesPerThread);
    expect(thread?.replies.at(-1)?.id).toBe(`01R${String(limits.repliesPerThread - 1).padStart(3, '0')}`);
    expect(thread?.moreReplies).toBe(true);
  });

  it('says there are no more replies when the thread was read to its end', async () => {
    serveCommentTable(ddb, [commentItem('/p', '01A'), commentItem('/p', '01B', { rid: '01A' })]);

    const [thread] = (await listPage()(query())).threads;

    expect(thread?.moreReplies).toBe(false);
  });

  it('reads no thread further once the page has read what one answer can carry', async () => {
    // Three roots of 2 MB-ish text each: past listReadChars after the first read of the page.
    const big = 'x'.repeat(limits.listReadChars / 3 + 1);
    const fat = (url: string, id: string, extra = {}) => ({ ...commentItem(url, id, extra), orig: big });
    const replies = Array.from({ length: 30 }, (_, i) =>
      fat('/p', `01R${String(i).padStart(2, '0')}`, { rid: '01A' }),
    );
    const sent = serveCommentTable(ddb, [fat('/p', '01A'), fat('/p', '01B'), fat('/p', '01C'), ...replies]);

    const page = await listPage()(query());

    // The first read of each thread (root and up to 10 replies), and nothing after it.
    expect(sent.filter(({ input }) => input.ExpressionAttributeValues?.[':from'] === 'C#01A')).toHaveLength(
      1,
    );
    expect(page.threads.find((thread) => thread.root.id === '01A')).toMatchObject({ moreReplies: true });
    expect(page.threads.find((thread) => thread.root.id === '01A')?.replies).toHaveLength(10);
  });

  it('reads a page far past the end as its counters alone, and no root key', async () => {
    const sent = serveCommentTable(ddb, [
      { pk: 'URL#/p', sk: 'PAGE', comments: 3, roots: 3 },
      commentItem('/p', '01A'),
    ]);

    const page = await listPage()(query({ page: 1000, pageSize: 10 }));

    expect(page.threads).toEqual([]);
    expect(sent.map(({ command, input }) => [command, input.IndexName ?? input.Key?.sk])).toEqual([
      ['GetItem', 'PAGE'],
    ]);
  });

  it('answers the layout check rather than an index error when the table is of the previous layout', async () => {
    serveCommentTable(ddb, []);
    ddb
      .on(QueryCommand)
      .rejects(new Error('ValidationException: The table does not have the specified index'));

    await expect(
      createListPage(client, 't', async () => {
        throw new UpgradeRequiredError(undefined);
      })(query()),
    ).rejects.toBeInstanceOf(UpgradeRequiredError);
  });

  it('shows no thread whose root is gone, whatever reply its range now starts with', async () => {
    // The index still lists 01A; the root item was deleted, a reply of it remains for a moment.
    const orphan = commentItem('/p', '01B', { rid: '01A' });
    serveCommentTable(ddb, [
      { ...commentItem('/p', '01A'), pk: 'URL#elsewhere' },
      orphan,
      commentItem('/p', '01C'),
    ]);

    expect(threadIds(await listPage()(query()))).toEqual([['01C', []]]);
  });

  it('runs the layout check once for a page, whose reads take two rounds', async () => {
    const sent = serveCommentTable(ddb, [commentItem('/p', '01A')]);
    let checks = 0;

    await createListPage(client, 't', async () => {
      checks++;
    })(query());

    expect(checks).toBe(1);
    expect(byRound(sent).map((round) => round.length)).toEqual([3, 1]);
  });
});
