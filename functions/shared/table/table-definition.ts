/**
 * The one DynamoDB table, described once as plain data. The CDK stack (lib/) and the local
 * DynamoDB launcher both build the table from this, so local mode cannot drift from AWS.
 */

/** Names of the key attributes and indexes; table/keys.ts fills them. */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  timeToLiveAttribute: 'expiresAt',
  /**
   * The table's stream: each change's new item, which the notifier reads (filtered to outbox events:
   * functions/notify/stream-settings.ts). New images only: the sender needs what was written, not what was.
   */
  streamView: 'NEW_IMAGE',
  indexes: {
    /** Comment id -> its pk/sk (and its url and like count), for routes that carry only the id. */
    byId: { name: 'by-id', partitionKey: 'commentId' },
    /**
     * The roots of an article, keys only, one partition per (article, status, pinned or not), in id
     * order (= insertion order): page p of a time sort reads p * pageSize keys here. Sparse: only roots
     * carry `rootsPk`. Its sort key is the table's own `sk` (`C#<rootId>`).
     */
    rootsByTime: { name: 'roots-by-time', partitionKey: 'rootsPk', sortKey: 'sk' },
    /**
     * The same roots ordered by `likeSort`, a number: the like count times 2^96 plus the top 96 bits of
     * the root's ULID. Unique, so pages never split a tie differently; and a vote moves it with `ADD`,
     * beside the count, so concurrent votes never conflict. For `sortBy=like_desc`.
     */
    rootsByLike: { name: 'roots-by-like', partitionKey: 'rootsPk', sortKey: 'likeSort' },
    /**
     * The site's approved comments, newest first: sparse (only approved comments carry `approvedPk`, all
     * of them `STATUS#approved`), sorted by ULID = insertion time. It holds each comment's card (below),
     * never its text: the recent list and the site feed read the texts of the comments they answer from
     * the table, within a budget of bytes (card-index.ts).
     */
    recent: { name: 'approved-by-time', partitionKey: 'approvedPk', sortKey: 'approvedSk' },
    /**
     * The moderation queues, newest first: sparse (only waiting and spam comments carry `heldPk`,
     * `STATUS#waiting` or `STATUS#spam`), so `/ui`'s queue never shares an index, nor its capacity, with
     * the public reads. Cards only, as above.
     */
    held: { name: 'held-by-time', partitionKey: 'heldPk', sortKey: 'heldSk' },
  },
} as const;

/**
 * The version of the item layout this code reads and writes, kept on the site-counters item. Version 2
 * keys replies under their root and adds the roots indexes; version 3 moves the recent list and the
 * moderation queues to the card indexes (approved-by-time, held-by-time) and stores each comment's
 * `textBytes`. `npm run migrate` brings version 1 and 2 tables.
 */
export const layoutVersion = 3;

/**
 * What the card indexes copy of a comment besides their keys: what presenting it takes without its
 * text, and `textBytes`, so that a reader knows what its text would cost before reading it. The mail is
 * there because the avatar is made from it (under the deployment's template), the IP hash because
 * administrators see it; never the text, the HTML or the user agent. Each is small and bounded
 * (limits.ts), so a card is a few KB at most whatever the comment holds.
 */
export const cardAttributes = [
  'commentId',
  'url',
  'pid',
  'rid',
  'nick',
  'mail',
  'ipHash',
  'link',
  'browser',
  'os',
  'type',
  'status',
  'like',
  'sticky',
  'insertedAt',
  'textBytes',
] as const;

/**
 * The index layout 2 had instead of the card indexes: every comment by status, with its texts. A stack
 * being upgraded keeps it until the last deploy (docs/deploy.md), and the tests build layout 2 tables
 * with it; nothing reads it any more.
 */
export const legacyRecentIndex = {
  name: 'recent',
  partitionKey: 'recentPk',
  sortKey: 'recentSk',
  attributes: [
    'commentId',
    'url',
    'pid',
    'rid',
    'nick',
    'mail',
    'ipHash',
    'link',
    'browser',
    'os',
    'orig',
    'html',
    'status',
    'like',
    'sticky',
    'insertedAt',
  ],
} as const;

/** Attributes the by-id index copies besides the keys: enough to answer a like without a read. */
export const byIdIndexAttributes = ['url', 'like'] as const;
