import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { SortOrder } from '../domain/comment-schemas.js';
import { mergeRootKeys, type RootKey } from '../domain/thread.js';
import { attributes, indexNames, likesOfSortValue, parseCommentSk } from './keys.js';
import type { RootKeys, RootKeysPlan } from './list-plan.js';
import { projection } from './projection.js';

/**
 * The root keys of a list page as `plan` says ({@link RootKeysPlan}), each partition in `sortBy` order: one
 * Query per partition, all in parallel, merged into pinned roots and the others.
 */
export async function readRootKeys(
  client: DynamoDBDocumentClient,
  tableName: string,
  plan: RootKeysPlan,
  sortBy: SortOrder,
): Promise<RootKeys> {
  const read = (partitions: readonly string[]) =>
    Promise.all(
      partitions.map((partition) => readRootPartition(client, tableName, partition, sortBy, plan.limit)),
    );
  const [pinned, flow] = await Promise.all([read(plan.pinned), read(plan.flow)]);
  return { pinned: mergeRootKeys(pinned, sortBy), flow: mergeRootKeys(flow, sortBy) };
}

/**
 * The first `limit` root keys of one roots-index partition in `sortBy` order: keys only, so a key costs
 * about a hundred bytes of read, whatever its comment holds. One Query, and another only when the first
 * stopped at 1 MB before `limit`.
 */
async function readRootPartition(
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
        ...projection(sortBy === 'like_desc' ? [attributes.sk, attributes.likeSort] : [attributes.sk], {
          '#roots': attributes.rootsPk,
        }),
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
