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
import { signToken } from '../../../functions/shared/auth/token.js';
import type { HttpHandler } from '../../../functions/shared/http/http-types.js';
import { createLocalFunctions } from '../../../scripts/local-functions.js';
import { byRound, commentItem, serveCommentTable } from '../../support/fake-comment-table.js';
import { buildEvent, type EventSpec, testContext } from '../../support/http-event.js';
import { testConfig } from '../../support/test-config.js';
import { listedAttributeNames } from '../../support/listed-attributes.js';

const ddb = mockClient(DynamoDBDocumentClient);
const now = 1_800_000_000_000;
const secret = 's'.repeat(32);
const admin = {
  id: 'admin-1',
  email: 'admin@example.com',
  displayName: 'Admin',
  passwordHash: 'x',
  createdAt: 1,
};
const adminToken = await signToken(secret, { sub: admin.id, email: admin.email, exp: now / 1000 + 3600 });

let comment: HttpHandler;
let article: HttpHandler;

/** A new instance (a cold start): its first layout-bound read checks the table's layout once. */
function startInstance() {
  // The round trips of each request itself: the list cache (cached-reads.test.ts) is off.
  const { handlers } = createLocalFunctions(testConfig({ LIST_CACHE_MS: '0' }), {
    comment: {
      now: () => now,
      tokenSecret: async () => secret,
      accounts: {
        findById: async (id: string) =>
          id === admin.id
            ? { ...admin, type: 'administrator', state: 'active', sessionVersion: 0 }
            : undefined,
      } as never,
    },
  });
  ({ comment, article } = handlers);
}

const call = async (spec: EventSpec) => {
  const handler = spec.path.includes('article') ? article : comment;
  const response = await handler(buildEvent(spec), testContext);
  return { status: response.statusCode, body: JSON.parse(response.body) };
};

const listedProjection = {
  ProjectionExpression: listedAttributeNames.map((_, i) => `#p${i}`).join(', '),
  ExpressionAttributeNames: {
    ...Object.fromEntries(listedAttributeNames.map((name, i) => [`#p${i}`, name])),
    '#pk': 'pk',
    '#sk': 'sk',
  },
};

const layoutCheck = {
  TableName: 'marginalia-test',
  Key: { pk: 'SITE', sk: 'SITE' },
  ProjectionExpression: '#p0',
  ExpressionAttributeNames: { '#p0': 'layout' },
};
const pageCounters = (url: string) => ({
  TableName: 'marginalia-test',
  Key: { pk: `URL#${url}`, sk: 'PAGE' },
  ProjectionExpression: '#p0, #p1, #p2, #p3',
  ExpressionAttributeNames: { '#p0': 'comments', '#p1': 'roots', '#p2': 'held', '#p3': 'heldRoots' },
});
const rootsQuery = (partition: string, limit: number) => ({
  TableName: 'marginalia-test',
  IndexName: 'roots-by-time',
  KeyConditionExpression: '#roots = :partition',
  ProjectionExpression: '#p0',
  ExpressionAttributeNames: { '#roots': 'rootsPk', '#p0': 'sk' },
  ExpressionAttributeValues: { ':partition': partition },
  ScanIndexForward: false,
  Limit: limit,
});
const rangeQuery = (from: string, to: string, limit: number) => ({
  TableName: 'marginalia-test',
  KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
  ...listedProjection,
  ExpressionAttributeValues: { ':pk': 'URL#/p', ':from': from, ':to': to },
  Limit: limit,
});
/**
 * The first read of a thread: its root and a share of limits.listFirstReadReplies (100) replies, at
 * least one, split between the page's threads: 10 each on a page of 10.
 */
const threadQuery = (rootId: string, replies = 10) =>
  rangeQuery(`C#${rootId}`, `C#${rootId}#\uffff`, 1 + replies);
/**
 * The first read of a time-sorted page's threads: one Query from its oldest root's thread to its newest's,
 * stopped at its roots and limits.listFirstReadReplies (100) replies; the held part holds no root.
 */
const spanQuery = (first: string, last: string, roots: number) =>
  rangeQuery(`C#${first}`, `C#${last}#\uffff`, roots + 100);
