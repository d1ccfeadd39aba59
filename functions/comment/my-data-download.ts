import type { Account } from '../shared/domain/account.js';
import { accountAuthorKey } from '../shared/domain/author-tally.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { newUlid } from '../shared/domain/new-ulid.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import type { MyDataStore } from '../shared/table/my-data-store.js';
import { authorKeysOf, createOwnership } from './my-data-ownership.js';
import type { DataSubject, ResolveDataSubject } from './my-data-subject.js';
import type { AccountRepository } from '../shared/table/account-repository.js';

/** Accounts made from an identity that carry the address, shown at most (an erase takes the address off all). */
const maxCarryingAccounts = 25;

/** Feed entries read per page of the download. */
export const downloadPageEntries = 50;

/** Feed reads (a Query and a BatchGetItem each) one page makes at most: a short page with `next` past them. */
export const feedReadsPerPage = 4;

/**
 * The serialised comments one page carries at most, in UTF-8 bytes (the answer stays far under Lambda's 6 MB
 * whatever the script: a CJK character is 3 bytes, 1 UTF-16 unit).
 */
const pageBudgetBytes = 3 * 1024 * 1024;

/** What the download says of likes and reactions. */
export const votesNote =
  "Likes and reactions are kept under a keyed hash of the voter's IP address, never of a mail address: none can " +
  'be found for an address, so none are listed.';

/** Where the next page starts: which author key (an index into authorKeysOf) and after which comment. */
interface Cursor {
  readonly part: number;
  readonly after?: string;
}

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

/** The cursor of `value`, or undefined when it is not one this route made. */
function decodeCursor(value: string): Cursor | undefined {
  if (value.length > 200 || !/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { part, after } = parsed as Record<string, unknown>;
    if (part !== 0 && part !== 1) return undefined;
    if (after !== undefined && (typeof after !== 'string' || !/^[0-9A-Za-z]{1,64}$/.test(after)))
      return undefined;
    return { part, ...(typeof after === 'string' ? { after } : {}) };
  } catch {
    return undefined;
  }
}

/** What the download shows of an account: never its password hash, second factor or session version. */
function accountData(account: Account) {
  return {
    id: account.id,
    email: account.email,
    displayName: account.displayName,
    ...(account.link ? { link: account.link } : {}),
    ...(account.avatar ? { avatar: account.avatar } : {}),
    ...(account.label ? { label: account.label } : {}),
    type: account.type,
    state: account.state,
    createdAt: new Date(account.createdAt).toISOString(),
    ...(account.updatedAt ? { updatedAt: new Date(account.updatedAt).toISOString() } : {}),
    ...(account.identity ? { identity: { provider: account.identity.provider } } : {}),
    secondFactor: account.totp !== undefined,
  };
}

const iso = (value: unknown) => (Number(value) > 0 ? new Date(Number(value)).toISOString() : undefined);
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** One stored comment as the download shows it to its author. */
function commentData(id: string, item: Record<string, unknown>) {
  return {
    id,
    url: text(item.url),
    ...(typeof item.pid === 'string' ? { pid: item.pid } : {}),
    ...(typeof item.rid === 'string' ? { rid: item.rid } : {}),
    status: text(item.status) || 'approved',
    time: iso(item.insertedAt),
    nick: text(item.nick),
    mail: text(item.mail),
    link: text(item.link),
    comment: text(item.orig),
    like: Number(item.like) || 0,
    sticky: item.sticky === true,
    ua: text(item.ua),
    ...(typeof item.addr === 'string' ? { region: item.addr } : {}),
    ...(typeof item.userId === 'string' ? { userId: item.userId } : {}),
  };
}

/**
 * `GET /api/my-data[?cursor=]`, with a data link's token or a sign-in token as the Bearer (my-data-subject.ts):
 * everything stored for the address (and the account), as JSON. The first page carries the account (never its
 * password hash or second factor's secret), the address's suppressions, reply-mail confirmations and trust mark;
 * every page up to 50 of its comments (oldest first, each with its page, time and status, within 3 MiB of
 * text), and `next`, the cursor of the page after it, while more follow. A GET changes nothing but the
 * administrators' log (one entry per first page); the link may be used again while it lasts.
 */
