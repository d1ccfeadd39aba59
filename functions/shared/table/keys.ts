import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import { tableDefinition } from './table-definition.js';
import type { CommentStatus } from '../domain/comment.js';

/**
 * The only module that knows key formats. Every item of the table is addressed through these
 * functions, so a change of layout is a change here.
 *
 * An article's comments share its partition (`URL#<url>`). A root is `C#<rootId>` whatever its status.
 * A reply sits under its root, `C#<rootId>#<replyId>` while approved and `H#<rootId>#<replyId>` while
 * held (waiting or spam): one range of the partition is a thread as visitors see it, and nobody's held
 * reply is read for a visitor. Ids are letters and digits, so `#` ends a root id unambiguously.
 */

/** A primary key. */
export interface Key {
  pk: string;
  sk: string;
}

const articlePk = (url: string) => `URL#${url}`;

/** Sort-key prefixes of comments: visible ones (roots of any status, approved replies), held replies. */
export const commentSkPrefixes = { visible: 'C#', held: 'H#' } as const;

/** Sorts after every id character: the upper end of a thread's range. */
const rangeEnd = '\uffff';

/**
 * Partition value of a status in its card index (approved-by-time for approved comments, held-by-time for
 * waiting and spam): one Query returns the newest comments of that status.
 */
export const statusPartition = (status: CommentStatus) => `STATUS#${status}`;

/**
 * Partition value of the roots indexes: the roots of one article in one status, pinned (sticky) ones
 * apart so that they can be listed first in either order.
 */
export const rootsPartition = (url: string, status: CommentStatus, pinned: boolean) =>
  `R#${status}#${pinned ? 'pinned' : 'flow'}#${url}`;

/** One like in a root's like sort value: the ULID's top 96 bits sit below it. */
const likeScale = 2n ** 96n;
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The top 96 bits of a ULID (its time and the first 48 bits of its randomness); 0 for another id. */
function ulidRank(id: string): bigint {
  if (!/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(id)) return 0n;
  let value = 0n;
  for (const character of id) value = value * 32n + BigInt(crockford.indexOf(character));
  return value >> 32n;
}

/**
 * The roots-by-like sort value of a root: its like count times 2^96, plus the top 96 bits of its ULID.
 * Read backwards, that is most liked first, then newest first, and unique (ULIDs of the same millisecond
 * differ in their randomness), so a page boundary inside a tie falls at the same place on every read. At
 * most 38 significant digits, as DynamoDB keeps, for up to a billion likes.
 */
export function likeSortValue(like: number, id: string): NumberValue {
  const count = BigInt(Math.max(0, Math.trunc(like)));
  return NumberValue.from((count * likeScale + ulidRank(id)).toString());
}

/** What one like adds to a root's like sort value (with `ADD`, beside the count). */
export const likeSortStep = NumberValue.from(likeScale.toString());

/** The like count a like sort value holds (as the client reads it back: a number or a NumberValue). */
export function likesOfSortValue(value: unknown): number {
  // Checked rather than caught: the time index holds no like sort value, so a time-sorted page passes
  // undefined for every root, and a thrown SyntaxError (with its stack) cost 0.2 ms of CPU a page.
  const text = value === undefined || value === null ? '' : String(value);
  return /^\d+$/.test(text) ? Number(BigInt(text) / likeScale) : 0;
}

