import { isPlainAddress } from '../domain/mail-address.js';
import { ownDeleteRefusal, type OwnCommentRefusal } from '../domain/own-comment.js';
import { newUlid } from '../domain/new-ulid.js';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type AuthorTallyOf, feedKeysOf } from '../domain/author-tally.js';
import { type CommentStatus, isRoot, type ListedComment, newestFirstById } from '../domain/comment.js';
import { readCommentRange } from './article-comments.js';
import { batchGet, keyId } from './batch-get.js';
import type { CommentRef } from './comment-repository.js';
import {
  fromCommentItem,
  heldBecauseAttribute,
  listedAttributes,
  replyNotifiedAttribute,
} from './comment-item.js';
import { type Card, queryCards, withTexts } from './card-index.js';
import { readBesideLayoutCheck } from './layout.js';
import { attributes, type Key, keys, threadRange } from './keys.js';
import {
  type ModeratedComment,
  type ModerationChange,
  moderationItems,
  movesKey,
  removalItems,
} from './moderation-items.js';
import { authorCountUpdates } from './author-count-items.js';
import { placeholderItems } from './own-comment-items.js';
import { answeredOf, erasedItems, type ErasedWithReplies } from './erase-items.js';
import { projection } from './projection.js';
import { storedCount } from './stored-count.js';
import { transactWrite } from './transact.js';

export type { ModeratedComment } from './moderation-items.js';

/** What an administrator can do to comments. Each change moves the counters in the same transaction. */
export interface ModerationRepository {
  /** One comment, read consistently wherever its status put it. */
  get(ref: CommentRef): Promise<ModeratedComment | undefined>;
  /**
   * Applies a change of text, pin and status to a comment as it was read, in one transaction with the
   * counters (a reply changing status may change key between visible and held); false when it changed
   * meanwhile or is gone (nothing written).
   */
  moderate(comment: ModeratedComment, change: ModerationChange): Promise<boolean>;
  /**
   * Deletes a comment, the replies that answer it, and their duplicate marks, leaving a tombstone of
   * each (imports skip their ids), reading only its thread; returns how many, or `conflict` when one
   * of them changed status meanwhile (that part was not deleted: try again). With `expected`, only a
   * comment read in `expected.status` is deleted (`conflict` otherwise, nothing deleted), and its delete
   * is conditioned on that status: a link from a mail deletes only what the owner saw.
   */
  remove(ref: CommentRef, expected?: { readonly status: CommentStatus }): Promise<number | 'conflict'>;
  /**
   * An author's delete of their own comment (account `ownerId`, domain/own-comment.ts): reading only its thread,
   * consistently, a comment nobody answered is deleted as {@link remove} deletes one (its duplicate mark, a
   * tombstone, its counters); one with replies becomes the deleted placeholder (own-comment-items.ts), which
   * keeps them, and no counter moves. `missing` when there is no such comment, `refused` (and why) when it is not
   * `ownerId`'s, `conflict` when it changed meanwhile (nothing written).
   */
  removeOwn(
    ref: CommentRef,
    ownerId: string,
  ): Promise<
    | { readonly outcome: 'deleted' | 'placeholder' | 'missing' | 'conflict' }
    | { readonly outcome: 'refused'; readonly refusal: OwnCommentRefusal }
  >;
  /**
   * A commenter's erase, in the thread of `ref` (read only, consistently): of its comments, those `belongs` says
   * are the commenter's go. One nobody else answered is deleted as {@link remove} deletes one (its duplicate mark,
   * its feed entry, a tombstone, its counters), in transactions of at most {@link commentsPerTransaction}, replies
   * before roots; one others answered (or answered by one that stays) stays for them, as the placeholder or
   * anonymised (`mode`, erase-items.ts), and no page counter moves. Every approved one leaves its author's level
   * counter. Counts what it did; `conflict` when a comment changed meanwhile (what was written stays right: run it
   * again).
   */
  eraseInThread(
    ref: CommentRef,
    belongs: (comment: ModeratedComment) => boolean,
    mode: ErasedWithReplies,
  ): Promise<{ readonly removed: number; readonly kept: number } | 'conflict'>;
  /**
   * Every comment of `status`, newest first, texts included (their cards from the card index, then the
   * items): for a search, which must see them all.
   */
  listByStatus(status: CommentStatus): Promise<ListedComment[]>;
  /**
   * Comments `first` to `first + count - 1` of the queues of `statuses` merged, newest first: the cards of
   * each queue up to the page's end, then the page's texts within a budget of bytes (card-index.ts), so
   * that neither the comments a page skips nor the size of its own can make it expensive. A comment deleted
   * between the two reads is left out.
   */
  pageByStatus(statuses: readonly CommentStatus[], first: number, count: number): Promise<ListedComment[]>;
  /** How many comments of each status the site has (from its counters). */
  queueSizes(): Promise<Record<CommentStatus, number>>;
}

