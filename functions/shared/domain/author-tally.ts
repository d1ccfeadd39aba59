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
  /**
   * An account's comment with a plain address: that address's key, under which the comment is filed too (never
   * counted there), so that whoever proves the address (a commenter's download and erase) finds it.
   */
  readonly addressKey?: string;
}

/** The author keys a comment of `tally` is filed under (keys.authorFeed): its counter's, then its address's. */
export function feedKeysOf(tally: AuthorTally | undefined): string[] {
  if (tally === undefined) return [];
  return tally.addressKey === undefined ? [tally.authorKey] : [tally.authorKey, tally.addressKey];
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
 * Builds the rule that lists every author key a comment is filed under (keys.authorFeed), as
 * {@link createAuthorTally} names them: its counter's, and for an account's comment with a plain address, that
 * address's too.
 */
export function createFeedKeysOf(
  hashAddress: (address: string) => string,
): (comment: { readonly userId?: string; readonly mail: string }) => string[] {
  const authorKeyOf = createAuthorKeyOf(hashAddress);
  return (comment) => {
    const authorKey = authorKeyOf(comment);
    if (authorKey === undefined) return [];
    const addressKey = addressKeyBeside(authorKey, comment.mail, hashAddress);
    return addressKey === undefined ? [authorKey] : [authorKey, addressKey];
  };
}

/** The address key an account's comment is filed under beside its account's: none for an anonymous one. */
function addressKeyBeside(
  authorKey: string,
  mail: string,
  hashAddress: (address: string) => string,
): string | undefined {
  return accountOfAuthorKey(authorKey) !== undefined && isPlainAddress(mail)
    ? addressAuthorKey(hashAddress(mail))
    : undefined;
}

/**
 * Builds the rule that names a comment's counter: its account when it has one (the address typed beside it does
 * not matter: an account is one author whatever it types; the comment is only filed under it too), else its
 * address, as the keyed hash `hashAddress` makes of it (an empty or made-up mail is no address), with the nick,
 * link and avatar the wall shows.
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
    if (accountOfAuthorKey(authorKey) !== undefined) {
      const addressKey = addressKeyBeside(authorKey, comment.mail, hashAddress);
      return addressKey === undefined ? { authorKey } : { authorKey, addressKey };
    }
    return { authorKey, display: { nick: comment.nick, link: comment.link, avatar: avatarFor(comment) } };
  };
}