const heldSpanQuery = (first: string, last: string) => rangeQuery(`H#${first}#`, `H#${last}#\uffff`, 100);

/** An article with a pinned root, three roots, an approved and a held reply, and a waiting root. */
const articleItems = () => [
  { pk: 'SITE', sk: 'SITE', entity: 'site', layout: 3, comments: 5, waiting: 2 },
  { pk: 'URL#/p', sk: 'PAGE', entity: 'page', comments: 5, roots: 4, held: 2, heldRoots: 1 },
  commentItem('/p', '01A'),
  commentItem('/p', '01C', { nick: 'Cy' }),
  commentItem('/p', '01P', { sticky: true }),
  commentItem('/p', '01B'),
  commentItem('/p', '01D', { rid: '01A' }),
  commentItem('/p', '01E', { rid: '01A', pid: '01D', status: 'waiting', nick: 'Held' }),
  commentItem('/p', '01W', { status: 'waiting', nick: 'Wes' }),
];

type ListAnswer = {
  count: number;
  totalPages: number;
  data: { objectId: string; children: { objectId: string }[] }[];
};
const shape = (answer: ListAnswer) =>
  answer.data.map((root) => [root.objectId, root.children.map((child) => child.objectId)]);

describe('DynamoDB round trips per operation', () => {
  beforeEach(() => {
    ddb.reset();
    startInstance();
  });
  afterEach(() => ddb.reset());

  it('lists page 1 in two rounds and 4 requests: counters and root keys (and the layout, once an instance), then one range Query of its threads', async () => {
    const sent = serveCommentTable(
      ddb,
      articleItems().filter((item) => item.sk !== 'C#01P'),
    );

    const { status, body } = await call({ path: '/api/comment', query: 'path=%2Fp' });

    expect(status).toBe(200);
    expect(shape(body.data)).toEqual([
      ['01C', []],
      ['01B', []],
      ['01A', ['01D']],
    ]);
    expect(body.data).toMatchObject({ count: 5, totalPages: 1 });
    const [first, second, ...more] = byRound(sent);
    expect(more).toEqual([]);
    expect(first?.map(({ command, input }) => [command, input])).toEqual([
      ['GetItem', layoutCheck],
      ['GetItem', pageCounters('/p')],
      ['Query', rootsQuery('R#approved#pinned#/p', 10)],
      ['Query', rootsQuery('R#approved#flow#/p', 10)],
    ]);
    // The page's roots are neighbours in the table (ids are ULIDs): one Query reads their threads, the
    // waiting root 01W past them left out.
    expect(second?.map(({ command, input }) => [command, input])).toEqual([
      ['Query', spanQuery('01A', '01C', 3)],
    ]);
    // A visitor's list reads nothing held: no H# range, no waiting or spam partition, no consistent read.
    expect(JSON.stringify(sent)).not.toMatch(/H#|R#waiting|R#spam|ConsistentRead/);
    expect(JSON.stringify(body)).not.toMatch(/Held|Wes|@example\.com|ipHash|hash-of-the-ip/);
  });

  it("reads a pinned root outside the range of the page's other roots with a Query of its own, beside the range Query", async () => {
    const sent = serveCommentTable(ddb, articleItems());

    const { body } = await call({ path: '/api/comment', query: 'path=%2Fp' });

    expect(shape(body.data)).toEqual([
      ['01P', []],
      ['01C', []],
      ['01B', []],
      ['01A', ['01D']],
    ]);
    const [, second, ...more] = byRound(sent);
    expect(more).toEqual([]);
    expect(second?.map(({ input }) => input)).toEqual([threadQuery('01P'), spanQuery('01A', '01C', 3)]);
  });

  it('checks the layout only on the first list of an instance', async () => {
    const sent = serveCommentTable(ddb, articleItems());

    await call({ path: '/api/comment', query: 'path=%2Fp' });
    const before = sent.length;
    await call({ path: '/api/comment', query: 'path=%2Fp' });

    const again = sent.slice(before);
    expect(again.filter(({ input }) => input.Key?.pk === 'SITE')).toEqual([]);
    // The counters, the roots index, and the threads: the pinned root's and the range of the others.
    expect(again.map(({ command }) => command)).toEqual(['GetItem', 'Query', 'Query', 'Query', 'Query']);
  });

  it('lists page 2 from the keys of the roots up to its end and the threads of its own roots only', async () => {
    const items = articleItems();
    const sent = serveCommentTable(ddb, items);

    const { body } = await call({ path: '/api/comment', query: 'path=%2Fp&page=2&pageSize=2' });

    // Pinned first, then newest first: 01P, 01C | 01B, 01A.
    expect(shape(body.data)).toEqual([
      ['01B', []],
      ['01A', ['01D']],
    ]);
    expect(body.data).toMatchObject({ page: 2, totalPages: 2, count: 5 });
    const [first, second] = byRound(sent);
    expect(first?.filter(({ command }) => command === 'Query').map(({ input }) => input)).toEqual([
      rootsQuery('R#approved#pinned#/p', 4),
      rootsQuery('R#approved#flow#/p', 4),
    ]);
    expect(second?.map(({ input }) => input)).toEqual([spanQuery('01A', '01B', 2)]);
  });

  it('reads the roots index and the threads on when a Query stops short of its Limit', async () => {
    const sent = serveCommentTable(
      ddb,
      [
        ...articleItems().filter((item) => item.sk !== 'C#01P'),
        commentItem('/p', '01F', { rid: '01A' }),
        commentItem('/p', '01G', { rid: '01A' }),
      ],
      { itemsPerQuery: 2 },
    );

    const { body } = await call({ path: '/api/comment', query: 'path=%2Fp&pageSize=3' });

    expect(shape(body.data)).toEqual([
      ['01C', []],
      ['01B', []],
      ['01A', ['01D', '01F', '01G']],
    ]);
    const rounds = byRound(sent).map((round) => round.map(({ input }) => input));
    expect(rounds).toEqual([
      [
        layoutCheck,
        pageCounters('/p'),
        rootsQuery('R#approved#pinned#/p', 3),
        rootsQuery('R#approved#flow#/p', 3),
      ],
      // The flow partition had three roots; the first Query brought two.
      [{ ...rootsQuery('R#approved#flow#/p', 1), ExclusiveStartKey: { pk: 'URL#/p', sk: 'C#01B' } }],
      // The range Query of the page's threads stopped in the thread of 01A, after its root and a reply.
      [spanQuery('01A', '01C', 3)],
      // The roots it did not reach, each with its share of a page of 3 (33 replies).
      [threadQuery('01C', 33), threadQuery('01B', 33)],
      // The thread of 01A is four items: it goes on from the reply, within its range, up to 200 replies.
      [{ ...threadQuery('01A'), Limit: 199, ExclusiveStartKey: { pk: 'URL#/p', sk: 'C#01A#01D' } }],
    ]);
  });

  it('lists for an administrator from every status partition, with one held range Query beside the range Query', async () => {
    const sent = serveCommentTable(ddb, articleItems());

    const { body } = await call({
      path: '/api/comment',
      query: 'path=%2Fp',
      headers: { authorization: `Bearer ${adminToken}` },
    });

    expect(shape(body.data)).toEqual([
      ['01P', []],
      ['01W', []],
      ['01C', []],
      ['01B', []],
      ['01A', ['01D', '01E']],
    ]);
    // Counters and roots with the held ones: 5 + 2 comments, 4 + 1 roots.
    expect(body.data).toMatchObject({ count: 7, totalPages: 1 });
    const [first, second, ...more] = byRound(sent);
    expect(more).toEqual([]);
    expect(first?.map(({ input }) => input)).toEqual([
      layoutCheck,
      pageCounters('/p'),
      ...['pinned', 'flow'].flatMap((pinned) =>
        ['approved', 'waiting', 'spam'].map((status) => rootsQuery(`R#${status}#${pinned}#/p`, 10)),
      ),
    ]);
    // The pinned 01P lies between the page's other roots: the one range holds every thread of the page.
    expect(second?.map(({ input }) => input)).toEqual([
      spanQuery('01A', '01W', 5),
      heldSpanQuery('01A', '01W'),
    ]);
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

  it('reads recent comments in two rounds: the cards of approved-by-time (beside the layout check of a new instance), then their texts', async () => {
    const sent = serveCommentTable(ddb, [
      ...articleItems(),
      { pk: 'SITE', sk: 'SITE', entity: 'site', layout: 3 },
    ]);

    const { body } = await call({ path: '/api/comment', query: 'type=recent&count=2' });

    expect(body.data.map((c: { objectId: string; orig: string }) => [c.objectId, c.orig])).toEqual([
      ['01P', 'text of 01P'],
      ['01D', 'text of 01D'],
    ]);
    expect(byRound(sent).map((round) => round.map(({ command }) => command))).toEqual([
      ['GetItem', 'Query'],
      ['BatchGetItem'],
    ]);
    expect(sent.find(({ command }) => command === 'Query')?.input).toMatchObject({
      IndexName: 'approved-by-time',
      ScanIndexForward: false,
      Limit: 2,
    });
  });

  it("reads a page's feed in one round: one Query of its visible range, backwards, beside the layout check of a new instance", async () => {
    const sent = serveCommentTable(ddb, articleItems());

    const response = await comment(buildEvent({ path: '/api/comment/rss', query: 'path=%2Fp' }), testContext);

    expect(response.statusCode).toBe(200);
    // The approved comments, newest id first (their dates are equal): no waiting root, no held reply.
    expect([...response.body.matchAll(/<guid isPermaLink="false">(\w+)</g)].map((match) => match[1])).toEqual(
      ['01P', '01D', '01C', '01B', '01A'],
    );
    expect(byRound(sent).map((round) => round.map(({ command }) => command))).toEqual([['GetItem', 'Query']]);
    expect(sent.find(({ command }) => command === 'Query')?.input).toMatchObject({
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': 'URL#/p',
        ':from': 'C#',
        ':to': 'C#\uffff',
        ':approved': 'approved',
      },
      ScanIndexForward: false,
      Limit: 100,
    });
  });

  it("reads the site's feed as the recent comments: their cards, then their texts", async () => {
    const sent = serveCommentTable(ddb, articleItems());

    const response = await comment(buildEvent({ path: '/comment/rss' }), testContext);

    expect(response.statusCode).toBe(200);
    expect(byRound(sent).map((round) => round.map(({ command }) => command))).toEqual([
      ['GetItem', 'Query'],
      ['BatchGetItem'],
    ]);
    expect(sent.find(({ command }) => command === 'Query')?.input).toMatchObject({
      IndexName: 'approved-by-time',
      ScanIndexForward: false,
      Limit: 20,
    });
  });

  it('submits a root in two round trips: one BatchGetItem of its marks, then one TransactWriteItems', async () => {
    const sent = serveCommentTable(ddb, []);

    const { status, body } = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'x', url: '/p', mail: 'Ann@Example.com' },
    });

    expect(status).toBe(200);
    expect(body.data).not.toHaveProperty('reply_user');
    const rounds = byRound(sent).map((round) => round.map(({ command }) => command));
    expect(rounds).toEqual([['BatchGetItem'], ['TransactWriteItems']]);
    // The IP's rate mark, the content's duplicate mark and the mail's administrator account, in one read.
    const keys = sent[0]?.input.RequestItems['marginalia-test'].Keys;
    expect(keys).toEqual([
      { pk: expect.stringMatching(/^IP#/), sk: 'RATE' },
      { pk: 'URL#/p', sk: expect.stringMatching(/^DUP#/) },
      { pk: 'EMAIL#ann@example.com', sk: 'USER' },
    ]);
    // The transaction writes the same duplicate mark the read looked for.
    expect(sent[1]?.input.TransactItems[1].Put.Item.sk).toBe(keys[1].sk);
  });

  it('submits a reply with one TransactWriteItems holding every guard and counter after reading its marks, and reads its parent beside it', async () => {
    const sent = serveCommentTable(ddb, [
      commentItem('/p', '01A'),
      commentItem('/p', '01B', { rid: '01A', nick: 'Bea' }),
    ]);

    const { status, body } = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'hello', url: '/p', nick: 'Bob', pid: '01B', rid: '01A' },
    });

    expect(status).toBe(200);
    expect(body.data.reply_user).toMatchObject({ nick: 'Bea', link: '' });
    // The marks first; the parent's read goes out with the transaction, not after it. A visitor's reply
    // looks for its parent only where visitors' comments are: never in a held place.
    const [marks, round, ...more] = byRound(sent);
    expect(more).toEqual([]);
    expect(marks?.map(({ command }) => command)).toEqual(['BatchGetItem']);
    expect(round?.map(({ command }) => command)).toEqual(['TransactWriteItems', 'GetItem']);
    expect(round?.slice(1).map(({ input }) => [input.Key, input.ConsistentRead])).toEqual([
      [{ pk: 'URL#/p', sk: 'C#01A#01B' }, true],
    ]);
    const items = round?.[0]?.input.TransactItems ?? [];
    expect(items.map((item: object) => Object.keys(item)[0])).toEqual([
      'Put',
      'Put',
      'Put',
      'ConditionCheck',
      'ConditionCheck',
      'Update',
      'Update',
      'Put',
    ]);
    // The outbox event of the new comment, committed with it (issue 15: nothing to notify is ever lost).
    expect(items[7]?.Put?.Item).toMatchObject({
      entity: 'outbox',
      cause: 'comment.submitted',
      state: 'pending',
    });
    // An approved reply sits under its root, visible; only roots carry the roots-index partition.
    expect(items[0]?.Put?.Item?.sk).toBe(`C#01A#${body.data.objectId}`);
    expect(items[0]?.Put?.Item).not.toHaveProperty('rootsPk');
    expect(items[0]?.Put?.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(items[1]?.Put?.Item?.sk).toMatch(/^DUP#/);
    expect(items[1]?.Put?.Item).not.toHaveProperty('commentId');
    expect(items[2]?.Put?.Item?.pk).toMatch(/^IP#/);
    expect(items[2]?.Put?.ExpressionAttributeValues).toEqual({ ':cutoff': now - 60_000 });
    // A visitor's reply: the root must be one visitors can see.
    expect(items[3]?.ConditionCheck).toMatchObject({
      Key: { pk: 'URL#/p', sk: 'C#01A' },
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rid) AND #status = :approved',
      ExpressionAttributeValues: { ':approved': 'approved' },
    });
    expect(items[4]?.ConditionCheck).toMatchObject({
      Key: { pk: 'URL#/p', sk: 'C#01A#01B' },
      ConditionExpression: 'attribute_exists(pk)',
    });
    expect(items[5]?.Update?.Key).toEqual({ pk: 'URL#/p', sk: 'PAGE' });
    // An approved reply adds to the visible comments but not to the roots, and starts the article's clock if first.
    expect(items[5]?.Update?.UpdateExpression).toBe(
      'ADD #c0 :c0 SET #s0 = :s0, #s1 = :s1, #f0 = if_not_exists(#f0, :f0)',
    );
    expect(items[5]?.Update?.ExpressionAttributeNames).toMatchObject({ '#c0': 'comments' });
    expect(items[5]?.Update?.ExpressionAttributeValues).toMatchObject({ ':c0': 1 });
    expect(items[6]?.Update).toMatchObject({
      Key: { pk: 'SITE', sk: 'SITE' },
      ConditionExpression: 'attribute_not_exists(#layoutPk) OR #layout = :layout',
      ExpressionAttributeValues: { ':layout': 3 },
    });
  });

  it('submits a reply to a held reply with a second transaction that checks the parent where it is held', async () => {
    const sent = serveCommentTable(ddb, [
      commentItem('/p', '01A'),
      commentItem('/p', '01B', { rid: '01A', status: 'waiting', nick: 'Bea' }),
    ]);
    const parentMissing = new TransactionCanceledException({
      message: 'cancelled',
      $metadata: {},
      // An administrator's reply has no rate mark: comment, duplicate mark, root check, parent check, counters.
      CancellationReasons: [
        { Code: 'None' },
        { Code: 'None' },
        { Code: 'None' },
        { Code: 'ConditionalCheckFailed' },
        { Code: 'None' },
        { Code: 'None' },
      ],
    });
    ddb.on(TransactWriteCommand).rejectsOnce(parentMissing).resolves({});

    const { status, body } = await call({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'hello', url: '/p', pid: '01B', rid: '01A' },
      headers: { authorization: `Bearer ${adminToken}` },
    });

    expect(status).toBe(200);
    const transactions = ddb
      .commandCalls(TransactWriteCommand)
      .map((c) => c.args[0].input.TransactItems ?? []);
    expect(transactions.map((items) => items[3]?.ConditionCheck?.Key)).toEqual([
      { pk: 'URL#/p', sk: 'C#01A#01B' },
      { pk: 'URL#/p', sk: 'H#01A#01B' },
    ]);
    expect(sent.filter(({ command }) => command === 'GetItem')).toHaveLength(2);
    // The parent is held: nobody is shown whom the reply answers.
    expect(body.data).not.toHaveProperty('reply_user');
  });

  it('retries a submit transaction when it only lost a race with another transaction', async () => {
    const conflict = new TransactionCanceledException({
      message: 'conflict',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
    });
    ddb.on(BatchGetCommand).resolves({});
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

  it('likes a comment in two round trips: the id lookup (beside the layout check of a new instance) and one transaction', async () => {
    const sent = serveCommentTable(ddb, [
      { pk: 'SITE', sk: 'SITE', layout: 3 },
      commentItem('/p', '01A', { like: 4 }),
    ]);

    const { body } = await call({
      method: 'PUT',
      path: '/api/comment/01A',
      body: { like: true },
      headers: { authorization: 'Bearer undefined' },
    });

    expect(body).toEqual({ errno: 0, errmsg: '', data: { objectId: '01A', url: '/p', like: 5 } });
    const [lookup, write, ...more] = byRound(sent);
    expect(more).toEqual([]);
    expect(lookup?.map(({ input }) => input)).toEqual([
      layoutCheck,
      {
        TableName: 'marginalia-test',
        IndexName: 'by-id',
        KeyConditionExpression: '#id = :id',
        ExpressionAttributeNames: { '#id': 'commentId' },
        ExpressionAttributeValues: { ':id': '01A' },
        Limit: 1,
      },
    ]);
    const items = write?.[0]?.input.TransactItems ?? [];
    expect(items[0]?.Put?.Item?.sk).toMatch(/^VOTE#like#/);
    expect(items[1]?.Update?.Key).toEqual({ pk: 'URL#/p', sk: 'C#01A' });
  });

  it('likes a reply at its visible key, found from the sort key the id index holds', async () => {
    serveCommentTable(ddb, [commentItem('/p', '01A'), commentItem('/p', '01B', { rid: '01A', like: 1 })]);

    const { body } = await call({ method: 'PUT', path: '/api/comment/01B', body: { like: true } });

    expect(body.data).toEqual({ objectId: '01B', url: '/p', like: 2 });
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[1]?.Update).toMatchObject({
      Key: { pk: 'URL#/p', sk: 'C#01A#01B' },
      UpdateExpression: 'ADD #like :one',
      ConditionExpression: 'attribute_exists(pk) AND #status = :approved',
      ExpressionAttributeValues: { ':one': 1, ':approved': 'approved' },
    });
  });

  it('answers 404 to a like of a held reply: the vote goes to the visible key, where there is none', async () => {
    serveCommentTable(ddb, [
      commentItem('/p', '01A'),
      commentItem('/p', '01B', { rid: '01A', status: 'spam' }),
    ]);
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
      }),
    );

    const { status } = await call({ method: 'PUT', path: '/api/comment/01B', body: { like: true } });

    expect(status).toBe(404);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[1]?.Update?.Key).toEqual({ pk: 'URL#/p', sk: 'C#01A#01B' });
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
    ddb.on(BatchGetCommand).resolves({});
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
    ddb.on(GetCommand).resolves({ Item: { layout: 3 } });
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [] })
      .resolves({ Items: [{ commentId: '01A', url: '/p', like: 0, pk: 'URL#/p', sk: 'C#01A' }] });
    ddb.on(TransactWriteCommand).resolves({});

    const { status, body } = await call({ method: 'PUT', path: '/api/comment/01A', body: { like: true } });

    expect(status).toBe(200);
    expect(body.data.like).toBe(1);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(2);
    // The layout is checked once: the second lookup finds it remembered.
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
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
