import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  NumberValue,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';

/** A DynamoDB item, as the document client reads and writes it. */
export type Item = Record<string, unknown>;

/** A command the table received: its kind, its input, and the round trip it went out in. */
export interface SentCommand {
  readonly command: 'GetItem' | 'BatchGetItem' | 'Query' | 'TransactWriteItems';
  // The inputs differ by command; tests read the fields they assert.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly input: Record<string, any>;
  /**
   * 1 + the latest round trip answered before it was sent: commands that go out together (in
   * parallel) share a round, a command that waits for another one's answer is a round later.
   */
  readonly round: number;
}

/** A comment item as layout 2 keys it, written out by hand (not through keys.ts) so that tests pin the format. */
export function commentItem(
  url: string,
  id: string,
  extra: { rid?: string; pid?: string; status?: string; sticky?: boolean; like?: number; nick?: string } = {},
): Item {
  const status = extra.status ?? 'approved';
  const sticky = extra.sticky ?? false;
  const sk = extra.rid === undefined ? `C#${id}` : `${status === 'approved' ? 'C' : 'H'}#${extra.rid}#${id}`;
  return {
    pk: `URL#${url}`,
    sk,
    entity: 'comment',
    commentId: id,
    url,
    ...(extra.rid === undefined ? {} : { rid: extra.rid, pid: extra.pid ?? extra.rid }),
    nick: extra.nick ?? `nick-${id}`,
    mail: `${extra.nick ?? id}@example.com`,
    link: '',
    ua: 'Mozilla/5.0',
    ipHash: 'hash-of-the-ip',
    browser: 'Chrome120.0',
    os: 'Linux',
    orig: `text of ${id}`,
    html: `<p>text of ${id}</p>\n`,
    status,
    like: extra.like ?? 0,
    sticky,
    insertedAt: 1_700_000_000_000,
    textBytes: Buffer.byteLength(`text of ${id}`) + Buffer.byteLength(`<p>text of ${id}</p>\n`),
    ...(status === 'approved'
      ? { approvedPk: `STATUS#${status}`, approvedSk: id }
      : { heldPk: `STATUS#${status}`, heldSk: id }),
    ...(extra.rid === undefined
      ? {
          rootsPk: `R#${status}#${sticky ? 'pinned' : 'flow'}#${url}`,
          // The like count times 2^96 (these test ids are no ULIDs: nothing is added below it).
          likeSort: NumberValue.from((BigInt(extra.like ?? 0) * 2n ** 96n).toString()),
        }
      : {}),
  };
}

/** DynamoDB orders numbers by value (exactly, beyond 2^53 too) and strings by their UTF-8 bytes. */
const compareKeys = (a: unknown, b: unknown) => {
  if (a instanceof NumberValue && b instanceof NumberValue) {
    const difference = BigInt(a.toString()) - BigInt(b.toString());
    return difference < 0n ? -1 : difference > 0n ? 1 : 0;
  }
  return typeof a === 'number' && typeof b === 'number'
    ? a - b
    : Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
};

/**
 * The attributes of `row` a request's `ProjectionExpression` names (all of them without one), as the base
 * table returns them: its keys too only when named.
 */
const projected = (row: Item, input: Item): Item => {
  const expression = input.ProjectionExpression as string | undefined;
  if (expression === undefined) return row;
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const kept = expression.split(',').map((path) => {
    const name = path.trim();
    return names[name] ?? name;
  });
  return Object.fromEntries(Object.entries(row).filter(([name]) => kept.includes(name)));
};

/** Options of {@link serveCommentTable}. */
export interface FakeTableOptions {
  /** The most items one Query returns before it stops with a LastEvaluatedKey (DynamoDB's 1 MB). */
  readonly itemsPerQuery?: number;
}

/**
 * Answers GetItem, BatchGetItem, Query (base table ranges, with only the attributes their projection
 * names; the roots, by-id and recent indexes) and TransactWriteItems from `items` as DynamoDB would, each
 * answer one macrotask later, and records every command with its round trip. `items` is read at each
 * command: a test may change it between requests. Transactions succeed and write nothing.
 */
