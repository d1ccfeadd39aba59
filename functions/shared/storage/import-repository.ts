import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandOutput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { CommentStatus } from '../domain/comment.js';
import type { CounterName } from '../domain/counters.js';
import { batchGet, keyId } from './batch-get.js';
import { putAll, type BulkWriteOptions } from './bulk-writer.js';
import {
  attributes,
  commentSkPrefix,
  entities,
  indexNames,
  type Key,
  keys,
  statusPartition,
} from './keys.js';
import { retryOnConflict } from './transact.js';

/** The visible counts of one page, recomputed from its comments. */
export interface PageCounts {
  readonly comments: number;
  readonly roots: number;
}

/** The site's counters, recomputed from the status partitions of the recent index. */
export interface SiteCounts {
  readonly comments: number;
  readonly waiting: number;
  readonly spam: number;
}

/** The writes of an import. Every one is idempotent: a rerun converges on the same table. */
export interface ImportRepository {
  /** Which of `keys` exist, with their `of` attribute (a duplicate mark's comment id), by key id. */
  existing(keys: readonly Key[]): Promise<Map<string, { of?: string }>>;
  /** Puts items in batches of 25, retrying what is left unprocessed. */
  putAll(items: readonly Record<string, unknown>[], options?: BulkWriteOptions): Promise<void>;
  /** Counts the approved comments and roots of `url` from its partition and stores them with SET. */
  recountPage(url: string): Promise<PageCounts>;
  /** Counts each status partition of the recent index and stores the site counters with SET. */
  recountSite(): Promise<SiteCounts>;
  /** Current reading counters of `urls`, by url. */
  readingCounts(
    urls: readonly string[],
    names: readonly CounterName[],
  ): Promise<Map<string, Record<string, number>>>;
  /** Sets reading counters of `url` to `values` (SET, not ADD: running it twice changes nothing). */
  setReadingCounts(url: string, values: Partial<Record<CounterName, number>>): Promise<void>;
}

/** Builds the import repository on `client` and `tableName`. */
export function createImportRepository(client: DynamoDBDocumentClient, tableName: string): ImportRepository {
  return {
    async existing(wanted) {
      const found = await batchGet(client, tableName, wanted, ['of']);
      const result = new Map<string, { of?: string }>();
      for (const [id, item] of found) result.set(id, typeof item.of === 'string' ? { of: item.of } : {});
      return result;
    },

    putAll: (items, options) => putAll(client, tableName, items, options),

    async recountPage(url) {
      let comments = 0;
      let roots = 0;
      let startKey: QueryCommandOutput['LastEvaluatedKey'];
      do {
        const output = await client.send(
          new QueryCommand({
            TableName: tableName,
            // The comments of the page only (its partition also holds counters and marks), and only
            // what the counts need.
            KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :comments)',
            ProjectionExpression: '#status, #rid',
            ExpressionAttributeNames: {
              '#pk': attributes.pk,
              '#sk': attributes.sk,
              '#status': 'status',
              '#rid': 'rid',
            },
            ExpressionAttributeValues: { ':pk': keys.articlePartition(url), ':comments': commentSkPrefix },
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of output.Items ?? []) {
          if ((item.status ?? 'approved') !== 'approved') continue;
          comments++;
          if (item.rid === undefined) roots++;
        }
        startKey = output.LastEvaluatedKey;
      } while (startKey);
      await retryOnConflict(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.pageCounters(url),
            // SET, not ADD: the counts are recomputed from the comments, so a rerun writes the same values.
            UpdateExpression: 'SET #comments = :comments, #roots = :roots, #entity = :entity, #url = :url',
            ExpressionAttributeNames: {
              '#comments': 'comments',
              '#roots': 'roots',
              '#entity': 'entity',
              '#url': 'url',
            },
            ExpressionAttributeValues: {
              ':comments': comments,
              ':roots': roots,
              ':entity': entities.pageCounters,
              ':url': url,
            },
          }),
        ),
      );
      return { comments, roots };
    },

    async recountSite() {
      const countStatus = async (status: CommentStatus) => {
        let total = 0;
        let startKey: QueryCommandOutput['LastEvaluatedKey'];
        do {
          const output = await client.send(
            new QueryCommand({
              TableName: tableName,
              IndexName: indexNames.recent,
              // Every comment carries the recent-index keys of its status: one partition per status.
              KeyConditionExpression: '#partition = :status',
              ExpressionAttributeNames: { '#partition': attributes.recentPk },
              ExpressionAttributeValues: { ':status': statusPartition(status) },
              Select: 'COUNT',
              ExclusiveStartKey: startKey,
            }),
          );
          total += output.Count ?? 0;
          startKey = output.LastEvaluatedKey;
        } while (startKey);
        return total;
      };
      const [comments, waiting, spam] = await Promise.all([
        countStatus('approved'),
        countStatus('waiting'),
        countStatus('spam'),
      ]);
      await retryOnConflict(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.siteCounters(),
            // SET the recomputed totals: idempotent, unlike the ADD of live writes.
            UpdateExpression:
              'SET #comments = :comments, #waiting = :waiting, #spam = :spam, #entity = :entity',
            ExpressionAttributeNames: {
              '#comments': 'comments',
              '#waiting': 'waiting',
              '#spam': 'spam',
              '#entity': 'entity',
            },
            ExpressionAttributeValues: {
              ':comments': comments,
              ':waiting': waiting,
              ':spam': spam,
              ':entity': entities.siteCounters,
            },
          }),
        ),
      );
      return { comments, waiting, spam };
    },

    async readingCounts(urls, names) {
      const pageKeys = urls.map(keys.pageCounters);
      const items = await batchGet(client, tableName, pageKeys, names);
      return new Map(
        urls.map((url, i) => {
          const item = items.get(keyId(pageKeys[i] as Key));
          return [
            url,
            Object.fromEntries(names.map((name) => [name, Math.max(0, Number(item?.[name]) || 0)])),
          ];
        }),
      );
    },

    async setReadingCounts(url, values) {
      const entries = Object.entries(values);
      if (entries.length === 0) return;
      const names: Record<string, string> = { '#entity': 'entity', '#url': 'url' };
      const expressionValues: Record<string, unknown> = { ':entity': entities.pageCounters, ':url': url };
      entries.forEach(([name, value], i) => {
        names[`#c${i}`] = name;
        expressionValues[`:c${i}`] = value;
      });
      await retryOnConflict(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.pageCounters(url),
            // SET to values the caller computed (source merged with what the page had): a rerun is a no-op.
            UpdateExpression: `SET #entity = :entity, #url = :url, ${entries.map((_, i) => `#c${i} = :c${i}`).join(', ')}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: expressionValues,
          }),
        ),
      );
    },
  };
}
