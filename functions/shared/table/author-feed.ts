import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { accountAuthorKey } from '../domain/author-tally.js';
import type { ListedComment } from '../domain/comment.js';
import { batchGet, keyId } from './batch-get.js';
import { fromCommentItem, listedAttributes } from './comment-item.js';
import { attributes, type Key, keys } from './keys.js';

/** An account's comments, for its feed. */
export interface AuthorFeed {
  /** Whether the account exists (one GetItem of its key alone). */
  accountExists(accountId: string): Promise<boolean>;
  /**
   * The account's newest approved comments, at most `count`: one Query of its feed entries (twice `count`, at most
   * 100: held and deleted comments are skipped), then one BatchGetItem of those comments where visitors see them.
   */
  newest(accountId: string, count: number): Promise<ListedComment[]>;
}

/** Entries read per comment asked for: some are of held or deleted comments. */
const entriesPerComment = 2;
const maxEntries = 100;

/** Builds the account feeds on `client` and `tableName`. */
export function createAuthorFeed(client: DynamoDBDocumentClient, tableName: string): AuthorFeed {
  return {
    async accountExists(accountId) {
      const output = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.account(accountId),
          ProjectionExpression: '#pk',
          ExpressionAttributeNames: { '#pk': attributes.pk },
        }),
      );
      return output.Item !== undefined;
    },

    async newest(accountId, count) {
      const prefix = keys.authorFeed(accountAuthorKey(accountId), '').sk;
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          // The account's partition holds its counter too: the prefix keeps to the feed entries, newest first
          // (the sort keys end in the comments' ULIDs).
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :feed)',
          ExpressionAttributeNames: { '#pk': attributes.pk, '#sk': attributes.sk },
          ExpressionAttributeValues: {
            ':pk': keys.authorCount(accountAuthorKey(accountId)).pk,
            ':feed': prefix,
          },
          ScanIndexForward: false,
          Limit: Math.min(maxEntries, count * entriesPerComment),
        }),
      );
      // Where visitors see each comment: a root at its key, a reply at its visible key (a held reply is elsewhere).
      const places: Key[] = (output.Items ?? []).map((entry) =>
        typeof entry.rid === 'string'
          ? keys.reply(String(entry.url), entry.rid, String(entry.of), false)
          : keys.root(String(entry.url), String(entry.of)),
      );
      if (places.length === 0) return [];
      const found = await batchGet(client, tableName, places, listedAttributes);
      return (
        places
          .flatMap((place) => {
            const item = found.get(keyId(place));
            return item ? [fromCommentItem(item)] : [];
          })
          // Approved, and still the account's: an own delete's placeholder keeps its entry but no longer its author.
          .filter((comment) => comment.status === 'approved' && comment.userId === accountId)
          .slice(0, count)
      );
    },
  };
}
