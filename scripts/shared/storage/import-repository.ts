import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CounterName } from '../../../functions/shared/domain/counters.js';
import { batchGet } from '../../../functions/shared/table/batch-get.js';
import { entities, type Key, keys } from '../../../functions/shared/table/keys.js';
import { createLayoutCheck, layoutGuard } from '../../../functions/shared/table/layout.js';
import { projection } from '../../../functions/shared/table/projection.js';
import { storedCount } from '../../../functions/shared/table/stored-count.js';
import { queryArticleComments } from '../../../functions/shared/table/article-comments.js';
import { firstCommentAttribute } from '../../../functions/shared/table/counter-deltas.js';
import { retryOnConflict, transactWrite } from '../../../functions/shared/table/transact.js';
import { putAll, type BulkWriteOptions } from './bulk-writer.js';

/** The comments of one page by status, counted from its partition. */
export interface PageCounts {
  /** Approved (visible) comments. */
  readonly comments: number;
  /** Approved comments without a parent. */
  readonly roots: number;
  readonly waiting: number;
  readonly spam: number;
  /** Held (waiting or spam) comments without a parent. */
  readonly heldRoots: number;
}

/** A page's counts, with when its oldest approved comment was written (none without one). */
export type CountedPage = PageCounts & { readonly firstCommentAt?: number };

/** The site's counters. */
export interface SiteCounts {
  readonly comments: number;
  readonly waiting: number;
  readonly spam: number;
}

/** The attribute of a page's counter item holding how much of `name` imports have added. */
export const importedAttribute = (name: CounterName) => `imported_${name}`;

/** The attribute of a page's counter item holding its counts before an import not yet accounted for. */
const countsBeforeAttribute = 'import_counts_before';

/** How often a reading-counter update is tried again when another writer moved its import marks. */
const markAttempts = 8;

/** The writes of an import. Every one is idempotent: a rerun converges on the same table. */
export interface ImportRepository {
  /** Resolves when the table has this item layout (or is new); throws UpgradeRequiredError when not. */
  ensureLayout(): Promise<void>;
  /**
   * Which of `keys` exist, with their `of` attribute (a duplicate mark's comment id) and `userId` (a comment's
   * author account), by key id; read consistently, so that what a stopped run or a delete just wrote is seen.
   */
  existing(keys: readonly Key[]): Promise<Map<string, { of?: string; userId?: string }>>;
  /**
   * Names `userId` as the author account of the comment at `key`, written by an import before accounts were
   * imported; false (nothing written) when the comment is gone or already names one.
   */
  linkAuthor(key: Key, userId: string): Promise<boolean>;
  /** Puts items in batches of 25, retrying what is left unprocessed. */
  putAll(items: readonly Record<string, unknown>[], options?: BulkWriteOptions): Promise<void>;
  /**
   * Counts the comments of `url` by status with consistent Queries of its partition (no index), and finds the
   * time of its oldest approved one (READONLY_AGE counts from it; a held one dates no article).
   */
  countPage(url: string): Promise<CountedPage>;
  /**
   * Keeps `counts` on the page as the counts before the import, unless a run that stopped before
   * {@link storeCounts} kept some already; returns the counts kept. A resumed run thus still adds
   * to the site the comments the stopped run wrote.
   */
  markCountsBefore(url: string, counts: PageCounts): Promise<PageCounts>;
  /**
   * Stores the counts of `url` after an import: SET its page counters to `after` (and its first-comment time to
   * its oldest comment's), and ADD `after - before` to the site counters, in one transaction. A rerun (after
   * equal to before) adds 0.
   */
  storeCounts(url: string, before: PageCounts, after: CountedPage): Promise<void>;
  /** The site counters, read consistently. */
  siteCounts(): Promise<SiteCounts>;
  /**
   * Adds to the reading counters of `url` what `values` holds beyond what earlier imports added
   * (kept per counter as `imported_<name>`), in one conditional UpdateItem: live counts are kept and
   * a rerun adds 0. Returns what was added.
   */
  addImportedReadings(
    url: string,
    values: Partial<Record<CounterName, number>>,
  ): Promise<Partial<Record<CounterName, number>>>;
}

