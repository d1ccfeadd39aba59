import { tableDefinition } from '../../../lib/table-definition.js';
import type { CommentStatus } from '../domain/comment.js';

/**
 * The only module that knows key formats. Every item of the table is addressed through these
 * functions, so a change of layout is a change here.
 */

/** A primary key. */
export interface Key {
  pk: string;
  sk: string;
}

const articlePk = (url: string) => `URL#${url}`;

/** Prefix of comment sort keys inside an article partition. */
export const commentSkPrefix = 'C#';

/** Partition value of the recent index for a status: one Query returns the newest comments of it. */
export const statusPartition = (status: CommentStatus) => `STATUS#${status}`;

/** Item kinds, stored as `entity` on every item. */
export const entities = {
  comment: 'comment',
  pageCounters: 'page',
  siteCounters: 'site',
  vote: 'vote',
  rate: 'rate',
  duplicate: 'duplicate',
  admin: 'admin',
  signInAttempts: 'signin',
} as const;

/** Key builders, one per item kind of DESIGN.md §2. */
export const keys = {
  comment: (url: string, id: string): Key => ({ pk: articlePk(url), sk: `${commentSkPrefix}${id}` }),
  /** The partition holding an article's comments (and its counters, and its duplicate marks). */
  articlePartition: articlePk,
  pageCounters: (url: string): Key => ({ pk: articlePk(url), sk: 'PAGE' }),
  siteCounters: (): Key => ({ pk: 'SITE', sk: 'SITE' }),
  likeVote: (commentId: string, voterHash: string): Key => ({
    pk: `C#${commentId}`,
    sk: `VOTE#like#${voterHash}`,
  }),
  reactionVote: (url: string, reaction: string, voterHash: string): Key => ({
    pk: articlePk(url),
    sk: `VOTE#${reaction}#${voterHash}`,
  }),
  admin: (email: string): Key => ({ pk: `ADMIN#${email.toLowerCase()}`, sk: 'ADMIN' }),
  /** Sign-in attempts of one IP in one time window. */
  signInAttempts: (ipHash: string, window: number): Key => ({ pk: `IP#${ipHash}`, sk: `SIGNIN#${window}` }),
  rate: (ipHash: string): Key => ({ pk: `IP#${ipHash}`, sk: 'RATE' }),
  duplicate: (url: string, contentHash: string): Key => ({ pk: articlePk(url), sk: `DUP#${contentHash}` }),
};

/** Attribute names of the keys and indexes, re-exported for the repositories. */
export const attributes = {
  pk: tableDefinition.partitionKey,
  sk: tableDefinition.sortKey,
  expiresAt: tableDefinition.timeToLiveAttribute,
  recentPk: tableDefinition.indexes.recent.partitionKey,
  recentSk: tableDefinition.indexes.recent.sortKey,
  commentId: tableDefinition.indexes.byId.partitionKey,
} as const;

/** Index names. */
export const indexNames = {
  recent: tableDefinition.indexes.recent.name,
  byId: tableDefinition.indexes.byId.name,
} as const;
