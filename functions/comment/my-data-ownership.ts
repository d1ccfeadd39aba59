import { accountAuthorKey, addressAuthorKey } from '../shared/domain/author-tally.js';
import { isPlainAddress } from '../shared/domain/mail-address.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import type { DataSubject } from './my-data-subject.js';

/**
 * The author keys a subject's comments are filed under (keys.authorFeed), in the order they are paged: an
 * account's (`user:<id>`, its comments posted signed in), then its address's (`mail:<hash>`, every comment that
 * carries it, signed in or not).
 */
export function authorKeysOf(subject: DataSubject): string[] {
  return [
    ...(subject.account ? [accountAuthorKey(subject.account.id)] : []),
    ...(subject.addressHash ? [addressAuthorKey(subject.addressHash)] : []),
  ];
}

/**
 * Whether a stored comment is the subject's: posted by its account (`userId`), or with its address (as the keyed
 * hash of the normalised address says), by whoever posted it: an account that does not claim the address (an
 * identity's, or one whose address changed since) filed its comment under the address too, and whoever proves the
 * address owns what carries it. A feed entry can outlive what it named (an import that gave a comment its account
 * later): the comment itself decides.
 */
export function createOwnership(
  subject: DataSubject,
  hashAddress: HashAddress,
): (comment: { readonly userId?: unknown; readonly mail?: unknown }) => boolean {
  return (comment) => {
    const userId = typeof comment.userId === 'string' && comment.userId !== '' ? comment.userId : undefined;
    if (userId !== undefined && subject.account?.id === userId) return true;
    const mail = typeof comment.mail === 'string' ? comment.mail : '';
    return (
      subject.addressHash !== undefined && isPlainAddress(mail) && hashAddress(mail) === subject.addressHash
    );
  };
}