/**
 * Comments per transaction (DynamoDB allows 100 items): five items each at most (the comment, its duplicate
 * mark, its feed entries under its account's and its address's keys, its tombstone), at most one author counter
 * each, and the two counter updates.
 */
export const commentsPerTransaction = 16;

/** A comment item as moderation reads it: with its duplicate-mark hash and whether its parent's author was told. */
const moderated = (item: Record<string, unknown>): ModeratedComment => {
  const hash = item.contentHash;
  return {
    ...fromCommentItem(item),
    ...(typeof hash === 'string' ? { contentHash: hash } : {}),
    ...(item[replyNotifiedAttribute] === true ? { replyNotified: true } : {}),
  };
};

/** The table key of a card. */
const cardKey = (card: Card): Key => ({ pk: String(card[attributes.pk]), sk: String(card[attributes.sk]) });

/**
 * Builds the moderation repository on `client` and `tableName`; `ensureLayout` runs before each read, `now`
 * (milliseconds since the epoch) times approvals and tombstones, `hashAddress` (the keyed address hash,
 * shared/notify/address-hash.ts) keys the trust mark an approval writes for the comment's address and spam
 * deletes (none without it); `authorOf` names the level counter a comment's approval, unapproval or deletion
 * moves (domain/author-tally.ts; none without it).
 */
