import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredComment } from '../../../../../functions/shared/domain/comment.js';
import { UpgradeRequiredError } from '../../../../../functions/shared/domain/errors.js';
import { limits } from '../../../../../functions/shared/domain/limits.js';
import {
  createCommentRepository,
  type PageQuery,
} from '../../../../../functions/shared/storage/comment-repository.js';
import { byRound, commentItem, serveCommentTable } from '../../../../support/fake-comment-table.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);
const repository = () => createCommentRepository(client, 't');

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

const newComment = (extra: Partial<StoredComment> = {}): StoredComment => ({
  id: '01N',
  url: '/p',
  nick: 'Ann',
  mail: '',
  link: '',
  ua: '',
  ipHash: 'h',
  browser: '',
  os: '',
  orig: 'hi',
  html: '<p>hi</p>',
  status: 'approved',
  like: 0,
  sticky: false,
  insertedAt: 1_700_000_000_000,
  ...extra,
});

describe('createCommentRepository', () => {
  afterEach(() => ddb.reset());

  describe('listPage', () => {
    it('reads the like index backwards, with its keys, and puts the newer of equal roots first, when sorting by like_desc', async () => {
      // The like key (zero-padded count, then id) orders ties itself, whatever order the items came in.
      const sent = serveCommentTable(ddb, [
        commentItem('/p', '01C', { like: 2 }),
        commentItem('/p', '01B', { like: 7 }),
        commentItem('/p', '01A', { like: 2 }),
      ]);

      const page = await repository().listPage(query({ sortBy: 'like_desc' }));

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
        ProjectionExpression: '#sk, #likeSort',
        ExpressionAttributeNames: { '#roots': 'rootsPk', '#sk': 'sk', '#likeSort': 'likeSort' },
        ExpressionAttributeValues: { ':partition': 'R#approved#flow#/p' },
        ScanIndexForward: false,
        Limit: 10,
      });
    });

    it('reads the time index forwards when sorting by insertedAt_asc', async () => {
      const sent = serveCommentTable(ddb, [commentItem('/p', '01B'), commentItem('/p', '01A')]);

      const page = await repository().listPage(query({ sortBy: 'insertedAt_asc' }));

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

      await repository().listPage(query({ consistent: true, withHeld: true }));

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

      const visitor = await repository().listPage(query());
      const admin = await repository().listPage(query({ withHeld: true }));

      expect([visitor.comments, visitor.roots]).toEqual([4, 3]);
      expect([admin.comments, admin.roots]).toEqual([6, 4]);
    });

    it("leaves out of a visitor's page a root the index still lists as approved but that was held meanwhile", async () => {
      serveCommentTable(ddb, [commentItem('/p', '01A'), { ...commentItem('/p', '01B'), status: 'waiting' }]);

      expect(threadIds(await repository().listPage(query()))).toEqual([['01A', []]]);
    });

    it('reads at most repliesPerThread replies of a thread and says there are more', async () => {
      const replies = Array.from({ length: limits.repliesPerThread + 1 }, (_, i) =>
        commentItem('/p', `01R${String(i).padStart(3, '0')}`, { rid: '01A' }),
      );
      serveCommentTable(ddb, [commentItem('/p', '01A'), ...replies]);

      const [thread] = (await repository().listPage(query())).threads;

      expect(thread?.replies).toHaveLength(limits.repliesPerThread);
      expect(thread?.replies.at(-1)?.id).toBe(`01R${String(limits.repliesPerThread - 1).padStart(3, '0')}`);
      expect(thread?.moreReplies).toBe(true);
    });

    it('says there are no more replies when the thread was read to its end', async () => {
      serveCommentTable(ddb, [commentItem('/p', '01A'), commentItem('/p', '01B', { rid: '01A' })]);

      const [thread] = (await repository().listPage(query())).threads;

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

      const page = await repository().listPage(query());

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

      const page = await repository().listPage(query({ page: 1000, pageSize: 10 }));

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
        createCommentRepository(client, 't', async () => {
          throw new UpgradeRequiredError(undefined);
        }).listPage(query()),
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

      expect(threadIds(await repository().listPage(query()))).toEqual([['01C', []]]);
    });

    it('runs the layout check once for a page, whose reads take two rounds', async () => {
      const sent = serveCommentTable(ddb, [commentItem('/p', '01A')]);
      let checks = 0;

      await createCommentRepository(client, 't', async () => {
        checks++;
      }).listPage(query());

      expect(checks).toBe(1);
      expect(byRound(sent).map((round) => round.length)).toEqual([3, 1]);
    });
  });

  describe('find', () => {
    it('reads a root at its one key, consistently', async () => {
      const sent = serveCommentTable(ddb, [commentItem('/p', '01A', { status: 'waiting' })]);

      const found = await repository().find({ url: '/p', id: '01A' });

      expect(found).toMatchObject({ id: '01A', status: 'waiting' });
      expect(sent.map(({ input }) => [input.Key, input.ConsistentRead])).toEqual([
        [{ pk: 'URL#/p', sk: 'C#01A' }, true],
      ]);
    });

    it('reads both places of a reply at once for an administrator and finds it where it is held', async () => {
      const sent = serveCommentTable(ddb, [commentItem('/p', '01B', { rid: '01A', status: 'spam' })]);

      const found = await repository().find({ url: '/p', id: '01B', rid: '01A' }, { withHeld: true });

      expect(found).toMatchObject({ id: '01B', rid: '01A', status: 'spam' });
      expect(byRound(sent).map((round) => round.map(({ input }) => input.Key.sk))).toEqual([
        ['C#01A#01B', 'H#01A#01B'],
      ]);
    });

    it("reads only a reply's visible place for a visitor, and finds no held one", async () => {
      const sent = serveCommentTable(ddb, [commentItem('/p', '01B', { rid: '01A', status: 'spam' })]);

      expect(await repository().find({ url: '/p', id: '01B', rid: '01A' })).toBeUndefined();
      expect(sent.map(({ input }) => input.Key.sk)).toEqual(['C#01A#01B']);
    });

    it('returns undefined when neither place holds the reply', async () => {
      serveCommentTable(ddb, []);

      expect(await repository().find({ url: '/p', id: '01B', rid: '01A' })).toBeUndefined();
    });
  });

  describe('locate', () => {
    it('finds the root of a reply from the sort key the id index holds', async () => {
      serveCommentTable(ddb, [commentItem('/p', '01B', { rid: '01A', status: 'waiting', like: 2 })]);

      expect(await repository().locate('01B')).toEqual({ url: '/p', id: '01B', rid: '01A', like: 2 });
    });

    it('finds a root with no rid', async () => {
      serveCommentTable(ddb, [commentItem('/p', '01A', { like: 1 })]);

      expect(await repository().locate('01A')).toEqual({ url: '/p', id: '01A', like: 1 });
    });

    it('returns undefined for an index entry whose sort key is not a comment', async () => {
      serveCommentTable(ddb, [{ pk: 'URL#/p', sk: 'DUP#abc', commentId: '01A', url: '/p' }]);

      expect(await repository().locate('01A')).toBeUndefined();
    });
  });

  describe('insert', () => {
    const sentItems = () => ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];

    it('puts a root at C#<id> with its roots-index partition, whatever its status', async () => {
      ddb.on(TransactWriteCommand).resolves({});

      await repository().insert(newComment({ status: 'waiting' }), { contentHash: 'x' });

      expect(sentItems()[0]?.Put?.Item).toMatchObject({
        pk: 'URL#/p',
        sk: 'C#01N',
        rootsPk: 'R#waiting#flow#/p',
        recentPk: 'STATUS#waiting',
      });
    });

    it('puts a held reply under H# without a roots-index partition', async () => {
      ddb.on(TransactWriteCommand).resolves({});

      await repository().insert(newComment({ rid: '01A', pid: '01A', status: 'spam' }), { contentHash: 'x' });

      expect(sentItems()[0]?.Put?.Item).toMatchObject({ sk: 'H#01A#01N', recentPk: 'STATUS#spam' });
      expect(sentItems()[0]?.Put?.Item).not.toHaveProperty('rootsPk');
    });

    it('checks a parent inside the thread where its status keeps it', async () => {
      ddb.on(TransactWriteCommand).resolves({});
      const reply = newComment({ rid: '01A', pid: '01B' });

      await repository().insert(reply, { contentHash: 'x', parentStatus: 'waiting' });

      expect(
        sentItems()
          .map((item) => item.ConditionCheck?.Key?.sk)
          .filter(Boolean),
      ).toEqual(['C#01A', 'H#01A#01B']);
    });
  });

  describe('vote', () => {
    const transactItems = () => ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    const cancelled = (...codes: string[]) =>
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: codes.map((Code) => ({ Code })),
      });

    it('adds one to a reply at its visible key with the voter mark, only while it is approved', async () => {
      ddb.on(TransactWriteCommand).resolves({});

      expect(await repository().vote({ url: '/p', id: '01B', rid: '01A', like: 4 }, 'voter', true)).toEqual({
        outcome: 'changed',
        like: 5,
      });
      const [mark, update] = transactItems();
      expect(mark?.Put).toMatchObject({
        Item: { pk: 'C#01B', sk: 'VOTE#like#voter', entity: 'vote' },
        ConditionExpression: 'attribute_not_exists(pk)',
      });
      expect(update?.Update).toEqual({
        TableName: 't',
        Key: { pk: 'URL#/p', sk: 'C#01A#01B' },
        UpdateExpression: 'ADD #like :one',
        ConditionExpression: 'attribute_exists(pk) AND #status = :approved',
        ExpressionAttributeNames: { '#like': 'like', '#status': 'status' },
        ExpressionAttributeValues: { ':one': 1, ':approved': 'approved' },
      });
    });

    it("moves a root's like sort value by 2^96 with its count, and takes the mark away on unlike, never below 0", async () => {
      ddb.on(TransactWriteCommand).resolves({});

      expect(await repository().vote({ url: '/p', id: '01A', like: 12 }, 'voter', false)).toEqual({
        outcome: 'changed',
        like: 11,
      });
      const [mark, update] = transactItems();
      expect(mark?.Delete).toMatchObject({
        Key: { pk: 'C#01A', sk: 'VOTE#like#voter' },
        ConditionExpression: 'attribute_exists(pk)',
      });
      expect(update?.Update?.UpdateExpression).toBe('ADD #like :one, #likeSort :step');
      expect(update?.Update?.ConditionExpression).toBe(
        'attribute_exists(pk) AND #status = :approved AND #like > :zero',
      );
      expect(update?.Update?.ExpressionAttributeValues?.[':one']).toBe(-1);
      expect(String(update?.Update?.ExpressionAttributeValues?.[':step'])).toBe(`-${2n ** 96n}`);
    });

    it('answers unchanged when the voter already liked, and missing when the comment is held or gone', async () => {
      ddb
        .on(TransactWriteCommand)
        .rejectsOnce(cancelled('ConditionalCheckFailed', 'None'))
        .rejectsOnce(cancelled('None', 'ConditionalCheckFailed'))
        .rejectsOnce(cancelled('None', 'ConditionalCheckFailed'));

      expect(await repository().vote({ url: '/p', id: '01A', like: 6 }, 'voter', true)).toEqual({
        outcome: 'unchanged',
        like: 6,
      });
      expect(await repository().vote({ url: '/p', id: '01A', like: 0 }, 'voter', true)).toEqual({
        outcome: 'missing',
      });
      // An unlike refused by the floor (or a comment gone) changes nothing.
      expect(await repository().vote({ url: '/p', id: '01A', like: 0 }, 'voter', false)).toEqual({
        outcome: 'unchanged',
        like: 0,
      });
    });

    it('sends the unlike even when the id index says 0: the stored count decides', async () => {
      ddb.on(TransactWriteCommand).resolves({});

      expect(await repository().vote({ url: '/p', id: '01A', like: 0 }, 'voter', false)).toEqual({
        outcome: 'changed',
        like: 0,
      });
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    });
  });
});
