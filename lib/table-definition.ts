/**
 * The one DynamoDB table, described once as plain data. The CDK stack and the local
 * DynamoDB launcher both build the table from this, so local mode cannot drift from AWS.
 */

/** Names of the key attributes and indexes; storage/keys.ts fills them. */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  timeToLiveAttribute: 'expiresAt',
  indexes: {
    /**
     * Comments by status, newest first: one partition per status (`STATUS#approved` is the site's
     * recent comments, `STATUS#waiting` the moderation queue); sorted by ULID = insertion time.
     */
    recent: { name: 'recent', partitionKey: 'recentPk', sortKey: 'recentSk' },
    /** Comment id -> its pk/sk (and its url and like count), for routes that carry only the id. */
    byId: { name: 'by-id', partitionKey: 'commentId' },
  },
} as const;

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
