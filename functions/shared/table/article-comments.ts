import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { articleRange, attributes, keys } from './keys.js';
import { projection } from './projection.js';

/** What a range read returns: the items, and whether it stopped before the end of the range. */
export interface RangeRead {
  readonly items: Record<string, unknown>[];
  readonly more: boolean;
  /** Where to go on from when `more`: the key DynamoDB evaluated last. */
  readonly next?: Record<string, unknown>;
}

/** Options of a read of comment items: what to read back, how consistently, and how far. */
export interface CommentReadOptions {
  /** The attributes read back (all of them without it). */
  readonly names?: readonly string[];
  /** Reads what was just written (the base table allows it). */
  readonly consistent?: boolean;
  /** The most items returned. */
  readonly limit?: number;
  /** Called before each further request: false stops the read there (a byte budget, say). */
  readonly goOn?: () => boolean;
  /** Called with each page of items as it arrives, before `goOn` is asked. */
  readonly onPage?: (items: readonly Record<string, unknown>[]) => void;
  /** Goes on after this key (a previous read's `next`), not from the start of the range. */
  readonly after?: Record<string, unknown>;
}

/**
 * The comment items of `url` whose sort keys lie between `from` and `to` (both included), in key order,
 * one Query per MB, stopping at `limit` items.
 */
export async function readCommentRange(
  client: DynamoDBDocumentClient,
  tableName: string,
  url: string,
  range: { from: string; to: string },
  options: CommentReadOptions = {},
): Promise<RangeRead> {
  const names = options.names ?? [];
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const items: Record<string, unknown>[] = [];
  let startKey: QueryCommandOutput['LastEvaluatedKey'] = options.after;
  do {
    const output = await client.send(
      new QueryCommand({
        TableName: tableName,
        // A range of the article's partition: one thread, a page's neighbouring threads, or every comment
        // of a kind.
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
        ...projection(names, { '#pk': attributes.pk, '#sk': attributes.sk }),
        ExpressionAttributeValues: {
          ':pk': keys.articlePartition(url),
          ':from': range.from,
          ':to': range.to,
        },
        ...(options.consistent ? { ConsistentRead: true } : {}),
        ...(Number.isFinite(limit) ? { Limit: limit - items.length } : {}),
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(output.Items ?? []));
    options.onPage?.(output.Items ?? []);
    startKey = output.LastEvaluatedKey;
    // Another Query only where this one stopped before the range's end (at 1 MB or its Limit), short of
    // `limit` items, and with the caller's leave (a list's read budget; a tool's read goes to the end).
  } while (startKey && items.length < limit && (options.goOn?.() ?? true));
  return { items, more: startKey !== undefined, ...(startKey ? { next: startKey } : {}) };
}

/**
 * Every comment item of the article `url`, visible and held, one Query per MB: for the tools that
 * recount or export a whole article, never for a visitor's read.
 */
export async function* queryArticleComments(
  client: DynamoDBDocumentClient,
  tableName: string,
  url: string,
  options: { names?: readonly string[]; consistent?: boolean } = {},
): AsyncGenerator<Record<string, unknown>> {
  for (const part of ['visible', 'held'] as const) {
    yield* (await readCommentRange(client, tableName, url, articleRange(part), options)).items;
  }
}
