import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { monotonicFactory } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../../../functions/shared/domain/limits.js';
import { createDocumentClient } from '../../../../../functions/shared/dynamodb-client/client.js';
import { createListPage, type PageQuery } from '../../../../../functions/shared/table/list-page.js';
import { putAll } from '../../../../../scripts/shared/storage/bulk-writer.js';
import { commentItem } from '../../../../support/fake-comment-table.js';
import { createTestTable, type TestTable } from '../../../../support/test-table.js';

/** A request the list sent: its command, its input, and its round trip (as in fake-comment-table.ts). */
interface Sent {
  readonly command: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly input: Record<string, any>;
  readonly round: number;
}

/** Records every request `client` sends from now on, with its round trip. */
function recordRequests(client: DynamoDBDocumentClient): Sent[] {
  const sent: Sent[] = [];
  let answered = 0;
  const send = client.send.bind(client) as (command: { input: object }) => Promise<unknown>;
  const recording = async (command: { input: object }) => {
    const round = answered + 1;
    sent.push({ command: command.constructor.name.replace(/Command$/, ''), input: command.input, round });
    try {
      return await send(command);
    } finally {
      answered = Math.max(answered, round);
    }
  };
  Object.defineProperty(client, 'send', { value: recording, writable: true, configurable: true });
  return sent;
}

/** The number of requests of each round trip. */
const perRound = (sent: readonly Sent[]) => {
  const rounds: number[] = [];
  for (const { round } of sent) rounds[round - 1] = (rounds[round - 1] ?? 0) + 1;
  return rounds;
};

const threadIds = (page: {
  threads: readonly { root: { id: string }; replies: readonly { id: string }[]; moreReplies: boolean }[];
}) => page.threads.map((thread) => [thread.root.id, thread.replies.map((reply) => reply.id)]);

