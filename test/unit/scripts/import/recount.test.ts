import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createImportRepository } from '../../../../scripts/shared/storage/import-repository.js';
import { planImport } from '../../../../scripts/import/plan.js';
import { runImport } from '../../../../scripts/import/run-import.js';
import type { SourceComment } from '../../../../scripts/import/source.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const silent = () => ({ update: () => {}, finish: () => {} });
const comment = (sourceId: string, status: SourceComment['status']): SourceComment => ({
  ref: sourceId,
  sourceId,
  url: '/p/',
  nick: `n${sourceId}`,
  mail: '',
  link: '',
  ua: '',
  ip: '',
  text: `text ${sourceId}`,
  status,
  like: 0,
  sticky: false,
  insertedAt: 1_700_000_000_000 + Number(sourceId),
});

describe('the counters of an import', () => {
  it('counts from the base table with consistent reads and adds the gain to the site', async () => {
    const mock = mockClient(client);
    mock.on(BatchGetCommand).resolves({ Responses: { t: [] } });
    mock.on(BatchWriteCommand).resolves({ UnprocessedItems: {} });
    mock.on(TransactWriteCommand).resolves({});
    mock.on(UpdateCommand).resolves({});
    // The site item: its counters, and the layout this code writes (else the import refuses to start).
    mock.on(GetCommand).resolves({ Item: { comments: 12, waiting: 1, spam: 0, layout: 3 } });
    // The page had one live root and a spam reply (held, under H#); after the writes it has the two
    // imported roots too, the waiting one under C# like every root.
    const range = (prefix: string) => ({ ExpressionAttributeValues: { ':from': prefix } });
    mock
      .on(QueryCommand, range('C#'))
      .resolvesOnce({ Items: [{ status: 'approved', insertedAt: 500 }] })
      .resolves({
        Items: [
          { status: 'approved', insertedAt: 500 },
          { status: 'approved', insertedAt: 300 },
          { status: 'waiting', insertedAt: 100 },
        ],
      });
    mock.on(QueryCommand, range('H#')).resolves({ Items: [{ status: 'spam', rid: '0X', insertedAt: 700 }] });
    const plan = planImport({
      format: 'waline',
      comments: [comment('1', 'approved'), comment('2', 'waiting')],
      counters: [],
      skipped: [],
      notes: [],
    });

    const outcome = await runImport(plan, createImportRepository(client, 't'), silent);

    const queries = mock.commandCalls(QueryCommand).map((call) => call.args[0].input);
    // Before and after the writes: the visible range and the held range of the article, in full.
    expect(queries.map((query) => query.ExpressionAttributeValues)).toEqual(
      [1, 2].flatMap(() => [
        { ':pk': 'URL#/p/', ':from': 'C#', ':to': 'C#\uffff' },
        { ':pk': 'URL#/p/', ':from': 'H#', ':to': 'H#\uffff' },
      ]),
    );
    for (const query of queries) {
      expect(query.IndexName).toBeUndefined();
      expect(query.ConsistentRead).toBe(true);
      expect(query.KeyConditionExpression).toBe('#pk = :pk AND #sk BETWEEN :from AND :to');
      expect(query.ProjectionExpression).toBe('#p0, #p1, #p2');
      expect(query.ExpressionAttributeNames).toMatchObject({
        '#p0': 'status',
        '#p1': 'rid',
        '#p2': 'insertedAt',
      });
    }
    const [transaction] = mock.commandCalls(TransactWriteCommand);
    const [page, site] = transaction?.args[0].input.TransactItems ?? [];
    expect(page?.Update?.UpdateExpression).toMatch(/^SET /);
    // Held: the waiting root and the spam reply; held roots: the waiting root.
    expect(page?.Update?.ExpressionAttributeValues).toMatchObject({
      ':comments': 2,
      ':roots': 2,
      ':held': 2,
      ':heldRoots': 1,
      // The oldest approved comment the page holds after the import, imported or live: READONLY_AGE counts
      // from it (the waiting root, older, and the spam reply date nothing).
      ':first': 300,
    });
    expect(page?.Update?.UpdateExpression).toContain(', #first = :first REMOVE #before');
    expect(page?.Update?.ExpressionAttributeNames).toMatchObject({ '#first': 'firstCommentAt' });
    // The counts kept on the page until they are stored are the counts alone.
    const [kept] = mock
      .commandCalls(UpdateCommand)
      .map((call) => call.args[0].input.ExpressionAttributeValues);
    expect(kept?.[':counts']).toEqual({ comments: 1, roots: 1, waiting: 0, spam: 1, heldRoots: 0 });
    expect(site?.Update?.UpdateExpression).toMatch(/^ADD /);
    expect(site?.Update?.ConditionExpression).toBe('attribute_not_exists(#layoutPk) OR #layout = :layout');
    expect(site?.Update?.ExpressionAttributeValues).toMatchObject({ ':layout': 3 });
    expect(
      Object.fromEntries(
        Object.entries(site?.Update?.ExpressionAttributeNames ?? {})
          .filter(([name]) => name.startsWith('#c'))
          .map(([name, attribute]) => [
            attribute,
            site?.Update?.ExpressionAttributeValues?.[`:${name.slice(1)}`],
          ]),
      ),
    ).toEqual({ comments: 1, waiting: 1 });
    expect(outcome.site).toEqual({ comments: 12, waiting: 1, spam: 0 });
    mock.restore();
  });
});
