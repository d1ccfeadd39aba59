/**
 * Gives each article's page counters the time of its first approved comment (`firstCommentAt`), which
 * `READONLY_AGE` counts from: the submit transaction sets it on the first comment an article gets approved (an
 * approval too), and articles commented on before it have none (such an article stays open until this step has
 * run). A held comment never dates an article: anyone may post one on the url of an article not out yet.
 *
 * The time is the oldest `insertedAt` of the article's approved comments, read from its visible range. It is
 * computed for every page, also one that has a time: an old article commented on after the upgrade and before
 * this step got that comment's (newer) time, which this step moves back. Each page is written alone, only when
 * its time is missing or newer, with a condition that keeps an older time (a submit meanwhile sets only a newer
 * one), so a stopped run loses nothing and a rerun finds only what is left; a page without an approved comment
 * is left as it is. With `dryRun`, only counts.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, paginateScan, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import { readCommentRange } from '../../functions/shared/table/article-comments.js';
import { firstCommentAttribute } from '../../functions/shared/table/counter-deltas.js';
import { articleRange, attributes, keys } from '../../functions/shared/table/keys.js';

type Item = Record<string, unknown>;

/** What the step did (or, on a dry run, would do). */
export interface FirstCommentOutcome {
  readonly dryRun: boolean;
  /** Pages that had no first-comment time and were given one. */
  readonly set: number;
  /** Pages whose time was newer than their oldest approved comment (set by a submit before this step): moved back. */
  readonly corrected: number;
  /** Pages whose time was right already (their oldest approved comment's, or older). */
  readonly already: number;
  /** Pages of articles without an approved comment (held ones, page views or reactions only): nothing to set. */
  readonly noComment: number;
  readonly errors: readonly { readonly item: string; readonly reason: string }[];
}

const pageSk = keys.pageCounters('').sk;

/** The page counters of the table, page by page: a Scan (offline tool only) filtered to `PAGE` items. */
async function* pageItems(client: DynamoDBDocumentClient, tableName: string): AsyncGenerator<Item> {
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      // The filter runs after the read: the whole table is read (and paid for), only page counters come back.
      FilterExpression: '#sk = :page',
      ExpressionAttributeNames: { '#sk': attributes.sk },
      ExpressionAttributeValues: { ':page': pageSk },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) yield* page.Items ?? [];
}

/** When a comment item was written: its `insertedAt`, else its id's time when the id is a ULID. */
function commentTime(item: Item): number | undefined {
  const inserted = Number(item.insertedAt);
  if (Number.isFinite(inserted) && inserted > 0) return inserted;
  const id = item[attributes.commentId];
  if (typeof id !== 'string') return undefined;
  try {
    return decodeTime(id);
  } catch {
    return undefined;
  }
}

/** The oldest time of the approved comments of `url`, or undefined when it has none. */
async function oldestApprovedAt(
  client: DynamoDBDocumentClient,
  tableName: string,
  url: string,
): Promise<number | undefined> {
  let oldest: number | undefined;
  // Approved comments are all in the visible range (held replies are in the other); a held root stays there too,
  // so the status is read: an item without one was stored approved, before statuses.
  const { items } = await readCommentRange(client, tableName, url, articleRange('visible'), {
    names: ['insertedAt', 'status', attributes.commentId],
    consistent: true,
  });
  for (const item of items) {
    if ((item.status ?? 'approved') !== 'approved') continue;
    const at = commentTime(item);
    if (at !== undefined && (oldest === undefined || at < oldest)) oldest = at;
  }
  return oldest;
}

/**
 * Gives every page of `tableName` its oldest approved comment's time where it lacks one or holds a newer one;
 * with `dryRun`, only counts them.
 */
export async function migrateFirstCommentTimes(
  client: DynamoDBDocumentClient,
  tableName: string,
  options: { readonly dryRun: boolean },
): Promise<FirstCommentOutcome> {
  const { dryRun } = options;
  const counts = { set: 0, corrected: 0, already: 0, noComment: 0 };
  const errors: { item: string; reason: string }[] = [];
  for await (const page of pageItems(client, tableName)) {
    const url = typeof page.url === 'string' ? page.url : String(page[attributes.pk]).replace(/^URL#/, '');
    try {
      const at = await oldestApprovedAt(client, tableName, url);
      if (at === undefined) {
        counts.noComment++;
        continue;
      }
      const had = Number(page[firstCommentAttribute]);
      const hasTime = page[firstCommentAttribute] !== undefined && Number.isFinite(had);
      if (hasTime && had <= at) {
        counts.already++;
        continue;
      }
      if (!dryRun) await setFirstCommentAt(client, tableName, url, at);
      if (hasTime) counts.corrected++;
      else counts.set++;
    } catch (error) {
      errors.push({ item: url, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { dryRun, ...counts, errors };
}

/** Sets the page's first-comment time to `at` unless it holds an older one already. */
async function setFirstCommentAt(
  client: DynamoDBDocumentClient,
  tableName: string,
  url: string,
  at: number,
): Promise<void> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.pageCounters(url),
        UpdateExpression: 'SET #first = :at',
        // Only on the page as scanned (never a bare item for a page deleted since), and never over an older
        // time: a comment submitted meanwhile set its own, newer one, which the oldest comment's replaces.
        ConditionExpression: 'attribute_exists(#pk) AND (attribute_not_exists(#first) OR #first > :at)',
        ExpressionAttributeNames: { '#pk': attributes.pk, '#first': firstCommentAttribute },
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The report's lines of the step. */
export function formatFirstCommentReport(outcome: FirstCommentOutcome): string {
  return [
    `First-comment times of articles, for READONLY_AGE${outcome.dryRun ? ' (dry run)' : ''}`,
    `  ${outcome.dryRun ? 'to set' : 'set'}: ${outcome.set}`,
    `  ${outcome.dryRun ? 'to correct' : 'corrected'} (newer than the oldest approved comment): ${outcome.corrected}`,
    `  right already: ${outcome.already}`,
    `  articles without an approved comment: ${outcome.noComment}`,
    `  errors: ${outcome.errors.length}`,
    ...outcome.errors.slice(0, 10).map(({ item, reason }) => `    ${item}: ${reason}`),
  ].join('\n');
}

/** The step as `npm run migrate` runs it; `complete` is false when some pages could not be set. */
export async function runFirstCommentStep(
  client: DynamoDBDocumentClient,
  tableName: string,
  options: { readonly dryRun: boolean },
): Promise<{ readonly report: string; readonly complete: boolean }> {
  const outcome = await migrateFirstCommentTimes(client, tableName, options);
  return { report: formatFirstCommentReport(outcome), complete: outcome.errors.length === 0 };
}
