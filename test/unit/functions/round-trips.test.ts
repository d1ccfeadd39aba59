import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArticleHandler } from '../../../functions/article/article-handler.js';
import { createCommentHandler } from '../../../functions/comment/comment-handler.js';
import { createServices } from '../../../functions/shared/services.js';
import { buildEvent, type EventSpec, testContext } from '../../support/http-event.js';
import { testConfig } from '../../support/test-config.js';

const ddb = mockClient(DynamoDBDocumentClient);
// The round trips of each request itself: the list cache (cached-reads.test.ts) is off.
const services = createServices(testConfig({ LIST_CACHE_MS: '0' }), { now: () => 1_800_000_000_000 });
const comment = createCommentHandler(services);
const article = createArticleHandler(services);

const call = async (spec: EventSpec) => {
  const handler = spec.path.includes('article') ? article : comment;
  const response = await handler(buildEvent(spec), testContext);
  return { status: response.statusCode, body: JSON.parse(response.body) };
};

const storedComment = (id: string, extra: Record<string, unknown> = {}) => ({
  pk: 'URL#/p',
  sk: `C#${id}`,
  commentId: id,
  url: '/p',
  nick: 'Ann',
  mail: 'ann@example.com',
  link: '',
  browser: 'Chrome120.0',
  os: 'Linux',
  orig: 'hi',
  html: '<p>hi</p>\n',
  status: 'approved',
  like: 0,
  insertedAt: 1_700_000_000_000,
  ...extra,
});