/** Builds the import repository on `client` and `tableName`. */
export function createImportRepository(client: DynamoDBDocumentClient, tableName: string): ImportRepository {
  return {
    ensureLayout: createLayoutCheck(client, tableName),

    async existing(wanted) {
      const found = await batchGet(client, tableName, wanted, ['of', 'userId'], { consistent: true });
      const result = new Map<string, { of?: string; userId?: string }>();
      for (const [id, item] of found) {
        result.set(id, {
          ...(typeof item.of === 'string' ? { of: item.of } : {}),
          ...(typeof item.userId === 'string' ? { userId: item.userId } : {}),
        });
      }
      return result;
    },

    async linkAuthor(key, userId) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression: 'SET #userId = :userId',
            // Only a comment still there (an UpdateItem on a missing key would create one) that names no
            // author yet: a rerun, or an author set since, is left alone.
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#userId)',
            ExpressionAttributeNames: { '#userId': 'userId' },
            ExpressionAttributeValues: { ':userId': userId },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    putAll: (items, options) => putAll(client, tableName, items, options),

    async countPage(url) {
      let comments = 0;
      let roots = 0;
      let waiting = 0;
      let spam = 0;
      let heldRoots = 0;
      let firstCommentAt: number | undefined;
      // The base table, never an index: only it can be read consistently, so comments just written
      // are counted. Only what the counts and the oldest time need is read back.
      const names = ['status', 'rid', 'insertedAt'];
      for await (const item of queryArticleComments(client, tableName, url, { names, consistent: true })) {
        const status = item.status ?? 'approved';
        const root = item.rid === undefined;
        if (status === 'approved') {
          const at = Number(item.insertedAt);
          if (Number.isFinite(at) && at > 0 && (firstCommentAt === undefined || at < firstCommentAt)) {
            firstCommentAt = at;
          }
          comments++;
          if (root) roots++;
        } else {
          if (status === 'waiting') waiting++;
          else spam++;
          if (root) heldRoots++;
        }
      }
      return {
        comments,
        roots,
        waiting,
        spam,
        heldRoots,
        ...(firstCommentAt === undefined ? {} : { firstCommentAt }),
      };
    },

    async markCountsBefore(url, counts) {
      const output = await retryOnConflict(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.pageCounters(url),
            UpdateExpression: 'SET #before = if_not_exists(#before, :counts), #entity = :entity, #url = :url',
            ExpressionAttributeNames: {
              '#before': countsBeforeAttribute,
              '#entity': 'entity',
              '#url': 'url',
            },
            ExpressionAttributeValues: { ':counts': counts, ':entity': entities.pageCounters, ':url': url },
            ReturnValues: 'UPDATED_NEW',
          }),
        ),
      );
      const kept = (output.Attributes?.[countsBeforeAttribute] ?? counts) as Record<string, unknown>;
      const value = (name: keyof PageCounts) => Number(kept[name]) || 0;
      return {
        comments: value('comments'),
        roots: value('roots'),
        waiting: value('waiting'),
        spam: value('spam'),
        heldRoots: value('heldRoots'),
      };
    },

    async storeCounts(url, before, after) {
      const site = {
        comments: after.comments - before.comments,
        waiting: after.waiting - before.waiting,
        spam: after.spam - before.spam,
      };
      const changed = Object.entries(site).filter(([, value]) => value !== 0);
      const siteNames = Object.fromEntries(changed.map(([name], i) => [`#c${i}`, name]));
      const siteValues = Object.fromEntries(changed.map(([, value], i) => [`:c${i}`, value]));
      const outcome = await transactWrite(client, {
        TransactItems: [
          {
            Update: {
              TableName: tableName,
              Key: keys.pageCounters(url),
              // SET, not ADD: the page's counts were just taken from its comments. The counts
              // before go with the write that accounts for them.
              // The first-comment time is SET too: the oldest approved comment the page holds now, imported or live.
              UpdateExpression: `SET #comments = :comments, #roots = :roots, #held = :held, #heldRoots = :heldRoots, #entity = :entity, #url = :url${after.firstCommentAt === undefined ? '' : ', #first = :first'} REMOVE #before`,
              ExpressionAttributeNames: {
                ...(after.firstCommentAt === undefined ? {} : { '#first': firstCommentAttribute }),
                '#before': countsBeforeAttribute,
                '#comments': 'comments',
                '#roots': 'roots',
                '#held': 'held',
                '#heldRoots': 'heldRoots',
                '#entity': 'entity',
                '#url': 'url',
              },
              ExpressionAttributeValues: {
                ':comments': after.comments,
                ':roots': after.roots,
                ':held': after.waiting + after.spam,
                ':heldRoots': after.heldRoots,
                ':entity': entities.pageCounters,
                ':url': url,
                ...(after.firstCommentAt === undefined ? {} : { ':first': after.firstCommentAt }),
              },
            },
          },
          ...(changed.length > 0
            ? [
                {
                  Update: {
                    TableName: tableName,
                    Key: keys.siteCounters(),
                    // ADD what this page gained: exact beside live writes, which ADD too.
                    UpdateExpression: `ADD ${changed.map((_, i) => `#c${i} :c${i}`).join(', ')} SET #entity = :entity, #layout = :layout`,
                    // An import into a table of the previous layout is refused: migrate it first.
                    ConditionExpression: layoutGuard.ConditionExpression,
                    ExpressionAttributeNames: {
                      ...siteNames,
                      '#entity': 'entity',
                      ...layoutGuard.ExpressionAttributeNames,
                    },
                    ExpressionAttributeValues: {
                      ...siteValues,
                      ':entity': entities.siteCounters,
                      ...layoutGuard.ExpressionAttributeValues,
                    },
                  },
                },
              ]
            : []),
        ],
      });
      if (!outcome.ok) throw new Error(`storing the counts of ${url} failed its conditions`);
    },

    async siteCounts() {
      const output = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.siteCounters(), ConsistentRead: true }),
      );
      const value = (name: string) => storedCount(output.Item?.[name]);
      return { comments: value('comments'), waiting: value('waiting'), spam: value('spam') };
    },

    async addImportedReadings(url, values) {
      const entries = (Object.entries(values) as [CounterName, number][]).filter(([, value]) =>
        Number.isFinite(value),
      );
      if (entries.length === 0) return {};
      for (let attempt = 1; ; attempt++) {
        const output = await client.send(
          new GetCommand({
            TableName: tableName,
            Key: keys.pageCounters(url),
            ConsistentRead: true,
            ...projection(entries.map(([name]) => importedAttribute(name))),
          }),
        );
        const names: Record<string, string> = { '#entity': 'entity', '#url': 'url' };
        const expressionValues: Record<string, unknown> = { ':entity': entities.pageCounters, ':url': url };
        const adds: string[] = [];
        const sets = ['#entity = :entity', '#url = :url'];
        const conditions: string[] = [];
        const added: Partial<Record<CounterName, number>> = {};
        entries.forEach(([name, value], i) => {
          const stored = output.Item?.[importedAttribute(name)];
          const previous = typeof stored === 'number' ? stored : undefined;
          names[`#i${i}`] = importedAttribute(name);
          expressionValues[`:i${i}`] = value;
          sets.push(`#i${i} = :i${i}`);
          // The mark read must still be there: another import in between would be counted twice.
          if (previous === undefined) conditions.push(`attribute_not_exists(#i${i})`);
          else {
            expressionValues[`:p${i}`] = previous;
            conditions.push(`#i${i} = :p${i}`);
          }
          const difference = value - (previous ?? 0);
          if (difference !== 0) {
            names[`#c${i}`] = name;
            expressionValues[`:d${i}`] = difference;
            adds.push(`#c${i} :d${i}`);
            added[name] = difference;
          }
        });
        try {
          await retryOnConflict(() =>
            client.send(
              new UpdateCommand({
                TableName: tableName,
                Key: keys.pageCounters(url),
                // ADD the difference from the last import (live visits are kept) and SET the new mark,
                // in one item write: both happen or neither.
                UpdateExpression: `${adds.length > 0 ? `ADD ${adds.join(', ')} ` : ''}SET ${sets.join(', ')}`,
                ConditionExpression: conditions.join(' AND '),
                ExpressionAttributeNames: names,
                ExpressionAttributeValues: expressionValues,
              }),
            ),
          );
          return added;
        } catch (error) {
          if (!(error instanceof ConditionalCheckFailedException) || attempt >= markAttempts) throw error;
        }
      }
    },
  };
}