export function serveCommentTable(
  ddb: AwsClientStub<DynamoDBDocumentClient>,
  items: Item[],
  options: FakeTableOptions = {},
): SentCommand[] {
  const sent: SentCommand[] = [];
  let answered = 0;
  const answer = (command: SentCommand['command'], input: Item, output: () => unknown) => {
    const round = answered + 1;
    sent.push({ command, input, round });
    return new Promise((resolve, reject) =>
      setTimeout(() => {
        answered = Math.max(answered, round);
        try {
          resolve(output());
        } catch (error) {
          reject(error);
        }
      }, 0),
    );
  };

  const page = (rows: Item[], input: Item, keyOf: (row: Item) => Item) => {
    const start = input.ExclusiveStartKey as Item | undefined;
    const from = start ? rows.findIndex((row) => row.pk === start.pk && row.sk === start.sk) + 1 : 0;
    const limit = Math.min(
      typeof input.Limit === 'number' ? input.Limit : Number.POSITIVE_INFINITY,
      options.itemsPerQuery ?? Number.POSITIVE_INFINITY,
    );
    const taken = rows.slice(from, from + limit);
    const last = taken.at(-1);
    return {
      Items: taken.map(keyOf),
      ...(last && from + taken.length < rows.length
        ? { LastEvaluatedKey: { pk: last.pk, sk: last.sk } }
        : {}),
    };
  };

  const query = (input: Item) => {
    const values = input.ExpressionAttributeValues as Item;
    const forward = input.ScanIndexForward !== false;
    // DynamoDB defines no order among index entries with equal sort keys: here they keep their order in
    // `items`, so that no test leans on an order the real engine does not promise (the roots indexes
    // have none: their sort keys are unique).
    const ordered = (rows: Item[], sortKey: string) => {
      const sorted = [...rows].sort((a, b) => compareKeys(a[sortKey], b[sortKey]));
      return forward ? sorted : sorted.reverse();
    };
    switch (input.IndexName) {
      case 'roots-by-time':
      case 'roots-by-like': {
        const byLike = input.IndexName === 'roots-by-like';
        const rows = items.filter(
          (row) => row.rootsPk === values[':partition'] && (!byLike || row.likeSort instanceof NumberValue),
        );
        // Keys only: the table's keys and the index's.
        return page(ordered(rows, byLike ? 'likeSort' : 'sk'), input, (row) => ({
          pk: row.pk,
          sk: row.sk,
          rootsPk: row.rootsPk,
          ...(byLike ? { likeSort: row.likeSort } : {}),
        }));
      }
      case 'by-id':
        return page(
          items.filter((row) => row.commentId === values[':id']),
          input,
          (row) => ({ pk: row.pk, sk: row.sk, commentId: row.commentId, url: row.url, like: row.like }),
        );
      case 'approved-by-time':
      case 'held-by-time': {
        // Sparse card indexes: the keys, and the card as the projection asks for it (never a text).
        const [partitionKey, sortKey] =
          input.IndexName === 'approved-by-time' ? ['approvedPk', 'approvedSk'] : ['heldPk', 'heldSk'];
        const partition = Object.values(values)[0];
        return page(
          ordered(
            items.filter((row) => row[partitionKey] === partition),
            sortKey,
          ),
          input,
          (row) => {
            const { orig: _orig, html: _html, ua: _ua, ...card } = row;
            return projected(card, input);
          },
        );
      }
      case undefined: {
        if (!(':from' in values) || !(':to' in values)) throw new Error('the fake table reads ranges only');
        const rows = items.filter(
          (row) =>
            row.pk === values[':pk'] &&
            compareKeys(row.sk, values[':from']) >= 0 &&
            compareKeys(row.sk, values[':to']) <= 0,
        );
        return page(ordered(rows, 'sk'), input, (row) => projected(row, input));
      }
      default:
        throw new Error(`no index ${String(input.IndexName)} in the fake table`);
    }
  };

  ddb.on(GetCommand).callsFake((input: Item) =>
    answer('GetItem', input, () => {
      const key = input.Key as Item;
      const found = items.find((row) => row.pk === key.pk && row.sk === key.sk);
      return found ? { Item: found } : {};
    }),
  );
  ddb.on(BatchGetCommand).callsFake((input: Item) =>
    answer('BatchGetItem', input, () => ({
      Responses: Object.fromEntries(
        Object.entries(input.RequestItems as Record<string, { Keys: Item[] }>).map(([table, { Keys }]) => [
          table,
          Keys.flatMap((key) => items.filter((row) => row.pk === key.pk && row.sk === key.sk)),
        ]),
      ),
    })),
  );
  ddb.on(QueryCommand).callsFake((input: Item) => answer('Query', input, () => query(input)));
  ddb.on(TransactWriteCommand).callsFake((input: Item) => answer('TransactWriteItems', input, () => ({})));
  return sent;
}

/** The commands of `sent` grouped by round trip: `[round 1 commands, round 2 commands, ...]`. */
export function byRound(sent: readonly SentCommand[]): SentCommand[][] {
  const rounds: SentCommand[][] = [];
  for (const command of sent) (rounds[command.round - 1] ??= []).push(command);
  return rounds;
}