export function createMyDataDownload({
  subjectOf,
  store,
  accounts,
  hashAddress,
  now,
}: {
  readonly subjectOf: ResolveDataSubject;
  readonly store: MyDataStore;
  readonly accounts: Pick<AccountRepository, 'findByContact'>;
  readonly hashAddress: HashAddress;
  readonly now: () => number;
}): Router {
  return async (request) => {
    const subject = await subjectOf(request.authorization, request.lang);
    const given = request.query('cursor');
    const cursor = given === undefined || given === '' ? { part: 0 } : decodeCursor(given);
    if (!cursor) {
      throw new AppError('invalid_input', translate(request.lang, 'dataCursorInvalid'), {
        cursor: 'must be the `next` of the previous page, unchanged',
      });
    }
    const authorKeys = authorKeysOf(subject);
    const owns = createOwnership(subject, hashAddress);
    const accountId = subject.account?.id;
    // The account's own comment that carries its address is filed under both keys: it is shown under the account's.
    const shownUnder = (authorKey: string, item: Record<string, unknown>) =>
      owns(item) &&
      !(accountId !== undefined && item.userId === accountId && authorKey !== accountAuthorKey(accountId));
    const comments: ReturnType<typeof commentData>[] = [];
    let chars = 0;
    let next: Cursor | undefined;
    let part = cursor.part;
    let after = cursor.after;
    let reads = 0;
    // One author key's page at a time, until the page is full, every key is read, or the page's reads are spent
    // (entries it skips, the account's own under its address, cost reads too): `next` goes on from there.
    while (
      part < authorKeys.length &&
      comments.length < downloadPageEntries &&
      next === undefined &&
      reads < feedReadsPerPage
    ) {
      reads++;
      const authorKey = authorKeys[part] as string;
      const page = await store.feedPage(authorKey, after, downloadPageEntries - comments.length);
      const items = await store.commentsOf(page.entries);
      // Where this read started: a page cut at its first entry goes on from there, not from the key's start.
      let last = after;
      for (const entry of page.entries) {
        const item = items.get(entry.id);
        if (item && shownUnder(authorKey, item)) {
          const shown = commentData(entry.id, item);
          const size = Buffer.byteLength(JSON.stringify(shown), 'utf8');
          if (comments.length > 0 && chars + size > pageBudgetBytes) {
            next = { part, ...(last ? { after: last } : {}) };
            break;
          }
          chars += size;
          comments.push(shown);
        }
        last = entry.id;
      }
      if (next) break;
      if (page.more) {
        after = last;
        if (comments.length >= downloadPageEntries) next = { part, ...(after ? { after } : {}) };
      } else {
        part++;
        after = undefined;
      }
    }
    if (!next && part < authorKeys.length) next = { part, ...(after ? { after } : {}) };

    const first = cursor.part === 0 && cursor.after === undefined;
    const extra = first ? await firstPageData(subject, store, accounts) : {};
    if (first) {
      await store.recordRequest({
        id: newUlid(now()),
        kind: 'download',
        at: now(),
        hashPrefix: subject.addressHash?.slice(0, 8) ?? '',
        via: subject.via,
        outcome: 'done',
        counts: { comments: comments.length },
      });
    }
    return envelope({
      ...extra,
      comments,
      ...(next ? { next: encodeCursor(next), truncated: true } : { truncated: false }),
    });
  };
}

/**
 * What the first page adds: the account, the other accounts that carry the address (made from an identity, whose
 * address is a contact, not a claim), the address's mail state, and what is not kept by address.
 */
async function firstPageData(
  { addressHash, address, account }: DataSubject,
  store: MyDataStore,
  accounts: Pick<AccountRepository, 'findByContact'>,
) {
  const [state, carrying] = await Promise.all([
    addressHash ? store.mailState(addressHash) : undefined,
    address ? accounts.findByContact(address, maxCarryingAccounts) : [],
  ]);
  return {
    account: account ? accountData(account) : null,
    accountsWithAddress: carrying.filter((other) => other.id !== account?.id).map(accountData),
    suppressions: (state?.suppressions ?? []).map((item) => ({
      scope: text(item.sk) === 'SITE' ? 'site' : 'thread',
      ...(typeof item.rootId === 'string' ? { rootId: item.rootId } : {}),
      reason: text(item.reason),
      at: iso(item.at),
    })),
    replyMail: Object.fromEntries(
      (state?.confirmations ?? []).map((item) => [
        text(item.sk) === 'CONFIRMED' ? 'confirmedAt' : 'askedAt',
        iso(item.at),
      ]),
    ),
    trustedAt: state?.trust ? (iso(state.trust.at) ?? null) : null,
    votes: votesNote,
  };
}
