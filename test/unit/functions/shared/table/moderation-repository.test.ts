import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createModerationRepository,
  type ModeratedComment,
} from '../../../../../functions/shared/table/moderation-repository.js';
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

    expect(await repository().moderate(comment, { status: 'spam' })).toBe(true);

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
          // Moved as read: its like count, pin and text too.
          ConditionExpression:
            '#status = :previous AND #like = :readlike AND #sticky = :readsticky AND #orig = :readorig',
          ExpressionAttributeNames: {
            '#status': 'status',
            '#like': 'like',
            '#sticky': 'sticky',
            '#orig': 'orig',
          },
          ExpressionAttributeValues: {
            ':previous': 'approved',
            ':readlike': 3,
            ':readsticky': false,
            ':readorig': 'text of 01B',
          },
        },
      },
      {
        Put: {
          TableName: 't',
          // Out of approved-by-time, into held-by-time.
          Item: {
            ...Object.fromEntries(
              Object.entries(stored).filter(([name]) => name !== 'approvedPk' && name !== 'approvedSk'),
            ),
            sk: 'H#01A#01B',
            status: 'spam',
            heldPk: 'STATUS#spam',
            heldSk: '01B',
          },
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

    expect(await repository().moderate(comment, { status: 'approved' })).toBe(false);
    expect(transactions(sent)).toEqual([]);
  });

  it('updates a root in place, with its card-index keys and roots-index partition, when its status changes', async () => {
    const sent = serveCommentTable(ddb, [commentItem('/p', '01A', { status: 'waiting', sticky: true })]);
    const comment = await asRead({ url: '/p', id: '01A' });

    expect(await repository().moderate(comment, { status: 'approved' })).toBe(true);

    const [items] = transactions(sent);
    expect(items?.[0]).toEqual({
      Update: {
        TableName: 't',
        Key: { pk: 'URL#/p', sk: 'C#01A' },
        UpdateExpression: 'SET #a0 = :a0, #a1 = :a1, #a2 = :a2, #a3 = :a3 REMOVE #r0, #r1, #r2, #r3',
        ConditionExpression: 'attribute_exists(pk) AND #status = :read AND #sticky = :readsticky',
        ExpressionAttributeNames: {
          '#a0': 'status',
          '#a1': 'approvedPk',
          '#a2': 'approvedSk',
          '#a3': 'rootsPk',
          '#r0': 'heldPk',
          '#r1': 'heldSk',
          '#r2': 'recentPk',
          '#r3': 'recentSk',
          '#status': 'status',
          '#sticky': 'sticky',
        },
        ExpressionAttributeValues: {
          ':a0': 'approved',
          ':a1': 'STATUS#approved',
          ':a2': '01A',
          ':a3': 'R#approved#pinned#/p',
          ':read': 'waiting',
          ':readsticky': true,
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

    expect(await repository().moderate(comment, { sticky: true })).toBe(true);

    const [items] = transactions(sent);
    expect(items).toEqual([
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01A' },
          UpdateExpression: 'SET #a0 = :a0, #a1 = :a1, #a2 = :a2, #a3 = :a3',
          ConditionExpression:
            'attribute_exists(pk) AND #status = :read AND (attribute_not_exists(#sticky) OR #sticky = :readsticky)',
          ExpressionAttributeNames: {
            '#a0': 'sticky',
            '#a1': 'heldPk',
            '#a2': 'heldSk',
            '#a3': 'rootsPk',
            '#status': 'status',
            '#sticky': 'sticky',
          },
          ExpressionAttributeValues: {
            ':a0': true,
            ':a1': 'STATUS#spam',
            ':a2': '01A',
            ':a3': 'R#spam#pinned#/p',
            ':read': 'spam',
            ':readsticky': false,
          },
        },
      },
    ]);
  });

  it('edits a held reply at its held key', async () => {
    const sent = serveCommentTable(ddb, [commentItem('/p', '01B', { rid: '01A', status: 'waiting' })]);
    const comment = await asRead({ url: '/p', id: '01B', rid: '01A' });

    expect(await repository().moderate(comment, { text: { orig: 'x', html: '<p>x</p>' } })).toBe(true);

    expect(transactions(sent)[0]?.[0]?.Update).toMatchObject({
      Key: { pk: 'URL#/p', sk: 'H#01A#01B' },
      UpdateExpression: 'SET #a0 = :a0, #a1 = :a1, #a2 = :a2',
      ExpressionAttributeNames: { '#a0': 'orig', '#a1': 'html', '#a2': 'textBytes' },
      ExpressionAttributeValues: { ':a0': 'x', ':a1': '<p>x</p>', ':a2': 9, ':read': 'waiting' },
    });
  });

  it('edits, pins and approves a held reply in one transaction: the moved item carries the new text', async () => {
    const stored = commentItem('/p', '01B', { rid: '01A', status: 'waiting' });
    const sent = serveCommentTable(ddb, [stored]);
    const comment = await asRead({ url: '/p', id: '01B', rid: '01A' });

    expect(
      await repository().moderate(comment, {
        text: { orig: 'new', html: '<p>new</p>' },
        sticky: true,
        status: 'approved',
      }),
    ).toBe(true);

    const all = transactions(sent);
    expect(all).toHaveLength(1);
    expect(all[0]?.[1]?.Put).toMatchObject({
      Item: { sk: 'C#01A#01B', status: 'approved', orig: 'new', html: '<p>new</p>', sticky: true },
    });
  });

  it('says the comment changed, and sends nothing more, when its one transaction is refused', async () => {
    serveCommentTable(ddb, [commentItem('/p', '01A', { status: 'waiting' })]);
    const comment = await asRead({ url: '/p', id: '01A' });
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );

    expect(
      await repository().moderate(comment, { text: { orig: 'x', html: '<p>x</p>' }, status: 'approved' }),
    ).toBe(false);
    // The edit went in the same transaction as the status change and its counters: refused with them.
    const calls = ddb.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(1);
    // A root's approval tells nobody: no outbox event.
    expect(calls[0]?.args[0].input.TransactItems?.map((item) => Object.keys(item)[0])).toEqual([
      'Update',
      'Update',
      'Update',
    ]);
    expect(calls[0]?.args[0].input.TransactItems?.[0]?.Update?.ExpressionAttributeValues).toMatchObject({
      ':a0': 'approved',
      ':a1': 'x',
    });
  });

  it("approves a held reply with its outbox event, timed by the repository's clock, and marks it told", async () => {
    const at = Date.parse('2026-11-25T12:00:00Z');
    const sent = serveCommentTable(ddb, [commentItem('/p', '01B', { rid: '01A', status: 'waiting' })]);
    const comment = await asRead({ url: '/p', id: '01B', rid: '01A' });

    expect(comment).not.toHaveProperty('replyNotified');
    expect(
      await createModerationRepository(client, 't', undefined, () => at).moderate(comment, {
        status: 'approved',
      }),
    ).toBe(true);

    const [items] = transactions(sent);
    expect(items?.map((item) => Object.keys(item)[0])).toEqual(['Delete', 'Put', 'Update', 'Update', 'Put']);
    expect((items?.[1]?.Put as { Item: Item }).Item).toMatchObject({ sk: 'C#01A#01B', replyNotified: true });
    // The approval's outbox event, in the same transaction: whoever it notifies is told.
    expect((items?.[4]?.Put as { Item: Item }).Item).toMatchObject({
      pk: 'OUTBOX#2026-11-25',
      entity: 'outbox',
      cause: 'comment.approved',
      at,
      subject: { id: '01B', status: 'approved' },
    });
  });

  it("trusts the approved comment's address under its keyed hash, and never an empty or made-up mail", async () => {
    const hashes: string[] = [];
    const hashAddress = (address: string) => {
      hashes.push(address);
      return `hash-of-${address}`;
    };
    const trusting = () => createModerationRepository(client, 't', undefined, () => 7, hashAddress);
    const sent = serveCommentTable(ddb, [
      { ...commentItem('/p', '01A', { status: 'waiting' }), mail: 'ann@example.com' },
      { ...commentItem('/p', '01C', { status: 'waiting' }), mail: 'nobody' },
      { ...commentItem('/p', '01D', { status: 'waiting' }), mail: '' },
    ]);

    for (const id of ['01A', '01C', '01D']) {
      expect(await trusting().moderate(await asRead({ url: '/p', id }), { status: 'approved' })).toBe(true);
    }

    const marks = transactions(sent).map((items) =>
      items?.filter((item) => (item.Put as { Item?: Item } | undefined)?.Item?.entity === 'trust'),
    );
    expect(marks).toEqual([
      [
        {
          Put: {
            TableName: 't',
            Item: { pk: 'TRUST#hash-of-ann@example.com', sk: 'TRUST', entity: 'trust', at: 7 },
          },
        },
      ],
      [],
      [],
    ]);
    expect(hashes).toEqual(['ann@example.com']);
  });

  it('withdraws the trust of the address of a comment marked spam, and hashes no address for a pin', async () => {
    const hashes: string[] = [];
    const hashAddress = (address: string) => {
      hashes.push(address);
      return `hash-of-${address}`;
    };
    const sent = serveCommentTable(ddb, [{ ...commentItem('/p', '01A'), mail: 'ann@example.com' }]);
    const read = await asRead({ url: '/p', id: '01A' });

    const repository = createModerationRepository(client, 't', undefined, () => 7, hashAddress);
    expect(await repository.moderate(read, { sticky: true })).toBe(true);
    expect(await repository.moderate(read, { status: 'spam' })).toBe(true);

    const deletes = transactions(sent).map((items) => items?.filter((item) => 'Delete' in item));
    expect(deletes).toEqual([
      [],
      [{ Delete: { TableName: 't', Key: { pk: 'TRUST#hash-of-ann@example.com', sk: 'TRUST' } } }],
    ]);
    expect(hashes).toEqual(['ann@example.com']);
  });

  it("reads that a held reply's parent was told, so approving it again writes no event and keeps the mark", async () => {
    const stored = { ...commentItem('/p', '01B', { rid: '01A', status: 'waiting' }), replyNotified: true };
    const sent = serveCommentTable(ddb, [stored]);
    const comment = await asRead({ url: '/p', id: '01B', rid: '01A' });

    expect(comment).toMatchObject({ id: '01B', status: 'waiting', replyNotified: true });
    expect(await repository().moderate(comment, { status: 'approved' })).toBe(true);

    const [items] = transactions(sent);
    expect(items?.map((item) => Object.keys(item)[0])).toEqual(['Delete', 'Put', 'Update', 'Update']);
    expect((items?.[1]?.Put as { Item: Item }).Item).toMatchObject({ sk: 'C#01A#01B', replyNotified: true });
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
    // The replies first, the root last: a refused later transaction leaves a root to find again.
    expect(items?.map((item) => (item.Delete as { Key: Item } | undefined)?.Key.sk).filter(Boolean)).toEqual([
      'C#01A#01B',
      'H#01A#01C',
      'C#01A',
      'DUP#hA',
    ]);
    // Each leaves a tombstone, in the same transaction, that a rerun of an import respects.
    expect(
      items?.flatMap((item) => {
        const put = item.Put as { Item: Item } | undefined;
        return put ? [[put.Item.pk, put.Item.sk, put.Item.entity]] : [];
      }),
    ).toEqual([
      ['URL#/p', 'DEL#01B', 'tombstone'],
      ['URL#/p', 'DEL#01C', 'tombstone'],
      ['URL#/p', 'DEL#01A', 'tombstone'],
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

  it('keeps each transaction within 100 items when a thread of 80 comments is removed', async () => {
    const replies = Array.from({ length: 79 }, (_, i) => ({
      ...commentItem('/p', `01R${String(i).padStart(2, '0')}`, { rid: '01A' }),
      contentHash: `h${i}`,
    }));
    const sent = serveCommentTable(ddb, [{ ...commentItem('/p', '01A'), contentHash: 'hA' }, ...replies]);

    expect(await repository().remove({ url: '/p', id: '01A' })).toBe(80);

    const sizes = transactions(sent).map((items) => items.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(80 * 3 + 2 * sizes.length);
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

describe('pageByStatus', () => {
  afterEach(() => ddb.reset());

  const queued = [
    commentItem('/a', '01A'),
    commentItem('/b', '01B', { status: 'waiting' }),
    commentItem('/a', '01C', { status: 'spam' }),
    commentItem('/b', '01D'),
    commentItem('/a', '01E', { status: 'waiting' }),
  ];

  it('reads the cards of each queue up to the page, then only the page texts, newest first across queues', async () => {
    const sent = serveCommentTable(ddb, queued);

    const page = await repository().pageByStatus(['approved', 'waiting', 'spam'], 1, 2);

    expect(page.map((comment) => [comment.id, comment.status, comment.orig])).toEqual([
      ['01D', 'approved', 'text of 01D'],
      ['01C', 'spam', 'text of 01C'],
    ]);
    const queries = sent.filter(({ command }) => command === 'Query');
    expect(queries).toHaveLength(3);
    // Approved cards from approved-by-time, the queues' from held-by-time: no text of any comment.
    expect(queries.map(({ input }) => input.IndexName)).toEqual([
      'approved-by-time',
      'held-by-time',
      'held-by-time',
    ]);
    for (const { input } of queries) {
      expect(input).toMatchObject({ ScanIndexForward: false, Limit: 3 });
      const read = Object.values(input.ExpressionAttributeNames as Item);
      expect(read).not.toContain('orig');
      expect(read).not.toContain('html');
    }
    const batches = sent.filter(({ command }) => command === 'BatchGetItem');
    expect(batches).toHaveLength(1);
    expect((batches[0]?.input.RequestItems as Record<string, { Keys: Item[] }>).t?.Keys).toEqual([
      { pk: 'URL#/b', sk: 'C#01D' },
      { pk: 'URL#/a', sk: 'C#01C' },
    ]);
    // The texts alone (and the keys, to match them): the cards came with the index.
    expect(
      Object.values(
        (batches[0]?.input.RequestItems as Record<string, { ExpressionAttributeNames: Item }>).t
          ?.ExpressionAttributeNames ?? {},
      ),
    ).toEqual(['pk', 'sk', 'orig', 'html', 'userId', 'heldBecause']);
  });

  it('shows without its text a comment whose texts would take the page past its read budget, and reads the lighter one after it', async () => {
    const heavy = { ...commentItem('/a', '01F', { status: 'waiting' }), textBytes: 300 * 1024 };
    const sent = serveCommentTable(ddb, [...queued, heavy]);

    const page = await repository().pageByStatus(['waiting'], 0, 2);

    expect(page.map((comment) => [comment.id, comment.orig, comment.textLeftOut])).toEqual([
      ['01F', '', true],
      ['01E', 'text of 01E', undefined],
    ]);
    const batches = sent.filter(({ command }) => command === 'BatchGetItem');
    expect((batches[0]?.input.RequestItems as Record<string, { Keys: Item[] }>).t?.Keys).toEqual([
      { pk: 'URL#/a', sk: 'C#01E' },
    ]);
  });

  it('reads a queue over several Query pages, each asking for what is left of the page', async () => {
    const sent = serveCommentTable(ddb, queued, { itemsPerQuery: 1 });

    const page = await repository().pageByStatus(['approved'], 0, 2);

    expect(page.map((comment) => comment.id)).toEqual(['01D', '01A']);
    expect(sent.filter(({ command }) => command === 'Query').map(({ input }) => input.Limit)).toEqual([2, 1]);
  });

  it('leaves out a comment deleted between the two reads, and reads no comment for a page past the end', async () => {
    const items = [...queued];
    const sent = serveCommentTable(ddb, items);
    // The second read finds one of the page's comments gone.
    ddb.on(BatchGetCommand).callsFakeOnce(async (input: Item) => {
      const keys = (input.RequestItems as Record<string, { Keys: Item[] }>).t?.Keys ?? [];
      return {
        Responses: {
          t: keys.slice(1).flatMap((key) => items.filter((row) => row.pk === key.pk && row.sk === key.sk)),
        },
      };
    });

    expect((await repository().pageByStatus(['approved'], 0, 2)).map((comment) => comment.id)).toEqual([
      '01A',
    ]);
    expect(await repository().pageByStatus(['spam'], 5, 10)).toEqual([]);
    expect(sent.filter(({ command }) => command === 'BatchGetItem')).toHaveLength(0);
  });
});
