import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CounterName, ReactionName } from '../domain/counters.js';
import { batchGet, keyId } from './batch-get.js';
import { entities, keys } from './keys.js';
import { projection } from './projection.js';
import { storedCount as count } from './stored-count.js';
import { retryOnConflict, transactWrite } from './transact.js';
import { voteItems } from './vote-items.js';

/** Reads and changes the page and site counters. Every method is one round trip (per 100 urls). */
export interface CounterRepository {
  /** The `names` counters of each url, aligned with `urls`; 0 where nothing was counted. */
  readPageCounters(
    urls: readonly string[],
    names: readonly CounterName[],
  ): Promise<Record<CounterName, number>[]>;
  /** Visible comments of each url, aligned with `urls`. */
  commentCounts(urls: readonly string[]): Promise<number[]>;
  /** Visible comments of the whole site. */
  siteCommentCount(): Promise<number>;
  /** Adds one to a page counter and returns its new value (pageviews only go up). */
  increment(url: string, name: CounterName): Promise<number>;
  /**
   * Adds (`inc`) or withdraws (`desc`) one voter's reaction, once per voter, and returns the
   * counter's value. Two round trips: the transaction, then a consistent read of the value.
   */
  react(url: string, name: ReactionName, voterHash: string, action: 'inc' | 'desc'): Promise<number>;
}

/** Builds the counter repository on `client` and `tableName`. */
export function createCounterRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
): CounterRepository {
  return {
    async readPageCounters(urls, names) {
      const pageKeys = urls.map(keys.pageCounters);
      const items = await batchGet(client, tableName, pageKeys, names);
      return pageKeys.map((key) => {
        const item = items.get(keyId(key));
        return Object.fromEntries(names.map((name) => [name, count(item?.[name])])) as Record<
          CounterName,
          number
        >;
      });
    },

    async commentCounts(urls) {
      const pageKeys = urls.map(keys.pageCounters);
      const items = await batchGet(client, tableName, pageKeys, ['comments']);
      return pageKeys.map((key) => count(items.get(keyId(key))?.comments));
    },

    async siteCommentCount() {
      const output = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.siteCounters(),
          ...projection(['comments']),
        }),
      );
      return count(output.Item?.comments);
    },

    async increment(url, name) {
      const output = await retryOnConflict(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.pageCounters(url),
            // ADD is atomic on the server and creates the item and the counter when missing:
            // concurrent increments never overwrite each other.
            UpdateExpression: 'ADD #counter :one SET #entity = :entity, #url = :url',
            ExpressionAttributeNames: { '#counter': name, '#entity': 'entity', '#url': 'url' },
            ExpressionAttributeValues: { ':one': 1, ':entity': entities.pageCounters, ':url': url },
            ReturnValues: 'UPDATED_NEW',
          }),
        ),
      );
      return count(output.Attributes?.[name]);
    },

    async react(url, name, voterHash, action) {
      const pageKey = keys.pageCounters(url);
      await transactWrite(client, {
        TransactItems: voteItems(
          {
            tableName,
            voteKey: keys.reactionVote(url, name, voterHash),
            counterKey: pageKey,
            counter: name,
            createWith: { entity: entities.pageCounters, url },
          },
          action === 'inc',
        ),
      });
      // Refused or done, the answer is the counter as it now stands.
      const output = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: pageKey,
          ConsistentRead: true,
          ...projection([name]),
        }),
      );
      return count(output.Item?.[name]);
    },
  };
}
