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
import { createImportRepository } from '../../../../functions/shared/storage/import-repository.js';
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
    mock.on(GetCommand).resolves({ Item: { comments: 12, waiting: 1, spam: 0 } });
    // The page had one live comment; after the writes it has the two imported ones too.
    mock
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ status: 'approved' }] })
      .resolves({ Items: [{ status: 'approved' }, { status: 'approved' }, { status: 'waiting' }] });
    const plan = planImport({
      format: 'waline',
      comments: [comment('1', 'approved'), comment('2', 'waiting')],
      counters: [],
      skipped: [],
      notes: [],
    });

    const outcome = await runImport(plan, createImportRepository(client, 't'), silent);

    const queries = mock.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(queries).toHaveLength(2);
    for (const query of queries) {
      expect(query.IndexName).toBeUndefined();
      expect(query.ConsistentRead).toBe(true);
    }
    const [transaction] = mock.commandCalls(TransactWriteCommand);
    const [page, site] = transaction?.args[0].input.TransactItems ?? [];
    expect(page?.Update?.UpdateExpression).toMatch(/^SET /);
    expect(page?.Update?.ExpressionAttributeValues).toMatchObject({ ':comments': 2, ':roots': 2 });
    expect(site?.Update?.UpdateExpression).toMatch(/^ADD /);
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
