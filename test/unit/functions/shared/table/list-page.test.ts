import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { UpgradeRequiredError } from '../../../../../functions/shared/domain/errors.js';
import { limits } from '../../../../../functions/shared/domain/limits.js';
import { createListPage, type PageQuery } from '../../../../../functions/shared/table/list-page.js';
import {
  byRound,
  commentItem,
  type SentCommand,
  serveCommentTable,
} from '../../../../support/fake-comment-table.js';
import { listedAttributeNames } from '../../../../support/listed-attributes.js';

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

/** The exact Query of a range of the article `/p`, reading `names` back (every listed attribute by default). */
const rangeQuery = (
  from: string,
  to: string,
  limit: number,
  names: readonly string[] = listedAttributeNames,
) => ({
  TableName: 't',
  KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
  ProjectionExpression: names.map((_, i) => `#p${i}`).join(', '),
  ExpressionAttributeNames: {
    ...Object.fromEntries(names.map((name, i) => [`#p${i}`, name])),
    '#pk': 'pk',
    '#sk': 'sk',
  },
  ExpressionAttributeValues: { ':pk': 'URL#/p', ':from': from, ':to': to },
  Limit: limit,
});
/** The listed attributes but the texts: what a read without texts asks for. */
const shellNames = listedAttributeNames.filter((name) => name !== 'orig' && name !== 'html');
/** The Queries of the base table (thread reads) of `sent`, by round: the roots index and counters left out. */
const threadReads = (sent: SentCommand[]) =>
  byRound(sent)
    .map((round) =>
      round
        .filter(({ command, input }) => command === 'Query' && input.IndexName === undefined)
        .map(({ input }) => input),
    )
    .filter((round) => round.length > 0);

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
    // DynamoDB stops a Query at 1 MB: here after 11 items, in the thread of 01A.
    const sent = serveCommentTable(ddb, [fat('/p', '01A'), fat('/p', '01B'), fat('/p', '01C'), ...replies], {
      itemsPerQuery: 11,
    });

    const page = await listPage()(query());

    // The range read (01A and 10 replies); the budget is spent, so the roots it did not reach are read
    // without their texts (the root and whether a reply follows), and nothing is read further.
    expect(threadReads(sent)).toEqual([
      [rangeQuery('C#01A', 'C#01C#\uffff', 103)],
      [
        rangeQuery('C#01C', 'C#01C#\uffff', 2, shellNames),
        rangeQuery('C#01B', 'C#01B#\uffff', 2, shellNames),
      ],
    ]);
    expect(page.threads.find((thread) => thread.root.id === '01A')).toMatchObject({ moreReplies: true });
    expect(page.threads.find((thread) => thread.root.id === '01A')?.replies).toHaveLength(10);
    expect(page.threads.find((thread) => thread.root.id === '01B')).toEqual({
      root: expect.objectContaining({ id: '01B', orig: '', html: '', textLeftOut: true }),
      replies: [],
      moreReplies: false,
    });
  });

  it('reads the texts of the roots a spent budget left, in page order, in waves sized by the largest comment read', async () => {
    // Each root's text is a fifth of the budget, and DynamoDB stops a Query here after 2 items: the span
    // reads the oldest two roots, the rest of the page is read newest first.
    const big = 'x'.repeat(limits.listReadChars / 5);
    const roots = Array.from({ length: 8 }, (_, i) => ({
      ...commentItem('/p', `01${'ABCDEFGH'[i]}`),
      orig: big,
    }));
    const sent = serveCommentTable(
      ddb,
      [...roots, { ...commentItem('/p', '01R', { rid: '01H' }), orig: 'hi' }],
      {
        itemsPerQuery: 2,
      },
    );

    const page = await listPage()(query());

    const reads = threadReads(sent).map((round) =>
      round.map((input) => [
        input.ExpressionAttributeValues[':from'],
        input.Limit,
        input.ProjectionExpression.split(', ').length,
      ]),
    );
    const full = listedAttributeNames.length;
    const shell = shellNames.length;
    expect(reads).toEqual([
      // The span, oldest first: 01A and 01B.
      [['C#01A', 108, full]],
      // Newest first, while the budget lasts: one root at a time, as a read may bring 11 comments (a root
      // and 10 replies) of the largest size read, more than is left.
      [['C#01H', 11, full]],
      [['C#01G', 11, full]],
      [['C#01F', 11, full]],
      // The budget is spent: the rest without texts, at once.
      [
        ['C#01E', 2, shell],
        ['C#01D', 2, shell],
        ['C#01C', 2, shell],
      ],
    ]);
    expect(page.threads.map((thread) => [thread.root.id, thread.root.textLeftOut ?? false])).toEqual([
      ['01H', false],
      ['01G', false],
      ['01F', false],
      ['01E', true],
      ['01D', true],
      ['01C', true],
      ['01B', false],
      ['01A', false],
    ]);
  });

  it('says a thread read without texts has replies when it has, held ones included for an administrator', async () => {
    // 01A's text alone spends the budget; DynamoDB stops each Query here after one item.
    serveCommentTable(
      ddb,
      [
        { ...commentItem('/p', '01A'), orig: 'x'.repeat(limits.listReadChars) },
        commentItem('/p', '01B'),
        commentItem('/p', '01V', { rid: '01B', status: 'waiting' }),
        commentItem('/p', '01C'),
        commentItem('/p', '01W', { rid: '01C', status: 'waiting' }),
        commentItem('/p', '01D'),
      ],
      { itemsPerQuery: 1 },
    );

    const page = await listPage()(query({ withHeld: true }));

    // The spans read 01A (stopping in its thread) and 01V; 01D and 01C, and 01B's root, are read without
    // texts: 01C's held reply is known to be there, not shown.
    expect(
      page.threads.map((thread) => [
        thread.root.id,
        thread.root.textLeftOut ?? false,
        thread.replies.map((reply) => reply.id),
        thread.moreReplies,
      ]),
    ).toEqual([
      ['01D', true, [], false],
      ['01C', true, [], true],
      ['01B', true, ['01V'], true],
      ['01A', false, [], true],
    ]);
  });

  it('reads a page sorted by likes in waves too: the first of listFirstWaveReads threads, then as the budget holds', async () => {
    const big = 'x'.repeat(limits.listReadChars / 4);
    const items = Array.from({ length: 12 }, (_, i) => ({
      ...commentItem('/p', `01${String.fromCharCode(65 + i)}`, { like: 100 - i }),
      orig: big,
    }));
    const sent = serveCommentTable(ddb, items);

    const page = await listPage()(query({ sortBy: 'like_desc', pageSize: 12 }));

    const rounds = threadReads(sent).map((round) => round.map((input) => input.Limit));
    // Ten at once (nothing read yet to judge by), then the budget is spent: the other two without texts.
    expect(rounds).toEqual([Array(limits.listFirstWaveReads).fill(9), [2, 2]]);
    expect(page.threads.filter((thread) => thread.root.textLeftOut)).toHaveLength(2);
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

  it("reads a time-sorted page's threads with one range Query, from its oldest root's thread to its newest's", async () => {
    const items = [
      commentItem('/p', '01A'),
      commentItem('/p', '01B'),
      commentItem('/p', '01C'),
      commentItem('/p', '01D', { rid: '01A' }),
      commentItem('/p', '01E', { rid: '01C' }),
      commentItem('/p', '01F', { rid: '01A', pid: '01D' }),
    ];

    for (const sortBy of ['insertedAt_desc', 'insertedAt_asc'] as const) {
      ddb.reset();
      const sent = serveCommentTable(ddb, items);

      const page = await listPage()(query({ sortBy }));

      const newestFirst = [
        ['01C', ['01E']],
        ['01B', []],
        ['01A', ['01D', '01F']],
      ];
      expect(threadIds(page)).toEqual(sortBy === 'insertedAt_desc' ? newestFirst : newestFirst.reverse());
      expect(page.threads.map((thread) => thread.moreReplies)).toEqual([false, false, false]);
      // Its roots and the first read's 100 replies, in one request: the counters, two roots-index
      // partitions, then this Query.
      expect(threadReads(sent)).toEqual([
        [rangeQuery('C#01A', 'C#01C#\uffff', 3 + limits.listFirstReadReplies)],
      ]);
      expect(byRound(sent).map((round) => round.map(({ command }) => command))).toEqual([
        ['GetItem', 'Query', 'Query'],
        ['Query'],
      ]);
    }
  });

  it('goes on in its own range with the thread the range Query stopped in, and reads the roots it did not reach on their own', async () => {
    const replies = ['01AA', '01AB', '01AC', '01AD'];
    // DynamoDB stops a Query at 1 MB: here after 3 items, in the thread of 01A.
    const sent = serveCommentTable(
      ddb,
      [
        commentItem('/p', '01A'),
        ...replies.map((id) => commentItem('/p', id, { rid: '01A' })),
        commentItem('/p', '01B'),
        commentItem('/p', '01BA', { rid: '01B' }),
        commentItem('/p', '01C'),
      ],
      { itemsPerQuery: 3 },
    );

    const page = await listPage()(query());

    expect(threadIds(page)).toEqual([
      ['01C', []],
      ['01B', ['01BA']],
      ['01A', replies],
    ]);
    expect(page.threads.map((thread) => thread.moreReplies)).toEqual([false, false, false]);
    expect(threadReads(sent)).toEqual([
      [rangeQuery('C#01A', 'C#01C#\uffff', 103)],
      // The roots past where it stopped, side by side, each with its share of replies.
      [rangeQuery('C#01C', 'C#01C#\uffff', 11), rangeQuery('C#01B', 'C#01B#\uffff', 11)],
      // 01A from the last key read, within its thread: up to 200 replies in all, 2 of them read.
      [
        {
          ...rangeQuery('C#01A', 'C#01A#\uffff', limits.repliesPerThread + 1 - 3),
          ExclusiveStartKey: { pk: 'URL#/p', sk: 'C#01A#01AB' },
        },
      ],
    ]);
  });

  it('keeps out of the page the roots its range holds that are not on it, and reads a pinned root outside the range alone', async () => {
    // Newest first: the pinned 01B, then 01I, 01G | 01E, 01C, 01A. 01D is waiting, with a reply approved
    // before it was held.
    const sent = serveCommentTable(ddb, [
      commentItem('/p', '01A'),
      commentItem('/p', '01B', { sticky: true }),
      commentItem('/p', '01BA', { rid: '01B' }),
      commentItem('/p', '01C'),
      commentItem('/p', '01D', { status: 'waiting' }),
      commentItem('/p', '01DA', { rid: '01D' }),
      commentItem('/p', '01E'),
      commentItem('/p', '01G'),
      commentItem('/p', '01I'),
    ]);

    const first = await listPage()(query({ pageSize: 3 }));
    const firstReads = threadReads(sent);
    sent.length = 0;
    const second = await listPage()(query({ pageSize: 3, page: 2 }));

    expect(threadIds(first)).toEqual([
      ['01B', ['01BA']],
      ['01I', []],
      ['01G', []],
    ]);
    // The pinned root is years older, say, than the page's others: not in their range, but beside it.
    expect(firstReads).toEqual([
      [rangeQuery('C#01B', 'C#01B#\uffff', 34), rangeQuery('C#01G', 'C#01I#\uffff', 102)],
    ]);
    expect(threadIds(second)).toEqual([
      ['01E', []],
      ['01C', []],
      ['01A', []],
    ]);
    expect(threadReads(sent)).toEqual([[rangeQuery('C#01A', 'C#01E#\uffff', 103)]]);
  });

  it('reads the threads of a page sorted by likes with one Query each, side by side: its roots are scattered', async () => {
    const sent = serveCommentTable(ddb, [
      commentItem('/p', '01A', { like: 3 }),
      commentItem('/p', '01B'),
      commentItem('/p', '01C', { like: 1 }),
      commentItem('/p', '01D', { rid: '01A' }),
    ]);

    const page = await listPage()(query({ sortBy: 'like_desc' }));

    expect(threadIds(page)).toEqual([
      ['01A', ['01D']],
      ['01C', []],
      ['01B', []],
    ]);
    expect(threadReads(sent)).toEqual([
      ['01A', '01C', '01B'].map((id) => rangeQuery(`C#${id}`, `C#${id}#\uffff`, 11)),
    ]);
  });

  it("reads an administrator's held replies with a range Query beside the visible one, each going on where it stopped", async () => {
    // DynamoDB stops a Query at 1 MB: here after 2 items, in the thread of 01A in both ranges.
    const sent = serveCommentTable(
      ddb,
      [
        commentItem('/p', '01A'),
        commentItem('/p', '01B', { rid: '01A' }),
        commentItem('/p', '01D', { rid: '01A', status: 'waiting' }),
        commentItem('/p', '01E', { rid: '01A', pid: '01B', status: 'spam' }),
        commentItem('/p', '01F', { rid: '01A', status: 'waiting' }),
        commentItem('/p', '01C', { status: 'waiting' }),
        commentItem('/p', '01G', { rid: '01C', status: 'waiting' }),
      ],
      { itemsPerQuery: 2 },
    );

    const page = await listPage()(query({ withHeld: true, consistent: true }));

    // Approved and held replies together, oldest first.
    expect(threadIds(page)).toEqual([
      ['01C', ['01G']],
      ['01A', ['01B', '01D', '01E', '01F']],
    ]);
    const consistently = (input: object) => ({ ...input, ConsistentRead: true });
    expect(threadReads(sent)).toEqual(
      [
        [rangeQuery('C#01A', 'C#01C#\uffff', 102), rangeQuery('H#01A#', 'H#01C#\uffff', 100)],
        [rangeQuery('C#01C', 'C#01C#\uffff', 11), rangeQuery('H#01C#', 'H#01C#\uffff', 10)],
        [
          {
            ...rangeQuery('C#01A', 'C#01A#\uffff', 199),
            ExclusiveStartKey: { pk: 'URL#/p', sk: 'C#01A#01B' },
          },
        ],
        [
          {
            ...rangeQuery('H#01A#', 'H#01A#\uffff', 198),
            ExclusiveStartKey: { pk: 'URL#/p', sk: 'H#01A#01E' },
          },
        ],
      ].map((round) => round.map(consistently)),
    );
  });
});
