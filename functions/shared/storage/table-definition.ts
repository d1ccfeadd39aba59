/**
 * The one DynamoDB table, described once as plain data. The CDK stack (lib/) and the local
 * DynamoDB launcher both build the table from this, so local mode cannot drift from AWS.
 */

/** Names of the key attributes and indexes; storage/keys.ts fills them. */
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
    /**
     * Comments by status, newest first: one partition per status (`STATUS#approved` is the site's
     * recent comments, `STATUS#waiting` the moderation queue); sorted by ULID = insertion time.
     */
    recent: { name: 'recent', partitionKey: 'recentPk', sortKey: 'recentSk' },
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
  },
} as const;

/**
 * The version of the item layout this code reads and writes, kept on the site-counters item. Version 2
 * keys replies under their root and adds the roots indexes; `npm run migrate` brings version 1 tables.
 */
export const layoutVersion = 2;

/**
 * Attributes the recent index copies: everything a comment shows, with mail (for the avatar) and
 * ipHash (for administrators), but never the user agent.
 */
export const recentIndexAttributes = [
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
] as const;

/** Attributes the by-id index copies besides the keys: enough to answer a like without a read. */
export const byIdIndexAttributes = ['url', 'like'] as const;
