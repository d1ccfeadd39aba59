import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { UpgradeRequiredError } from '../../../../../functions/shared/domain/errors.js';
import { createPageFeed } from '../../../../../functions/shared/table/page-feed.js';
import { createCommentRepository } from '../../../../../functions/shared/table/comment-repository.js';
import { commentItem } from '../../../../support/fake-comment-table.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const ddb = mockClient(client);

/** What the page read sends: the attributes of a thread, backwards over the visible range, approved only. */
const expectedQuery = {
  TableName: 't',
  KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
  FilterExpression: '#status = :approved',
  ProjectionExpression: '#p0, #p1, #p2, #p3, #p4, #p5',
  // What a feed shows, and the status: no mail, IP hash or raw text is read.
  ExpressionAttributeNames: {
    '#p0': 'commentId',
    '#p1': 'url',
    '#p2': 'nick',
    '#p3': 'html',
    '#p4': 'status',
    '#p5': 'insertedAt',
    '#pk': 'pk',
    '#sk': 'sk',
    '#status': 'status',
  },
  ExpressionAttributeValues: {
    ':pk': 'URL#/posts/hello',
    ':from': 'C#',
    ':to': 'C#\uffff',
    ':approved': 'approved',
  },
  ScanIndexForward: false,
  Limit: 100,
};

const at = (item: Record<string, unknown>, insertedAt: number) => ({ ...item, insertedAt });

describe('createPageFeed', () => {
  afterEach(() => ddb.reset());

  it('sends one Query of the visible range, backwards, approved only, at most 100 items', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    await createPageFeed(client, 't')('/posts/hello');

    expect(ddb.commandCalls(QueryCommand).map((call) => call.args[0].input)).toEqual([expectedQuery]);
  });

  it('reads consistently when asked', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    await createPageFeed(client, 't')('/posts/hello', { consistent: true });

    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toEqual({
      ...expectedQuery,
      ConsistentRead: true,
    });
  });

  it('answers the comments read newest first, replies of older threads among them, approved only', async () => {
    // As the range comes back backwards: the newest thread (a root, its reply), then an older one whose
    // reply is the newest comment of all.
    ddb.on(QueryCommand).resolves({
      Items: [
        at(commentItem('/posts/hello', '01D', { rid: '01C' }), 4_000),
        at(commentItem('/posts/hello', '01C'), 3_000),
        at(commentItem('/posts/hello', '01E', { rid: '01A' }), 5_000),
        at(commentItem('/posts/hello', '01B', { status: 'waiting' }), 2_000),
        at(commentItem('/posts/hello', '01A'), 1_000),
      ],
    });

    const comments = await createPageFeed(client, 't')('/posts/hello');

    expect(comments.map((comment) => comment.id)).toEqual(['01E', '01D', '01C', '01A']);
    expect(comments[0]).toEqual({
      id: '01E',
      url: '/posts/hello',
      nick: 'nick-01E',
      html: '<p>text of 01E</p>\n',
      insertedAt: 5_000,
    });
  });

  it('keeps the 50 newest when more come back', async () => {
    ddb.on(QueryCommand).resolves({
      Items: Array.from({ length: 100 }, (_, i) =>
        at(commentItem('/p', `01${String(i).padStart(3, '0')}`), i * 1_000),
      ),
    });

    const comments = await createPageFeed(client, 't')('/p');

    expect(comments).toHaveLength(50);
    expect(comments[0]?.id).toBe('01099');
    expect(comments.at(-1)?.id).toBe('01050');
  });

  it('orders comments of the same millisecond by id, newest first', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [
        at(commentItem('/p', '01A'), 1),
        at(commentItem('/p', '01C'), 1),
        at(commentItem('/p', '01B'), 1),
      ],
    });

    const comments = await createPageFeed(client, 't')('/p');

    expect(comments.map((comment) => comment.id)).toEqual(['01C', '01B', '01A']);
  });

  it('fails with the layout check of the repository when the table is of the older layout', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    const repository = createCommentRepository(client, 't', async () => {
      throw new UpgradeRequiredError(undefined);
    });

    await expect(repository.pageFeed('/p')).rejects.toBeInstanceOf(UpgradeRequiredError);
  });
});