/** Item kinds, stored as `entity` on every item. */
export const entities = {
  comment: 'comment',
  pageCounters: 'page',
  siteCounters: 'site',
  vote: 'vote',
  rate: 'rate',
  duplicate: 'duplicate',
  admin: 'admin',
  /** An account, administrator's or visitor's (domain/account.ts). */
  account: 'account',
  /** The claim of an address by one account: an address has at most one. */
  accountEmail: 'account-email',
  /** The link of an external identity (an issuer's or GitHub's or the site's `sub`) to its account. */
  accountIdentity: 'account-identity',
  /**
   * An address an account made from an external identity carries without claiming it: a commenter's erase of that
   * address finds the account through it (several accounts may carry one address).
   */
  accountContact: 'account-contact',
  /** How many accounts there are (`ACCOUNTS`/`COUNT`): Waline's `totalPages` of the administrators' list. */
  accountCount: 'account-count',
  /** How many approved comments one author has (an account, or an address as a hash): their level and wall place. */
  authorCount: 'author-count',
  /** One comment of an account, for its feed (where the comment is: its url and thread root). */
  authorFeed: 'author-feed',
  signInAttempts: 'signin',
  signInFailures: 'signin-failures',
  signInNetwork: 'signin-network',
  tombstone: 'tombstone',
  /** An outbox event (outbox-event.ts): the only items the notifier's stream filter lets through. */
  outbox: 'outbox',
  /** What became of one (event, recipient): its state, attempts and last error. */
  delivery: 'delivery',
  /** An address (a hash of it) that asked for no more mail, from the site or from one thread. */
  suppression: 'suppression',
  /** How many notices one address got in one hour or day. */
  notifyCap: 'notify-cap',
  /** How many reader mails the whole site sent in one hour or day (site-mail-caps.ts). */
  siteMailCap: 'site-mail-cap',
  /** How many reader mails went to one recipient domain (a hash of it) in one hour (site-mail-caps.ts). */
  domainMailCap: 'domain-mail-cap',
  /** The owner's mails of one hour: how many were sent, how many wait for the hour's digest (owner-mail-hours.ts). */
  ownerMailHour: 'owner-mail-hour',
  /** A captcha token (a keyed hash of it) that passed once: it passes no more. */
  captchaToken: 'captcha-token',
  /** A sign-in with an issuer or GitHub under way (issue 28): taken once by its callback, or gone by TTL. */
  oauthFlow: 'oauth-flow',
  /** An address's consent to reply mail: confirmed, or a confirmation mail sent (REPLY_MAIL=confirmed). */
  replyConfirmation: 'reply-confirmation',
  /** An address (a hash of it) an administrator approved a comment from: trusted under `COMMENT_AUDIT=first`. */
  trust: 'trust',
  /** Registrations, or password-reset requests, from one IP in one window (account-limits.ts). */
  accountAttempts: 'account-attempts',
  /** Account mails (confirm, reset, already-registered) to one address (a hash of it) in one window. */
  accountMailCount: 'account-mail',
  /** An account link (a keyed hash of its token) that was used once: it works no more (account-limits.ts). */
  usedLink: 'used-link',
  /** A single sign-on assertion (a hash of its issuer and `jti`) that was exchanged once: it works no more. */
  usedSsoAssertion: 'used-sso-assertion',
  /** A commenter's erase under way or done (the address as a hash): its progress, so a cut-off one goes on. */
  eraseJob: 'erase-job',
  /** One download or erase of a commenter's data, for the administrators' log (no address, a hash prefix). */
  dataRequest: 'data-request',
  /** One passkey of an account (WebAuthn: its credential id, public key and sign counter). */
  passkey: 'passkey',
  /** A WebAuthn challenge handed out and not yet answered: taken once, expiring within minutes. */
  passkeyChallenge: 'passkey-challenge',
} as const;

/**
 * The UTC day of a ULID's time (`2026-11-25`): outbox events of one day share a partition, so the log is
 * one Query per day and an event's key follows from its id alone.
 */
export function outboxDay(eventId: string): string {
  return new Date(decodeTime(eventId)).toISOString().slice(0, 10);
}

/** What an account attempt counter counts (account-limits.ts). */
export type AccountAttempt = 'register' | 'reset' | 'reauth' | 'confirm' | 'sso' | 'my-data' | 'passkey';

/**
 * Who one delivery of an event goes to: the owner's mail, a parent's author, an owner channel, or the address
 * of the account an account mail is about.
 */
export type RecipientKind = 'owner' | 'parent' | 'webhook' | 'telegram' | 'account';

/** What a suppression covers: every mail of the site, or the replies of one thread. */
export type SuppressionScope =
  { readonly kind: 'site' } | { readonly kind: 'thread'; readonly rootId: string };

/** Where a comment sits: its id, its thread root (replies only) and its status. */
export interface CommentPlace {
  readonly url: string;
  readonly id: string;
  readonly rid?: string;
  readonly status: CommentStatus;
}

