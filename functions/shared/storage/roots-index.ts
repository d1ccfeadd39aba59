import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { CommentStatus } from '../domain/comment.js';
import type { SortOrder } from '../domain/comment-schemas.js';
import { mergeRootKeys, type RootKey } from '../domain/thread.js';
import { attributes, indexNames, likesOfSortValue, parseCommentSk, rootsPartition } from './keys.js';

/** The roots of an article in page order: pinned ones, then the rest (each in the sort's order). */
export interface RootKeys {
  readonly pinned: RootKey[];
  readonly flow: RootKey[];
}

/**
 * Reads the first `limit` root keys of one roots-index partition in `sortBy` order: keys only, so a
 * key costs about a hundred bytes of read, whatever its comment holds.
 */
async function readPartition(
  client: DynamoDBDocumentClient,
  tableName: string,
  partition: string,
  sortBy: SortOrder,
  limit: number,
): Promise<RootKey[]> {
  const roots: RootKey[] = [];
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const output = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: sortBy === 'like_desc' ? indexNames.rootsByLike : indexNames.rootsByTime,
        KeyConditionExpression: '#roots = :partition',
        // Keys only: the time index holds no like sort value (its sort needs none).
        ProjectionExpression: sortBy === 'like_desc' ? '#sk, #likeSort' : '#sk',
        ExpressionAttributeNames: {
          '#roots': attributes.rootsPk,
          '#sk': attributes.sk,
          ...(sortBy === 'like_desc' ? { '#likeSort': attributes.likeSort } : {}),
        },
        ExpressionAttributeValues: { ':partition': partition },
        // Oldest first reads the index forwards; newest first and most liked read it backwards.
        ScanIndexForward: sortBy === 'insertedAt_asc',
        // No further than the page: the keys of the roots before it, and its own.
        Limit: limit - roots.length,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of output.Items ?? []) {
      const place = parseCommentSk(String(item.sk));
      if (place && place.replyId === undefined) {
        roots.push({ id: place.rootId, like: likesOfSortValue(item.likeSort) });
      }
    }
    startKey = output.LastEvaluatedKey;
  } while (startKey && roots.length < limit);
  return roots;
}

/**
 * The first `limit` roots of `url` among `statuses`, pinned and not, in `sortBy` order: one Query per
 * (status, pinned or not) partition, all in parallel.
 */
export async function readRootKeys(
  client: DynamoDBDocumentClient,
  tableName: string,
  query: { url: string; statuses: readonly CommentStatus[]; sortBy: SortOrder; limit: number },
): Promise<RootKeys> {
  const { url, statuses, sortBy, limit } = query;
  const read = (pinned: boolean) =>
    Promise.all(
      statuses.map((status) =>
        readPartition(client, tableName, rootsPartition(url, status, pinned), sortBy, limit),
      ),
    );
  const [pinned, flow] = await Promise.all([read(true), read(false)]);
  return { pinned: mergeRootKeys(pinned, sortBy), flow: mergeRootKeys(flow, sortBy) };
}