describe('DynamoDB round trips per operation', () => {
  beforeEach(() => ddb.reset());
  afterEach(() => ddb.reset());

  it('lists an article with one Query when its comments fit in one page of results', async () => {
    ddb
      .on(QueryCommand)
      .resolves({ Items: [storedComment('01A'), storedComment('01B', { rid: '01A', pid: '01A' })] });

    const { status, body } = await call({ path: '/api/comment', query: 'path=%2Fp' });

    expect(status).toBe(200);
    expect(body.data.count).toBe(2);
    expect(ddb.calls()).toHaveLength(1);
    const input = ddb.commandCalls(QueryCommand)[0]?.args[0].input;
    expect(input?.KeyConditionExpression).toBe('#pk = :pk AND begins_with(#sk, :comments)');
    expect(input?.ExpressionAttributeValues).toEqual({ ':pk': 'URL#/p', ':comments': 'C#' });
    expect(JSON.stringify(input?.ProjectionExpression)).not.toMatch(/ua|ipHash/);
  });

  it('lists with one more Query per extra page of results when the partition is large', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [storedComment('01A')], LastEvaluatedKey: { pk: 'URL#/p', sk: 'C#01A' } })
      .resolvesOnce({ Items: [storedComment('01B')] });

    const { body } = await call({ path: '/api/comment', query: 'path=%2Fp' });

    expect(body.data.count).toBe(2);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(2);
    expect(ddb.commandCalls(QueryCommand)[1]?.args[0].input.ExclusiveStartKey).toEqual({
      pk: 'URL#/p',
      sk: 'C#01A',
    });
  });

  it('counts several urls with one BatchGetItem when they are fewer than 100', async () => {
    ddb.on(BatchGetCommand).resolves({
      Responses: { 'marginalia-test': [{ pk: 'URL#/a', sk: 'PAGE', comments: 3 }] },
    });

    const { body } = await call({ path: '/api/comment', query: 'type=count&url=%2Fa%2C%2Fb&url=%2Fa' });

    expect(body.data).toEqual([3, 0, 3]);
    expect(ddb.calls()).toHaveLength(1);
    // Duplicated urls are asked for once: BatchGetItem refuses duplicate keys.
    expect(
      ddb.commandCalls(BatchGetCommand)[0]?.args[0].input.RequestItems?.['marginalia-test']?.Keys,
    ).toEqual([
      { pk: 'URL#/a', sk: 'PAGE' },
      { pk: 'URL#/b', sk: 'PAGE' },
    ]);
  });

  it('counts the whole site with one GetItem when no url is given', async () => {
    ddb.on(GetCommand).resolves({ Item: { pk: 'SITE', sk: 'SITE', comments: 9 } });

    const { body } = await call({ path: '/api/comment', query: 'type=count' });

    expect(body.data).toBe(9);
    expect(ddb.calls()).toHaveLength(1);
    expect(ddb.commandCalls(GetCommand)[0]?.args[0].input.Key).toEqual({ pk: 'SITE', sk: 'SITE' });
  });

  it('reads recent comments with one Query on the recent index, newest first, limited to count', async () => {
    ddb.on(QueryCommand).resolves({ Items: [storedComment('01B'), storedComment('01A')] });

    const { body } = await call({ path: '/api/comment', query: 'type=recent&count=2' });

    expect(body.data.map((c: { objectId: string }) => c.objectId)).toEqual(['01B', '01A']);
    expect(ddb.calls()).toHaveLength(1);
    const input = ddb.commandCalls(QueryCommand)[0]?.args[0].input;
    expect(input).toMatchObject({ IndexName: 'recent', ScanIndexForward: false, Limit: 2 });
  });

  it('submits a root with one TransactWriteItems and reads nothing else', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    const { status, body } = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'x', url: '/p' },
    });

    expect(status).toBe(200);
    expect(ddb.calls()).toHaveLength(1);
    expect(body.data).not.toHaveProperty('reply_user');
  });

  it('submits a reply with one TransactWriteItems holding every guard and counter, and reads its parent beside it', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(GetCommand).resolves({ Item: storedComment('01B', { rid: '01A', pid: '01A', nick: 'Bea' }) });

    const { status, body } = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'hello', url: '/p', nick: 'Bob', pid: '01B', rid: '01A' },
    });

    // The parent's read goes out with the transaction, not after it: two commands, one round trip of waiting.
    expect(ddb.calls()).toHaveLength(2);
    expect(ddb.commandCalls(GetCommand)[0]?.args[0].input).toMatchObject({
      Key: { pk: 'URL#/p', sk: 'C#01B' },
      ConsistentRead: true,
    });
    expect(body.data.reply_user).toMatchObject({ nick: 'Bea', link: '' });
    expect(status).toBe(200);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items.map((item) => Object.keys(item)[0])).toEqual([
      'Put',
      'Put',
      'Put',
      'ConditionCheck',
      'ConditionCheck',
      'Update',
      'Update',
    ]);
    expect(items[0]?.Put?.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(items[1]?.Put?.Item?.sk).toMatch(/^DUP#/);
    expect(items[1]?.Put?.Item).not.toHaveProperty('commentId');
    expect(items[2]?.Put?.Item?.pk).toMatch(/^IP#/);
    expect(items[2]?.Put?.ExpressionAttributeValues).toEqual({ ':cutoff': 1_800_000_000_000 - 60_000 });
    expect(items[3]?.ConditionCheck?.Key).toEqual({ pk: 'URL#/p', sk: 'C#01A' });
    expect(items[4]?.ConditionCheck?.Key).toEqual({ pk: 'URL#/p', sk: 'C#01B' });
    expect(items[5]?.Update?.Key).toEqual({ pk: 'URL#/p', sk: 'PAGE' });
    // A reply adds to the visible comments but not to the roots.
    expect(items[5]?.Update?.UpdateExpression).toBe('ADD #c0 :c0 SET #s0 = :s0, #s1 = :s1');
    expect(items[5]?.Update?.ExpressionAttributeNames).toMatchObject({ '#c0': 'comments' });
    expect(items[5]?.Update?.ExpressionAttributeValues).toMatchObject({ ':c0': 1 });
    expect(items[6]?.Update?.Key).toEqual({ pk: 'SITE', sk: 'SITE' });
  });

  it('retries a submit transaction when it only lost a race with another transaction', async () => {
    const conflict = new TransactionCanceledException({
      message: 'conflict',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
    });
    ddb.on(TransactWriteCommand).rejectsOnce(conflict).resolves({});

    const { status } = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'x', url: '/p' },
    });

    expect(status).toBe(200);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('reads reading counts of several paths with one BatchGetItem', async () => {
    ddb.on(BatchGetCommand).resolves({
      Responses: { 'marginalia-test': [{ pk: 'URL#/b', sk: 'PAGE', time: 5, reaction1: 2 }] },
    });

    const { body } = await call({ path: '/api/article', query: 'path=%2Fa,%2Fb&type=time,reaction1' });

    expect(body.data).toEqual([
      { time: 0, reaction1: 0 },
      { time: 5, reaction1: 2 },
    ]);
    expect(ddb.calls()).toHaveLength(1);
  });

  it('updates a reading count with one UpdateItem ADD returning the new value', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { time: 42 } });

    const { body } = await call({ method: 'POST', path: '/api/article', body: { path: '/a' } });

    expect(body.data).toEqual([{ time: 42 }]);
    expect(ddb.calls()).toHaveLength(1);
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input).toMatchObject({
      UpdateExpression: 'ADD #counter :one SET #entity = :entity, #url = :url',
      ReturnValues: 'UPDATED_NEW',
    });
  });

  it('likes a comment in two round trips: the id lookup and one transaction', async () => {
    ddb
      .on(QueryCommand)
      .resolves({ Items: [{ commentId: '01A', url: '/p', like: 4, pk: 'URL#/p', sk: 'C#01A' }] });
    ddb.on(TransactWriteCommand).resolves({});

    const { body } = await call({
      method: 'PUT',
      path: '/api/comment/01A',
      body: { like: true },
      headers: { authorization: 'Bearer undefined' },
    });

    expect(body).toEqual({ errno: 0, errmsg: '', data: { objectId: '01A', url: '/p', like: 5 } });
    expect(ddb.calls()).toHaveLength(2);
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input.IndexName).toBe('by-id');
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[0]?.Put?.Item?.sk).toMatch(/^VOTE#like#/);
    expect(items[1]?.Update?.Key).toEqual({ pk: 'URL#/p', sk: 'C#01A' });
  });

  it('counts a reaction in two round trips: the voter-mark transaction and a consistent read', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(GetCommand).resolves({ Item: { reaction2: 3 } });

    const { body } = await call({
      method: 'POST',
      path: '/api/article',
      body: { path: '/a', type: 'reaction2' },
    });

    expect(body.data).toEqual([{ reaction2: 3 }]);
    expect(ddb.calls()).toHaveLength(2);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[0]?.Put?.Item?.sk).toMatch(/^VOTE#reaction2#/);
    expect(items[1]?.Update?.Key).toEqual({ pk: 'URL#/a', sk: 'PAGE' });
    expect(ddb.commandCalls(GetCommand)[0]?.args[0].input.ConsistentRead).toBe(true);
  });

  it('retries a pageview that collided with a comment transaction on the same page', async () => {
    const conflict = new TransactionConflictException({ message: 'conflict', $metadata: {} });
    ddb
      .on(UpdateCommand)
      .rejectsOnce(conflict)
      .resolves({ Attributes: { time: 7 } });

    const { status, body } = await call({ method: 'POST', path: '/api/article', body: { path: '/a' } });

    expect(status).toBe(200);
    expect(body.data).toEqual([{ time: 7 }]);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(2);
  });

  it('answers a submit as stored when a retried commit finds its own comment already there', async () => {
    const alreadyThere = new TransactionCanceledException({
      message: 'cancelled',
      $metadata: {},
      CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'ConditionalCheckFailed' }],
    });
    ddb.on(TransactWriteCommand).rejects(alreadyThere);

    const { status, body } = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'x', url: '/p' },
    });

    expect(status).toBe(200);
    expect(body.data.orig).toBe('x');
  });

  it('looks a brand-new comment up again before calling it missing when liking it', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [] })
      .resolves({ Items: [{ commentId: '01A', url: '/p', like: 0 }] });
    ddb.on(TransactWriteCommand).resolves({});

    const { status, body } = await call({ method: 'PUT', path: '/api/comment/01A', body: { like: true } });

    expect(status).toBe(200);
    expect(body.data.like).toBe(1);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(2);
  });

  it('asks once for a type requested twice', async () => {
    ddb.on(BatchGetCommand).resolves({ Responses: {} });

    const { status, body } = await call({ path: '/api/article', query: 'path=%2Fa&type=time,time' });

    expect(status).toBe(200);
    expect(body.data).toEqual([{ time: 0 }]);
    const names =
      ddb.commandCalls(BatchGetCommand)[0]?.args[0].input.RequestItems?.['marginalia-test']
        ?.ExpressionAttributeNames;
    expect(Object.values(names ?? {})).toEqual(['pk', 'sk', 'time']);
  });
});