/** Whether a comment of `status` is held from visitors. */
const isHeld = (status: CommentStatus) => status !== 'approved';

/** Key builders, one per item kind (docs/data-model.md). */
export const keys = {
  /** A comment at its place: roots never move; a reply moves between `C#` and `H#` with its status. */
  comment: (place: CommentPlace): Key =>
    place.rid === undefined
      ? keys.root(place.url, place.id)
      : keys.reply(place.url, place.rid, place.id, isHeld(place.status)),
  root: (url: string, id: string): Key => ({ pk: articlePk(url), sk: `${commentSkPrefixes.visible}${id}` }),
  reply: (url: string, rid: string, id: string, held: boolean): Key => ({
    pk: articlePk(url),
    sk: `${held ? commentSkPrefixes.held : commentSkPrefixes.visible}${rid}#${id}`,
  }),
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
  /** An account (domain/account.ts), by its id. */
  account: (id: string): Key => ({ pk: `USER#${id}`, sk: 'USER' }),
  /** The claim of an address (normalised: shared/notify/normalize-address.ts) by one account. */
  accountEmail: (normalisedAddress: string): Key => ({ pk: `EMAIL#${normalisedAddress}`, sk: 'USER' }),
  /**
   * The link of an external identity to its account (domain/external-identity.ts): the provider and its subject,
   * bounded (`externalIdentityLimits`) so the key stays far under DynamoDB's 2048 bytes.
   */
  accountIdentity: (provider: string, subject: string): Key => ({
    pk: `IDENTITY#${provider}#${subject}`,
    sk: 'USER',
  }),
  /**
   * The address (normalised) an account made from an external identity carries as its contact, without a claim:
   * one item per account, all of an address in one partition.
   */
  accountContact: (normalisedAddress: string, accountId: string): Key => ({
    pk: `CONTACT#${normalisedAddress}`,
    sk: `USER#${accountId}`,
  }),
  /**
   * The `heldPk` of every account item: the accounts' partition of the held-by-time index, whose `heldSk` is
   * the account's id (a ULID), so one Query reads the newest accounts first.
   */
  accountsPartition: 'ACCOUNTS',
  /** The number of accounts, changed in the transactions that create and remove one. */
  accountCount: (): Key => ({ pk: 'ACCOUNTS', sk: 'COUNT' }),
  /**
   * The approved-comment count of one author: `user:<accountId>` for an account, `mail:<addressHash>` (the keyed
   * hash of the normalised address) for anonymous commenters.
   */
  authorCount: (authorKey: string): Key => ({ pk: `AUTHOR#${authorKey}`, sk: 'COUNT' }),
  /**
   * One comment of an account, beside its counter (`AUTHOR#user:<id>`), newest last: the account's feed
   * (`/api/comment/rss?user_id=`) is one Query of them.
   */
  authorFeed: (authorKey: string, commentId: string): Key => ({
    pk: `AUTHOR#${authorKey}`,
    sk: `FEED#${commentId}`,
  }),
  /** Sign-in attempts of one IP in one time window. */
  signInAttempts: (ipHash: string, window: number): Key => ({ pk: `IP#${ipHash}`, sk: `SIGNIN#${window}` }),
  /** Failed sign-ins of one email address (a keyed hash of it), known account or not. */
  signInFailures: (accountHash: string): Key => ({ pk: `SIGNIN#${accountHash}`, sk: 'FAILURES' }),
  /** A network an account's administrator signed in from: exempt from the account's sign-in lock. */
  signInNetwork: (accountHash: string, networkHash: string): Key => ({
    pk: `SIGNIN#${accountHash}`,
    sk: `NET#${networkHash}`,
  }),
  rate: (ipHash: string): Key => ({ pk: `IP#${ipHash}`, sk: 'RATE' }),
  duplicate: (url: string, contentHash: string): Key => ({ pk: articlePk(url), sk: `DUP#${contentHash}` }),
  /** What is left of a comment an administrator deleted: an import run again does not bring it back. */
  tombstone: (url: string, id: string): Key => ({ pk: articlePk(url), sk: `DEL#${id}` }),
  /** The outbox partition of one day: events and, right after each, its deliveries. */
  outboxPartition: (day: string) => `OUTBOX#${day}`,
  /** An outbox event, by its id (a ULID). */
  outboxEvent: (eventId: string): Key => ({
    pk: keys.outboxPartition(outboxDay(eventId)),
    sk: `E#${eventId}`,
  }),
  /** One delivery of an event: sorts right after its event. */
  delivery: (eventId: string, recipient: RecipientKind): Key => ({
    pk: keys.outboxPartition(outboxDay(eventId)),
    sk: `E#${eventId}#${recipient}`,
  }),
  /** An address's suppression (the address as a hash: notify/address-hash.ts). */
  suppression: (addressHash: string, scope: SuppressionScope): Key => ({
    pk: `MUTE#${addressHash}`,
    sk: scope.kind === 'site' ? 'SITE' : `THREAD#${scope.rootId}`,
  }),
  /** The notices one address got in one window (`H#2026-11-25T17` or `D#2026-11-25`). */
  notifyCap: (addressHash: string, window: string): Key => ({ pk: `MAILCAP#${addressHash}`, sk: window }),
  /** The reader mails of the whole site in one window (`H#2026-11-25T17` or `D#2026-11-25`). */
  siteMailCap: (window: string): Key => ({ pk: 'SITEMAIL', sk: window }),
  /** The reader mails to one recipient domain (as a keyed hash) in one window (`H#2026-11-25T17`). */
  domainMailCap: (domainHash: string, window: string): Key => ({
    pk: `MAILDOMAIN#${domainHash}`,
    sk: window,
  }),
  /** The partition of the owner's mail hours: the sweep reads the last two days of it in one Query. */
  ownerMailPartition: 'OWNERMAIL',
  /** The owner's mails of one hour (`H#2026-11-25T17`). */
  ownerMailHour: (hour: string): Key => ({ pk: keys.ownerMailPartition, sk: `H#${hour}` }),
  /** A captcha token that was used (a keyed hash of it: spam/captcha-token-hash.ts). */
  captchaToken: (tokenHash: string): Key => ({ pk: `CAPTCHA#${tokenHash}`, sk: 'USED' }),
  /** A sign-in flow under way, by a hash of its `state` (table/oauth-flows.ts). */
  oauthFlow: (stateHash: string): Key => ({ pk: `OAUTH#${stateHash}`, sk: 'FLOW' }),
  /** An address's confirmation of reply mail (`CONFIRMED`), or the confirmation mail sent to it (`ASKED`). */
  replyConfirmation: (addressHash: string, part: 'confirmed' | 'asked'): Key => ({
    pk: `CONFIRM#${addressHash}`,
    sk: part === 'confirmed' ? 'CONFIRMED' : 'ASKED',
  }),
  /** An address an administrator approved a comment from (the address as a hash: notify/address-hash.ts). */
  trust: (addressHash: string): Key => ({ pk: `TRUST#${addressHash}`, sk: 'TRUST' }),
  /**
   * Registrations (`register`), reset requests (`reset`), single sign-on exchanges (`sso`), data requests
   * (`my-data`) or passkey sign-in requests (`passkey`) from one IP (an IPv6 /64, as a hash), or checks of one
   * account's current password (`reauth`, the account's id as a keyed hash), in one window.
   */
  accountAttempts: (subjectHash: string, action: AccountAttempt, window: number): Key => ({
    pk: `${action === 'reauth' || action === 'confirm' ? 'REAUTH' : 'IP'}#${subjectHash}`,
    sk: `${action.toUpperCase()}#${window}`,
  }),
  /** Account mails of one kind to one address (as a keyed hash) in one window (`reset#H#492001`). */
  accountMailCount: (addressHash: string, window: string): Key => ({
    pk: `ACCOUNTMAIL#${addressHash}`,
    sk: window,
  }),
  /** An account link that was used (a keyed hash of its token). */
  usedLink: (tokenHash: string): Key => ({ pk: `LINK#${tokenHash}`, sk: 'USED' }),
  /** A single sign-on assertion that was exchanged (a hash of its issuer and `jti`: table/sso-assertions.ts). */
  usedSsoAssertion: (assertionHash: string): Key => ({ pk: `SSO#${assertionHash}`, sk: 'USED' }),
  /** The erase of an address's data (the address as its keyed hash): under way or done. */
  eraseJob: (addressHash: string): Key => ({ pk: `ERASE#${addressHash}`, sk: 'JOB' }),
  /** The partition of the administrators' log of data requests: one Query reads the newest. */
  dataRequestPartition: 'DATAREQ',
  /** One data request in the log, by its id (a ULID: newest last). */
  dataRequest: (id: string): Key => ({ pk: keys.dataRequestPartition, sk: `R#${id}` }),
  /**
   * One passkey of an account, in the account's own partition: one Query of `PASSKEY#` lists an account's
   * passkeys, and a sign-in (the user handle is the account id) reads one with one GetItem.
   */
  passkey: (accountId: string, credentialId: string): Key => ({
    pk: `USER#${accountId}`,
    sk: `${passkeySkPrefix}${credentialId}`,
  }),
  /** A WebAuthn challenge not yet answered (base64url, as the browser returns it). */
  passkeyChallenge: (challenge: string): Key => ({ pk: `WEBAUTHN#${challenge}`, sk: 'CHALLENGE' }),
};