describe('createListPage on DynamoDB Local', () => {
  let table: TestTable;
  let client: DynamoDBDocumentClient;
  // Ids in the order of writing, as the functions' ULIDs are.
  const nextId = monotonicFactory();
  const id = () => nextId(1_750_000_000_000);

  beforeAll(async () => {
    table = await createTestTable();
    client = createDocumentClient({ endpoint: table.endpoint });
  });
  afterAll(() => table.drop());

  /** Lists with a client of its own, whose requests are recorded. */
  const list = async (query: Partial<PageQuery> & { url: string }) => {
    const listClient = createDocumentClient({ endpoint: table.endpoint });
    const sent = recordRequests(listClient);
    const page = await createListPage(
      listClient,
      table.tableName,
    )({ page: 1, pageSize: 10, sortBy: 'insertedAt_desc', withHeld: false, ...query });
    return { page, sent };
  };

  it("reads a visitor's time-sorted page 1 in 4 requests and 2 round trips: its threads are one range Query", async () => {
    const url = '/span';
    const [r1, p, r2, w, r3] = [id(), id(), id(), id(), id()];
    const replies = { r1: [id(), id()], r3: [id()] };
    const heldReply = id();
    await putAll(client, table.tableName, [
      { pk: `URL#${url}`, sk: 'PAGE', comments: 7, roots: 4, held: 2, heldRoots: 1 },
      commentItem(url, r1),
      commentItem(url, p, { sticky: true }),
      commentItem(url, r2),
      commentItem(url, w, { status: 'waiting' }),
      commentItem(url, r3),
      ...replies.r1.map((reply) => commentItem(url, reply, { rid: r1 })),
      ...replies.r3.map((reply) => commentItem(url, reply, { rid: r3 })),
      commentItem(url, heldReply, { rid: r1, status: 'waiting' }),
    ]);

    const newest = await list({ url });
    const oldest = await list({ url, sortBy: 'insertedAt_asc' });

    // The pinned root first; the waiting root inside the range and the held reply are nobody's here.
    expect(threadIds(newest.page)).toEqual([
      [p, []],
      [r3, replies.r3],
      [r2, []],
      [r1, replies.r1],
    ]);
    expect(threadIds(oldest.page)).toEqual([
      [p, []],
      [r1, replies.r1],
      [r2, []],
      [r3, replies.r3],
    ]);
    for (const { sent } of [newest, oldest]) {
      expect(sent.map(({ command }) => command)).toEqual(['Get', 'Query', 'Query', 'Query']);
      expect(perRound(sent)).toEqual([3, 1]);
      expect(sent[3]?.input.ExpressionAttributeValues).toMatchObject({
        ':from': `C#${r1}`,
        ':to': `C#${r3}#\uffff`,
      });
    }
  });

  it('goes on within its own range in the thread where the range Query stopped, and reads the roots it did not reach alone', async () => {
    const url = '/span-long';
    const a = id();
    const aReplies = Array.from({ length: 150 }, () => id());
    const rootB = id();
    const bReplies = [id(), id()];
    await putAll(client, table.tableName, [
      { pk: `URL#${url}`, sk: 'PAGE', comments: 154, roots: 2 },
      commentItem(url, a),
      ...aReplies.map((reply) => commentItem(url, reply, { rid: a })),
      commentItem(url, rootB),
      ...bReplies.map((reply) => commentItem(url, reply, { rid: rootB })),
    ]);

    const { page, sent } = await list({ url, pageSize: 2 });

    expect(threadIds(page)).toEqual([
      [rootB, bReplies],
      [a, aReplies],
    ]);
    expect(page.threads.map((thread) => thread.moreReplies)).toEqual([false, false]);
    // The range Query: both roots, 100 replies between them; it stops in the thread of a, before b.
    expect(sent[3]?.input).toMatchObject({
      ExpressionAttributeValues: { ':from': `C#${a}`, ':to': `C#${rootB}#\uffff` },
      Limit: 2 + limits.listFirstReadReplies,
    });
    // Then b on its own, then a from where the range Query stopped, within its thread's range.
    expect(
      sent.slice(4).map(({ input }) => [input.ExpressionAttributeValues, input.ExclusiveStartKey]),
    ).toEqual([
      [{ ':pk': `URL#${url}`, ':from': `C#${rootB}`, ':to': `C#${rootB}#\uffff` }, undefined],
      [
        { ':pk': `URL#${url}`, ':from': `C#${a}`, ':to': `C#${a}#\uffff` },
        { pk: `URL#${url}`, sk: `C#${a}#${aReplies[100]}` },
      ],
    ]);
    expect(perRound(sent)).toEqual([3, 1, 1, 1]);
  });

  it("reads an administrator's held replies with one more range Query beside the visible one", async () => {
    const url = '/span-held';
    const r1 = id();
    const approved = id();
    const held = [id(), id()];
    const r2 = id();
    const spam = id();
    await putAll(client, table.tableName, [
      { pk: `URL#${url}`, sk: 'PAGE', comments: 3, roots: 2, held: 3 },
      commentItem(url, r1),
      commentItem(url, approved, { rid: r1 }),
      ...held.map((reply) => commentItem(url, reply, { rid: r1, status: 'waiting' })),
      commentItem(url, r2),
      commentItem(url, spam, { rid: r2, status: 'spam' }),
    ]);

    const { page, sent } = await list({ url, withHeld: true, consistent: true });

    expect(threadIds(page)).toEqual([
      [r2, [spam]],
      [r1, [approved, ...held]],
    ]);
    // The counters, six roots-index partitions, then the visible and the held range.
    expect(perRound(sent)).toEqual([7, 2]);
    expect(sent.slice(7).map(({ input }) => [input.ExpressionAttributeValues, input.Limit])).toEqual([
      [{ ':pk': `URL#${url}`, ':from': `C#${r1}`, ':to': `C#${r2}#\uffff` }, 2 + limits.listFirstReadReplies],
      [{ ':pk': `URL#${url}`, ':from': `H#${r1}#`, ':to': `H#${r2}#\uffff` }, limits.listFirstReadReplies],
    ]);
  });
});
