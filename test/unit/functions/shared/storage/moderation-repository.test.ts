import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createModerationRepository,
  type ModeratedComment,
} from '../../../../../functions/shared/storage/moderation-repository.js';
import { commentItem, type Item, serveCommentTable } from '../../../../support/fake-comment-table.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);
const repository = () => createModerationRepository(client, 't');

/** A comment as moderation reads it from the fake table. */
const asRead = async (ref: { url: string; id: string; rid?: string }) => {
  const comment = await repository().get(ref);
  if (!comment) throw new Error(`no comment ${ref.id}`);
  return comment;
};
const transactions = (sent: ReturnType<typeof serveCommentTable>) =>
  sent
    .filter(({ command }) => command === 'TransactWriteItems')
    .map(({ input }) => input.TransactItems as Item[]);

describe('createModerationRepository', () => {
  afterEach(() => ddb.reset());

  it('gets a held reply from where it is held, with its duplicate-mark hash', async () => {
    serveCommentTable(ddb, [
      { ...commentItem('/p', '01B', { rid: '01A', status: 'waiting' }), contentHash: 'h1' },
    ]);

    expect(await asRead({ url: '/p', id: '01B', rid: '01A' })).toMatchObject({
      id: '01B',
      status: 'waiting',
      contentHash: 'h1',
    });
  });

  it('moves a reply from visible to held as it is now: Delete at C# and Put at H# in one transaction with the counters', async () => {
    const stored = commentItem('/p', '01B', { rid: '01A', like: 3 });
    const sent = serveCommentTable(ddb, [stored]);
    const comment = await asRead({ url: '/p', id: '01B', rid: '01A' });
    const before = sent.length;

    expect(await repository().setStatus(comment, 'spam')).toBe(true);

    // The item is read again (consistently) so that the moved copy is the item as it is now.
    expect(
      sent.slice(before).map(({ command, input }) => [command, input.Key?.sk, input.ConsistentRead]),
    ).toEqual([
      ['GetItem', 'C#01A#01B', true],
      ['TransactWriteItems', undefined, undefined],
    ]);
    const [items] = transactions(sent);
    expect(items?.slice(0, 2)).toEqual([
      {
        Delete: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01A#01B' },
          ConditionExpression: '#status = :previous AND #like = :like',
          ExpressionAttributeNames: { '#status': 'status', '#like': 'like' },
          ExpressionAttributeValues: { ':previous': 'approved', ':like': 3 },
        },
      },
      {
        Put: {
          TableName: 't',
          Item: { ...stored, sk: 'H#01A#01B', status: 'spam', recentPk: 'STATUS#spam', recentSk: '01B' },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
    // A visible reply becomes held: the page loses a comment and holds one more; the site moves it to spam.
    expect(items?.[2]?.Update).toMatchObject({
      Key: { pk: 'URL#/p', sk: 'PAGE' },
      ExpressionAttributeNames: { '#c0': 'comments', '#c1': 'held' },
      ExpressionAttributeValues: { ':c0': -1, ':c1': 1 },
    });
    expect(items?.[3]?.Update).toMatchObject({
      Key: { pk: 'SITE', sk: 'SITE' },
      ExpressionAttributeNames: { '#c0': 'comments', '#c1': 'spam' },
      ExpressionAttributeValues: { ':c0': -1, ':c1': 1 },
    });
  });

  it('moves nothing when the reply read again no longer has the status it was moderated from', async () => {
    const sent = serveCommentTable(ddb, [commentItem('/p', '01B', { rid: '01A', status: 'waiting' })]);
    const comment: ModeratedComment = {
      ...(await asRead({ url: '/p', id: '01B', rid: '01A' })),
      status: 'spam',
    };

    expect(await repository().setStatus(comment, 'approved')).toBe(false);
    expect(transactions(sent)).toEqual([]);
  });

  it('updates a root in place, with its recent and roots-index partitions, when its status changes', async () => {
    const sent = serveCommentTable(ddb, [commentItem('/p', '01A', { status: 'waiting', sticky: true })]);
    const comment = await asRead({ url: '/p', id: '01A' });

    expect(await repository().setStatus(comment, 'approved')).toBe(true);

    const [items] = transactions(sent);
    expect(items?.[0]).toEqual({
      Update: {
        TableName: 't',
        Key: { pk: 'URL#/p', sk: 'C#01A' },
        UpdateExpression: 'SET #status = :next, #i0 = :i0, #i1 = :i1, #i2 = :i2',
        ConditionExpression: '#status = :previous',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#i0': 'recentPk',
          '#i1': 'recentSk',
          '#i2': 'rootsPk',
        },
        ExpressionAttributeValues: {
          ':next': 'approved',
          ':previous': 'waiting',
          ':i0': 'STATUS#approved',
          ':i1': '01A',
          ':i2': 'R#approved#pinned#/p',
        },
      },
    });
    expect(items?.[1]).toMatchObject({ Update: { Key: { pk: 'URL#/p', sk: 'PAGE' } } });
    expect((items?.[1]?.Update as Item | undefined)?.ExpressionAttributeValues).toMatchObject({
      ':c0': 1,
      ':c1': 1,
      ':c2': -1,
      ':c3': -1,
    });
  });

  it('moves a root between its pinned and unpinned partitions when it is pinned, at the status it was read with', async () => {
    const sent = serveCommentTable(ddb, [commentItem('/p', '01A', { status: 'spam' })]);
    const comment = await asRead({ url: '/p', id: '01A' });

    expect(await repository().setSticky(comment, true)).toBe(true);

    const [items] = transactions(sent);
    expect(items).toEqual([
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01A' },
          UpdateExpression: 'SET sticky = :sticky, #i0 = :i0, #i1 = :i1, #i2 = :i2',
          ConditionExpression: 'attribute_exists(pk) AND #status = :read',
          ExpressionAttributeNames: {
            '#i0': 'recentPk',
            '#i1': 'recentSk',
            '#i2': 'rootsPk',
            '#status': 'status',
          },
          ExpressionAttributeValues: {
            ':sticky': true,
            ':i0': 'STATUS#spam',
            ':i1': '01A',
            ':i2': 'R#spam#pinned#/p',
            ':read': 'spam',
          },
        },
      },
    ]);
  });

  it('edits a held reply at its held key', async () => {
    const sent = serveCommentTable(ddb, [commentItem('/p', '01B', { rid: '01A', status: 'waiting' })]);
    const comment = await asRead({ url: '/p', id: '01B', rid: '01A' });

    expect(await repository().edit(comment, { orig: 'x', html: '<p>x</p>' })).toBe(true);

    expect(transactions(sent)[0]?.[0]?.Update).toMatchObject({
      Key: { pk: 'URL#/p', sk: 'H#01A#01B' },
      UpdateExpression: 'SET orig = :orig, html = :html',
      ExpressionAttributeValues: { ':orig': 'x', ':html': '<p>x</p>', ':read': 'waiting' },
    });
  });

  it('removes a root with its whole thread, visible and held, reading only that thread', async () => {
    const sent = serveCommentTable(ddb, [
      { ...commentItem('/p', '01A'), contentHash: 'hA' },
      commentItem('/p', '01B', { rid: '01A' }),
      commentItem('/p', '01C', { rid: '01A', pid: '01B', status: 'waiting' }),
      commentItem('/p', '01AB'),
      commentItem('/p', '01AB1', { rid: '01AB' }),
    ]);

    expect(await repository().remove({ url: '/p', id: '01A' })).toBe(3);

    const reads = sent.filter(({ command }) => command === 'Query').map(({ input }) => input);
    expect(reads.map((input) => [input.ExpressionAttributeValues, input.ConsistentRead])).toEqual([
      [{ ':pk': 'URL#/p', ':from': 'C#01A', ':to': 'C#01A#\uffff' }, true],
      [{ ':pk': 'URL#/p', ':from': 'H#01A#', ':to': 'H#01A#\uffff' }, true],
    ]);
    const [items] = transactions(sent);
    expect(items?.map((item) => (item.Delete as { Key: Item } | undefined)?.Key.sk).filter(Boolean)).toEqual([
      'C#01A',
      'DUP#hA',
      'C#01A#01B',
      'H#01A#01C',
    ]);
    // Two visible comments (one a root) and one held reply.
    expect(
      items?.find((item) => (item.Update as { Key: Item } | undefined)?.Key.sk === 'PAGE'),
    ).toMatchObject({
      Update: {
        ExpressionAttributeNames: { '#c0': 'comments', '#c1': 'roots', '#c2': 'held' },
        ExpressionAttributeValues: { ':c0': -2, ':c1': -1, ':c2': -1 },
      },
    });
  });

  it('removes a reply with its direct replies only', async () => {
    const sent = serveCommentTable(ddb, [
      commentItem('/p', '01A'),
      commentItem('/p', '01B', { rid: '01A' }),
      commentItem('/p', '01C', { rid: '01A', pid: '01B', status: 'spam' }),
      commentItem('/p', '01D', { rid: '01A' }),
    ]);

    expect(await repository().remove({ url: '/p', id: '01B', rid: '01A' })).toBe(2);

    const [items] = transactions(sent);
    expect(items?.map((item) => (item.Delete as { Key: Item } | undefined)?.Key.sk).filter(Boolean)).toEqual([
      'C#01A#01B',
      'H#01A#01C',
    ]);
  });
});
