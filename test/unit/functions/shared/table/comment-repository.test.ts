import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredComment } from '../../../../../functions/shared/domain/comment.js';
import { UpgradeRequiredError } from '../../../../../functions/shared/domain/errors.js';
import {
  createCommentRepository,
  type PageQuery,
} from '../../../../../functions/shared/table/comment-repository.js';
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
    // The page read itself is tested in list-page.test.ts; this is its wiring into the repository.
    it('reads pages with the layout check the repository was given', async () => {
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
        heldPk: 'STATUS#waiting',
        heldSk: '01N',
      });
      expect(sentItems()[0]?.Put?.Item).not.toHaveProperty('approvedPk');
    });

    it('puts an approved comment in approved-by-time with what its texts weigh, and in no other card index', async () => {
      ddb.on(TransactWriteCommand).resolves({});
      const comment = newComment({ status: 'approved', orig: 'é', html: '<p>é</p>' });

      await repository().insert(comment, { contentHash: 'x' });

      expect(sentItems()[0]?.Put?.Item).toMatchObject({
        approvedPk: 'STATUS#approved',
        approvedSk: '01N',
        textBytes: 2 + 9,
      });
      expect(sentItems()[0]?.Put?.Item).not.toHaveProperty('heldPk');
      expect(sentItems()[0]?.Put?.Item).not.toHaveProperty('recentPk');
    });

    it('puts a held reply under H# without a roots-index partition', async () => {
      ddb.on(TransactWriteCommand).resolves({});

      await repository().insert(newComment({ rid: '01A', pid: '01A', status: 'spam' }), { contentHash: 'x' });

      expect(sentItems()[0]?.Put?.Item).toMatchObject({ sk: 'H#01A#01N', heldPk: 'STATUS#spam' });
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
