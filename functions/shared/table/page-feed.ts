import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ListedComment } from '../domain/comment.js';
import { limits } from '../domain/limits.js';
import type { FeedComment } from '../domain/rss-feed.js';
import { fromCommentItem } from './comment-item.js';
import { articleRange, attributes, keys } from './keys.js';
import { projection } from './projection.js';

/**
 * The newest approved comments of the page `url`, newest first, at most `limits.feedItemsMax`: what its
 * feed shows of them, and nothing else (no mail, IP hash or raw text is read). `consistent` reads what
 * was just written (after a write of this instance).
 */
export type PageFeed = (
  url: string,
  options?: { readonly consistent?: boolean },
) => Promise<readonly FeedComment[]>;

/** What the read brings back: what a feed shows, and the status it filters on. */
const feedAttributes = ['commentId', 'url', 'nick', 'html', 'status', 'insertedAt'] as const;

/** Newest first; ids (ULIDs) order comments of the same millisecond, and imported ones whatever they are. */
const newestFirst = (a: ListedComment, b: ListedComment) =>
  b.insertedAt - a.insertedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Builds the page feed read on `client` and `tableName`: one Query of the page's visible range read
 * backwards, so at most `limits.pageFeedReadItems` items and 1 MB whatever the page holds.
 *
 * The range is in key order, thread by thread (`C#<rootId>`, then `C#<rootId>#<replyId>`), and root ids
 * are ULIDs: read backwards, it gives the newest threads first, each with its replies. That is exact for
 * a page of up to that many visible comments. On a longer page it is an approximation: a new reply in a
 * thread older than the ones the read reached is left out (the recent index, which is in time order,
 * has no key per page, and reading it for one page would read the whole site's comments).
 */
export function createPageFeed(
  client: DynamoDBDocumentClient,
  tableName: string,
  ensureLayout: () => Promise<void> = async () => undefined,
): PageFeed {
  return async (url, options = {}) => {
    const range = articleRange('visible');
    const [, output] = await Promise.all([
      // The range holds replies under their roots only in this layout.
      ensureLayout(),
      client.send(
        new QueryCommand({
          TableName: tableName,
          // The visible range of the page's partition: every root and every approved reply, no held reply.
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
          // Roots keep their key whatever their status: a waiting or spam root never leaves DynamoDB. The
          // filter runs after Limit, so it saves what is sent back, not what is read.
          FilterExpression: '#status = :approved',
          ...projection(feedAttributes, {
            '#pk': attributes.pk,
            '#sk': attributes.sk,
            '#status': 'status',
          }),
          ExpressionAttributeValues: {
            ':pk': keys.articlePartition(url),
            ':from': range.from,
            ':to': range.to,
            ':approved': 'approved',
          },
          // Backwards: the newest threads first. One Query: it stops at Limit items or at 1 MB.
          ScanIndexForward: false,
          Limit: limits.pageFeedReadItems,
          ...(options.consistent ? { ConsistentRead: true } : {}),
        }),
      ),
    ]);
    return (output.Items ?? [])
      .map(fromCommentItem)
      .filter((comment) => comment.status === 'approved')
      .sort(newestFirst)
      .slice(0, limits.feedItemsMax)
      .map(({ id, url, nick, html, insertedAt }) => ({ id, url, nick, html, insertedAt }));
  };
}