/** The sort-key prefix of an account's passkeys in its partition (`keys.passkey`). */
export const passkeySkPrefix = 'PASSKEY#';

/**
 * The sort-key range of a thread of `url`: `visible` is the root and its approved replies, `held` its
 * waiting and spam replies. Both ends are inclusive (a BETWEEN condition).
 */
export function threadRange(rootId: string, part: 'visible' | 'held'): { from: string; to: string } {
  const prefix = `${commentSkPrefixes[part]}${rootId}`;
  return { from: part === 'visible' ? prefix : `${prefix}#`, to: `${prefix}#${rangeEnd}` };
}

/**
 * The sort-key range of an article's comments of one part: `visible` is every root (whatever its status)
 * and every approved reply, `held` every waiting or spam reply. Both ends are inclusive (BETWEEN).
 */
export function articleRange(part: 'visible' | 'held'): { from: string; to: string } {
  // `#` is the last character before the ids' letters and digits: the range is every key of the prefix.
  return { from: commentSkPrefixes[part], to: `${commentSkPrefixes[part]}${rangeEnd}` };
}

/** Reads a comment's sort key back: the root it belongs to, and whether it is a reply. */
export function parseCommentSk(sk: string): { rootId: string; replyId?: string } | undefined {
  const match = /^[CH]#([A-Za-z0-9]+)(?:#([A-Za-z0-9]+))?$/.exec(sk);
  if (!match?.[1]) return undefined;
  return match[2] === undefined ? { rootId: match[1] } : { rootId: match[1], replyId: match[2] };
}

