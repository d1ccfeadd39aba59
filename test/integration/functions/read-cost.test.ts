import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../../functions/shared/auth/token.js';
import type { CommentStatus, StoredComment } from '../../../functions/shared/domain/comment.js';
import { limits } from '../../../functions/shared/domain/limits.js';
import { renderMarkdown } from '../../../functions/shared/domain/render-markdown.js';
import { createDocumentClient } from '../../../functions/shared/dynamodb-client/client.js';
import { createCommentRepository } from '../../../functions/shared/table/comment-repository.js';
import { createModerationRepository } from '../../../functions/shared/table/moderation-repository.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

/** What a request consumed, as DynamoDB answered it, and the index it asked. */
interface Consumed {
  readonly command: string;
  readonly index?: string;
  readonly units: number;
}

/**
 * A document client that asks DynamoDB for the capacity of each request it sends (ReturnConsumedCapacity)
 * and records it: what the read units of a read are, measured by the engine rather than estimated.
 */
function recordingClient(endpoint: string): { client: DynamoDBDocumentClient; consumed: Consumed[] } {
  const client = createDocumentClient({ endpoint });
  const consumed: Consumed[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string; IndexName?: string };
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const answered = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] })
        .ConsumedCapacity;
      const units = [answered ?? []].flat().reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
      consumed.push({
        command: context.commandName ?? 'unknown',
        ...(input.IndexName ? { index: input.IndexName } : {}),
        units,
      });
      return result;
    },
    { step: 'initialize', name: 'recordConsumedCapacity' },
  );
  return { client, consumed };
}

/** The read units of everything recorded since `from`. */
const unitsSince = (consumed: Consumed[], from: number) =>
  consumed.slice(from).reduce((sum, entry) => sum + entry.units, 0);

/** The most read units one recent list, site feed or moderation page may cost, whatever is stored. */
const boundedUnits =
  // The texts: their byte budget, in units of 4 KB at half a unit each (eventually consistent reads)...
  limits.textReadBytes / 4096 / 2 +
  // ...and the cards of 50 comments, a few KB each, read in one Query.
  8;

// The case of the issue: 50 comments of the largest text of `&` a visitor may post, each stored with its HTML
// (`&amp;` five times over), about 370 KB an item. Storing 100 of them takes a while on DynamoDB Local.
describe('reads whose cost what is stored cannot raise', { timeout: 120_000 }, () => {
  let table: TestTable;
  let recorder: ReturnType<typeof recordingClient>;
  let api: ReturnType<typeof createLocalApi>;
  let token: string;
  const jwt = 'read-cost-secret-0123456789abcdef';
  const approved: string[] = [];
  const waiting: string[] = [];

  beforeAll(async () => {
    table = await createTestTable();
    recorder = recordingClient(table.endpoint);
    const writer = createCommentRepository(
      createDocumentClient({ endpoint: table.endpoint }),
      table.tableName,
    );
    const orig = '&'.repeat(60_000);
    const html = renderMarkdown(orig);
    expect(Buffer.byteLength(orig) + Buffer.byteLength(html)).toBeGreaterThan(350_000);
    let time = 1_700_000_000_000;
    const store = async (status: CommentStatus, index: number) => {
      time += 1000;
      const comment: StoredComment = {
        id: ulid(time),
        url: `/post-${index % 5}`,
        nick: 'Amp',
        mail: 'amp@example.com',
        link: '',
        ua: '',
        ipHash: 'h',
        browser: '',
        os: '',
        orig,
        html,
        status,
        like: 0,
        sticky: false,
        insertedAt: time,
      };
      expect(await writer.insert(comment, { contentHash: comment.id })).toEqual({ ok: true });
      (status === 'approved' ? approved : waiting).push(comment.id);
    };
    for (let i = 0; i < 50; i += 5) {
      await Promise.all([0, 1, 2, 3, 4].map((j) => store('approved', i + j)));
      await Promise.all([0, 1, 2, 3, 4].map((j) => store('waiting', i + j)));
    }
    // The real handlers, their repositories on the recording client, no list cache: every request reads.
    api = createLocalApi(
      table,
      { JWT_TOKEN: jwt, LIST_CACHE_MS: '0' },
      {
        comments: createCommentRepository(recorder.client, table.tableName),
        moderation: createModerationRepository(recorder.client, table.tableName),
      },
    );
    await api.services.accounts.create({
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      id: '01ADMIN',
      email: 'admin@example.com',
      displayName: 'Admin',
      passwordHash: 'not used: the token is signed here',
      createdAt: 0,
    });
    token = await signToken(jwt, { sub: '01ADMIN', email: 'admin@example.com', exp: 4_000_000_000 });
  }, 120_000);
  afterAll(async () => {
    recorder?.client.destroy();
    await table?.drop();
  });

  /** Sends one request and returns its answer with the read units its DynamoDB requests consumed. */
  const measured = async (spec: Parameters<typeof api.call>[0]) => {
    const from = recorder.consumed.length;
    const answer = await api.call(spec);
    return { answer, units: unitsSince(recorder.consumed, from), requests: recorder.consumed.slice(from) };
  };

  it('reads 50 recent comments of maximum-size texts for a few read units, from the approved cards', async () => {
    const { answer, units, requests } = await measured({
      path: '/api/comment',
      query: 'type=recent&count=50',
    });

    expect(answer.status).toBe(200);
    expect(answer.body.data.map((comment: { objectId: string }) => comment.objectId)).toEqual(
      [...approved].sort().reverse(),
    );
    expect(units).toBeGreaterThan(0);
    expect(units).toBeLessThanOrEqual(boundedUnits);
    // (DynamoDB Local pages an index Query as if its items were whole comments: several Queries here, one on AWS.)
    expect(new Set(requests.map((request) => request.index).filter(Boolean))).toEqual(
      new Set(['approved-by-time']),
    );
  });

  it('builds the site feed of 50 such comments for a few read units', async () => {
    const { answer, units } = await measured({ path: '/api/comment/rss', query: 'count=50' });

    expect(answer.status).toBe(200);
    expect(String(answer.body).match(/<item>/g)).toHaveLength(50);
    expect(units).toBeGreaterThan(0);
    expect(units).toBeLessThanOrEqual(boundedUnits);
  });

  it('reads a moderation page of 50 such waiting comments for a few read units, from the held cards alone', async () => {
    const { answer, units, requests } = await measured({
      path: '/api/comment',
      query: 'type=list&status=waiting&pageSize=50',
      headers: { authorization: `Bearer ${token}` },
    });

    expect(answer.body.errmsg).toBe('');
    expect(answer.body.data.data.map((comment: { objectId: string }) => comment.objectId)).toEqual(
      [...waiting].sort().reverse(),
    );
    expect(units).toBeGreaterThan(0);
    expect(units).toBeLessThanOrEqual(boundedUnits);
    // The queue has an index of its own: the public reads' capacity is not its.
    expect(new Set(requests.map((request) => request.index).filter(Boolean))).toEqual(
      new Set(['held-by-time']),
    );
  });
});
