import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AuthorTally } from '../domain/author-tally.js';
import { attributes, entities, keys } from './keys.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The attribute of an author-count item that holds the count of the author's approved comments. */
export const approvedCountAttribute = 'approved';

/**
 * The roots-by-like partition the author counters share: the user wall (top commenters) is one Query of it,
 * highest `likeSort` (= the count) first. No article's roots partition (`R#...`) can be named so.
 */
export const wallPartition = 'WALL';

/** What one write changes of one author's count: +1 for a comment approved, -1 for one no longer. */
export interface AuthorCountChange {
  readonly tally: AuthorTally;
  readonly delta: number;
}

/**
 * The transaction items that move the counters of `changes` (one Update per author, changes of one author
 * summed, none for a sum of zero). Each keeps the count and its place on the wall in the same update, and an
 * author gaining a comment leaves the nick, link and avatar of the comment that made it (anonymous authors: the
 * wall shows them; an account's profile is read instead).
 */
export function authorCountUpdates(tableName: string, changes: readonly AuthorCountChange[]): TransactItem[] {
  const byAuthor = new Map<string, { delta: number; display?: AuthorTally['display'] }>();
  for (const { tally, delta } of changes) {
    const sum = byAuthor.get(tally.authorKey) ?? { delta: 0 };
    sum.delta += delta;
    // The last gaining comment's display wins (changes come in the order they were written).
    if (delta > 0 && tally.display) sum.display = tally.display;
    byAuthor.set(tally.authorKey, sum);
  }
  return [...byAuthor.entries()]
    .filter(([, { delta }]) => delta !== 0)
    .map(([authorKey, { delta, display }]) => {
      const shown = delta > 0 && display ? display : undefined;
      return {
        Update: {
          TableName: tableName,
          Key: keys.authorCount(authorKey),
          // ADD moves the count in place, by a signed amount: exact under concurrency, no read. The wall's sort
          // value is SET in the same update from the count as it was before it (operands read the item as it
          // was), plus the same delta: the two never differ, and the first write of an author starts both.
          UpdateExpression:
            `ADD #approved :delta SET #entity = :entity, #authorKey = :authorKey, #rootsPk = :wall, ` +
            `#likeSort = if_not_exists(#approved, :zero) + :delta` +
            (shown ? ', #nick = :nick, #link = :link, #avatar = :avatar' : ''),
          ExpressionAttributeNames: {
            '#approved': approvedCountAttribute,
            '#entity': 'entity',
            '#authorKey': 'authorKey',
            '#rootsPk': attributes.rootsPk,
            '#likeSort': attributes.likeSort,
            ...(shown ? { '#nick': 'nick', '#link': 'link', '#avatar': 'avatar' } : {}),
          },
          ExpressionAttributeValues: {
            ':delta': delta,
            ':zero': 0,
            ':entity': entities.authorCount,
            ':authorKey': authorKey,
            ':wall': wallPartition,
            ...(shown ? { ':nick': shown.nick, ':link': shown.link, ':avatar': shown.avatar } : {}),
          },
        },
      };
    });
}

/**
 * The feed entry of a comment under its author's key (keys.authorFeed): an account's (`user:<id>`, its feed) or an
 * address's (`mail:<hash>`, what a commenter's download and erase page through, never a Scan). It says where the
 * comment is, so that readers find it in the table. Never overwritten with anything else (a retried transaction
 * puts the same). `of`, not `commentId`: that attribute would put the entry into the by-id index.
 */
export function authorFeedPut(
  tableName: string,
  authorKey: string,
  comment: { readonly id: string; readonly url: string; readonly rid?: string },
): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...keys.authorFeed(authorKey, comment.id),
        entity: entities.authorFeed,
        of: comment.id,
        url: comment.url,
        ...(comment.rid === undefined ? {} : { rid: comment.rid }),
      },
    },
  };
}

/**
 * The delete of a comment's feed entry under `authorKey`, in the transaction that deletes the comment or takes its
 * author off it (a placeholder). Unconditional: an entry already gone is deleted again harmlessly.
 */
export function authorFeedDelete(tableName: string, authorKey: string, commentId: string): TransactItem {
  return { Delete: { TableName: tableName, Key: keys.authorFeed(authorKey, commentId) } };
}