/** Attribute names of the keys and indexes, re-exported for the repositories. */
export const attributes = {
  pk: tableDefinition.partitionKey,
  sk: tableDefinition.sortKey,
  expiresAt: tableDefinition.timeToLiveAttribute,
  approvedPk: tableDefinition.indexes.recent.partitionKey,
  approvedSk: tableDefinition.indexes.recent.sortKey,
  heldPk: tableDefinition.indexes.held.partitionKey,
  heldSk: tableDefinition.indexes.held.sortKey,
  /** The UTF-8 bytes of a comment's text and HTML (`orig`, `html`), in its card. */
  textBytes: 'textBytes',
  commentId: tableDefinition.indexes.byId.partitionKey,
  rootsPk: tableDefinition.indexes.rootsByTime.partitionKey,
  likeSort: tableDefinition.indexes.rootsByLike.sortKey,
  /** The layout version, on the site-counters item. */
  layout: 'layout',
} as const;

/** Index names. */
export const indexNames = {
  recent: tableDefinition.indexes.recent.name,
  held: tableDefinition.indexes.held.name,
  byId: tableDefinition.indexes.byId.name,
  rootsByTime: tableDefinition.indexes.rootsByTime.name,
  rootsByLike: tableDefinition.indexes.rootsByLike.name,
} as const;
