import type { AvatarFor } from './avatar.js';
import { isPlainAddress } from './mail-address.js';

/** What the user wall shows of an anonymous author, as their last approved comment gave it (never the mail). */
export interface AuthorDisplay {
  readonly nick: string;
  readonly link: string;
  /** Computed when the comment was counted, under the deployment's avatar rule. */
  readonly avatar: string;
}

/**
 * The level counter one comment counts for: `user:<accountId>` for an account's comment, `mail:<hash>` (the keyed
 * hash of the normalised address) for an anonymous one with an address; with, for the anonymous, what the wall
 * shows of them.
 */
export interface AuthorTally {
  readonly authorKey: string;
  readonly display?: AuthorDisplay;
}

/** The counter of a comment, or undefined: a comment with neither an account nor an address counts for nobody. */
export type AuthorTallyOf = (comment: {
  readonly userId?: string;
  readonly mail: string;
  readonly nick: string;
  readonly link: string;
}) => AuthorTally | undefined;

/** The author key of an account (keys.authorCount). */
export const accountAuthorKey = (accountId: string) => `user:${accountId}`;

/** The author key of an address, given its keyed hash (keys.authorCount). */
export const addressAuthorKey = (addressHash: string) => `mail:${addressHash}`;

/** The account id an author key names, if it names one. */
export function accountOfAuthorKey(authorKey: string): string | undefined {
  return authorKey.startsWith('user:') ? authorKey.slice('user:'.length) : undefined;
}

/** The author key of a comment, or undefined when it has neither an account nor an address. */
export type AuthorKeyOf = (comment: {
  readonly userId?: string;
  readonly mail: string;
}) => string | undefined;

/**
 * Builds the rule that names a comment's counter: its account when it has one (the address typed beside it does
 * not matter), else its address as the keyed hash `hashAddress` makes of it (an empty or made-up mail is none).
 */
export function createAuthorKeyOf(hashAddress: (address: string) => string): AuthorKeyOf {
  return (comment) => {
    if (comment.userId !== undefined && comment.userId !== '') return accountAuthorKey(comment.userId);
    return isPlainAddress(comment.mail) ? addressAuthorKey(hashAddress(comment.mail)) : undefined;
  };
}

/**
 * Builds the rule that names a comment's counter: its account when it has one (the address typed beside it does
 * not matter: an account is one author whatever it types), else its address, as the keyed hash `hashAddress`
 * makes of it (an empty or made-up mail is no address), with the nick, link and avatar the wall shows.
 */
export function createAuthorTally({
  hashAddress,
  avatarFor,
}: {
  readonly hashAddress: (address: string) => string;
  readonly avatarFor: AvatarFor;
}): AuthorTallyOf {
  const authorKeyOf = createAuthorKeyOf(hashAddress);
  return (comment) => {
    const authorKey = authorKeyOf(comment);
    if (authorKey === undefined) return undefined;
    if (accountOfAuthorKey(authorKey) !== undefined) return { authorKey };
    return { authorKey, display: { nick: comment.nick, link: comment.link, avatar: avatarFor(comment) } };
  };
}