export function createModerationRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
  ensureLayout: () => Promise<void> = async () => undefined,
  now: () => number = Date.now,
  hashAddress?: (address: string) => string,
  authorOf?: AuthorTallyOf,
): ModerationRepository {
  const readItem = async (key: Key) =>
    (await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;

  /** Only the thread of `ref`, consistently: the root with its visible replies, and its held replies. */
  const readThread = async (ref: CommentRef) => {
    await ensureLayout();
    const rootId = ref.rid ?? ref.id;
    const [visible, held] = await Promise.all(
      (['visible', 'held'] as const).map((part) =>
        readCommentRange(client, tableName, ref.url, threadRange(rootId, part), { consistent: true }),
      ),
    );
    return [...(visible?.items ?? []), ...(held?.items ?? [])].map(moderated);
  };

  /**
   * Deletes `doomed` (comments of page `url`) in transactions of at most {@link commentsPerTransaction}, the roots
   * last: if a later transaction is refused, what is left can still be found and deleted. False when one was.
   */
  const removeAll = async (url: string, doomed: readonly ModeratedComment[]) => {
    const ordered = [...doomed].sort((a, b) => Number(isRoot(a)) - Number(isRoot(b)));
    for (let start = 0; start < ordered.length; start += commentsPerTransaction) {
      const chunk = ordered.slice(start, start + commentsPerTransaction);
      const outcome = await transactWrite(client, {
        TransactItems: removalItems(tableName, url, chunk, now(), authorOf),
      });
      if (!outcome.ok) return false;
    }
    return true;
  };

  return {
    async get(ref) {
      await ensureLayout();
      if (ref.rid === undefined) {
        const item = await readItem(keys.root(ref.url, ref.id));
        return item ? moderated(item) : undefined;
      }
      const [visible, held] = await Promise.all([
        readItem(keys.reply(ref.url, ref.rid, ref.id, false)),
        readItem(keys.reply(ref.url, ref.rid, ref.id, true)),
      ]);
      const item = visible ?? held;
      return item ? moderated(item) : undefined;
    },

    async moderate(comment, change) {
      // A reply changing side moves as a whole: its item is read again, consistently, to be moved as it is.
      let stored: Record<string, unknown> | undefined;
      if (movesKey(comment, change)) {
        stored = await readItem(keys.comment(comment));
        if (!stored || stored.status !== comment.status) return false;
      }
      const at = now();
      // An approval trusts the comment's address, when it is one (an empty or made-up mail never is); spam
      // withdraws that trust.
      const trusts =
        hashAddress !== undefined &&
        (change.status === 'approved' || change.status === 'spam') &&
        isPlainAddress(comment.mail);
      const items = moderationItems(
        tableName,
        comment,
        change,
        stored,
        { eventId: newUlid(at), at, ...(trusts ? { addressHash: hashAddress(comment.mail) } : {}) },
        authorOf?.(comment),
      );
      if (items.length === 0) return true;
      return (await transactWrite(client, { TransactItems: items })).ok;
    },

    async remove(ref, expected) {
      const thread = await readThread(ref);
      const target = thread.find((c) => c.id === ref.id);
      // The deletes below are conditioned on the status read here, so this check holds until they run.
      if (expected && target && target.status !== expected.status) return 'conflict';

      // As Waline: the comment, its direct replies, and (for a root) its whole thread.
      const doomed = thread.filter((c) => c.id === ref.id || c.pid === ref.id || c.rid === ref.id);
      return (await removeAll(ref.url, doomed)) ? doomed.length : 'conflict';
    },

    async removeOwn(ref, ownerId) {
      const thread = await readThread(ref);
      const target = thread.find((c) => c.id === ref.id);
      if (!target) return { outcome: 'missing' };
      const refusal = ownDeleteRefusal(target, ownerId);
      if (refusal !== undefined) return { outcome: 'refused', refusal };
      // Its replies, of any status: a root's whole thread, a reply's direct answers.
      const answered = thread.some((c) => c.id !== ref.id && (c.pid === ref.id || c.rid === ref.id));
      // The author's level counter loses an approved comment either way: a placeholder counts for nobody (the
      // tally is taken before the placeholder drops the account id).
      const tally = target.status === 'approved' ? authorOf?.(target) : undefined;
      const items = answered
        ? [
            ...placeholderItems(tableName, target, ownerId, now(), feedKeysOf(authorOf?.(target))),
            ...(tally ? authorCountUpdates(tableName, [{ tally, delta: -1 }]) : []),
          ]
        : removalItems(tableName, ref.url, [target], now(), authorOf);
      const outcome = await transactWrite(client, { TransactItems: items });
      if (!outcome.ok) return { outcome: 'conflict' };
      return { outcome: answered ? 'placeholder' : 'deleted' };
    },

    async eraseInThread(ref, belongs, mode) {
      const thread = await readThread(ref);
      const erased = new Set(thread.filter(belongs).map((comment) => comment.id));
      const answered = answeredOf(thread, erased);
      const doomed = thread.filter((c) => erased.has(c.id) && !answered.has(c.id));
      if (!(await removeAll(ref.url, doomed))) return 'conflict';
      for (const comment of thread.filter((c) => answered.has(c.id))) {
        // The author's level counter loses an approved comment: what stays counts for nobody.
        const tally = authorOf?.(comment);
        const counted = comment.status === 'approved' && tally ? [{ tally, delta: -1 }] : [];
        const outcome = await transactWrite(client, {
          TransactItems: [
            ...erasedItems(tableName, comment, mode, now(), feedKeysOf(tally)),
            ...authorCountUpdates(tableName, counted),
          ],
        });
        if (!outcome.ok) return 'conflict';
      }
      return { removed: doomed.length, kept: answered.size };
    },

    async listByStatus(status) {
      // The card indexes exist, filled, only in this layout: an unmigrated table answers 503.
      const cards = await readBesideLayoutCheck(ensureLayout, () => queryCards(client, tableName, status));
      // A search through the texts reads them all: an administrator's request, never a visitor's.
      const found = await batchGet(client, tableName, cards.map(cardKey), [
        ...listedAttributes,
        heldBecauseAttribute,
      ]);
      return cards.flatMap((card) => {
        const item = found.get(keyId(cardKey(card)));
        return item ? [fromCommentItem(item)] : [];
      });
    },

    async pageByStatus(statuses, first, count) {
      const end = first + count;
      // The cards up to the page's end, from each status's card index (held-by-time for the queues).
      const queues = await readBesideLayoutCheck(ensureLayout, () =>
        Promise.all(statuses.map((status) => queryCards(client, tableName, status, end))),
      );
      const page = queues
        .flat()
        .map((card) => ({ card, id: String(card[attributes.commentId]) }))
        .sort(newestFirstById)
        .slice(first, end)
        .map(({ card }) => card);
      if (page.length === 0) return [];
      // Then the page's texts, within a budget of bytes: the rest are shown without theirs (and without why they
      // were held, which the cards do not copy).
      return withTexts(client, tableName, page, undefined, [heldBecauseAttribute]);
    },

    async queueSizes() {
      const output = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.siteCounters(),
          ...projection(['comments', 'waiting', 'spam']),
        }),
      );
      return {
        approved: storedCount(output.Item?.comments),
        waiting: storedCount(output.Item?.waiting),
        spam: storedCount(output.Item?.spam),
      };
    },
  };
}
