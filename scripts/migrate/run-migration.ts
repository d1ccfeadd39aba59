/**
 * Brings a table written by 0.1.0 (item layout 1) or 0.2 (layout 2) to layout 3, in the order that keeps
 * the functions safe: the indexes, then every comment where layout 3 keeps it (replies moved under their
 * root, roots given their roots-index partition, every comment its card-index keys and `textBytes`, and
 * no layout 2 `recent` keys), then each page's counters recounted, and only then, when all of it
 * succeeded, the site item's layout mark, which is what lets the functions read and write again.
 *
 * Every step looks at the table before it changes anything, and changes only what is not yet in layout 3:
 * a rerun, or a run after one that was stopped half way, finishes the work and repeats none of it.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { layoutVersion } from '../../functions/shared/table/table-definition.js';
import { keyId } from '../../functions/shared/table/batch-get.js';
import { attributes, type Key } from '../../functions/shared/table/keys.js';
import { scanTable } from '../shared/storage/table-export.js';
import type { Progress } from '../import/progress.js';
import { createMigrationStore, type MigrationStore, type StoredPageCounts } from './migration-store.js';
import {
  isCommentItem,
  isPageCountersItem,
  type PageCounts,
  pageCountNames,
  planComment,
} from './plan-comment.js';
import { checkIndexes } from './table-indexes.js';

type Item = Record<string, unknown>;

/** How a migration runs. */
export interface MigrationOptions {
  /** Reads everything, writes nothing, and counts what a real run would do. */
  readonly dryRun: boolean;
  /** DynamoDB Local: missing indexes are created. Otherwise (AWS) a missing index stops the run. */
  readonly local: boolean;
  /** Shows the progress of a step of `total` units; nothing is shown without it. */
  readonly progress?: (label: string, total: number) => Progress;
}

/** What became of the site item's layout mark. */
export type SiteOutcome =
  /** Set to this layout by this run. */
  | 'marked'
  /** It said this layout already. */
  | 'already'
  /** A dry run that found nothing in the way. */
  | 'would-mark'
  /** Left unset because some items could not be migrated. */
  | 'left'
  /** No site item: nothing was ever counted, and the functions take the table as new. */
  | 'absent';

/** What a migration did (or, on a dry run, would do). */
export interface MigrationOutcome {
  readonly dryRun: boolean;
  readonly indexesCreated: readonly string[];
  /** Items read by the scan (each once, though a moved reply is met again at its new key). */
  readonly scanned: number;
  readonly repliesMoved: number;
  readonly rootsIndexed: number;
  /** Replies in place given their layout 3 attributes (card-index keys, `textBytes`). */
  readonly repliesIndexed: number;
  readonly pagesRecounted: number;
  /** What needed nothing. */
  readonly already: { readonly replies: number; readonly roots: number; readonly pages: number };
  /** Items left as they were, with why; any of them keeps the layout mark unset. */
  readonly errors: readonly { readonly item: string; readonly reason: string }[];
  readonly site: SiteOutcome;
}

/** Comment writes in flight at once, and page recounts. */
const commentConcurrency = 16;
const pageConcurrency = 8;
/** Reads-and-tries of one item that keeps changing under the migration before it is reported. */
const attempts = 4;

const silent = (): Progress => ({ update: () => {}, finish: () => {} });
const describeKey = (item: Item) => `${String(item[attributes.pk])} ${String(item[attributes.sk])}`;
const keyOf = (item: Item): Key => ({ pk: String(item[attributes.pk]), sk: String(item[attributes.sk]) });
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Migrates the table `tableName`: `client` reads and writes items, `admin` describes (and, on DynamoDB
 * Local, extends) the table. Throws when something stops the whole run (a missing index on AWS, a lost
 * connection); items that cannot be migrated are reported in the outcome instead.
 */
export async function runMigration(
  tables: {
    readonly client: DynamoDBDocumentClient;
    readonly admin: DynamoDBClient;
    readonly tableName: string;
  },
  options: MigrationOptions,
): Promise<MigrationOutcome> {
  const { client, admin, tableName } = tables;
  const { dryRun } = options;
  const progress = options.progress ?? silent;
  const { created, itemCount } = await checkIndexes(admin, tableName, options);
  const store = createMigrationStore(client, tableName);
  const before = await store.readSite();
  if (before.layout !== undefined && before.layout > layoutVersion) {
    throw new Error(
      `Table ${tableName} has item layout ${before.layout}, newer than this version (${layoutVersion}).`,
    );
  }

  const counts = { scanned: 0, repliesMoved: 0, rootsIndexed: 0, repliesIndexed: 0, pagesRecounted: 0 };
  const already = { replies: 0, roots: 0, pages: 0 };
  const errors: { item: string; reason: string }[] = [];
  const pages = new Set<string>();

  // Steps 1 and 2: every comment where layout 3 keeps it, as the scan comes upon it.
  const comments = createCommentMigration(store, { dryRun, counts, already, errors });
  const scanning = progress('Scanning', itemCount);
  const pool = createPool(commentConcurrency);
  try {
    for await (const item of scanTable(client, tableName)) {
      // A reply this run moved further on in the scan: it was counted where it was met first.
      if (comments.moved.has(keyId(keyOf(item)))) continue;
      counts.scanned++;
      // The item count is DynamoDB's estimate: the bar stops at its end until the scan does.
      scanning.update(Math.min(counts.scanned, itemCount));
      if (isPageCountersItem(item) && typeof item.url === 'string') pages.add(item.url);
      if (!isCommentItem(item)) continue;
      if (typeof item.url === 'string') pages.add(item.url);
      await pool.add(() => comments.migrate(item));
    }
  } finally {
    await pool.drain();
  }
  scanning.finish();

  // Step 3: each page's counters from its comments, now all in place.
  const recounting = progress('Recounting pages', pages.size);
  let recounted = 0;
  const pagePool = createPool(pageConcurrency);
  for (const url of pages) {
    await pagePool.add(async () => {
      try {
        const outcome = await recountPage(store, url, dryRun);
        if (outcome === 'recounted') counts.pagesRecounted++;
        else if (outcome === 'already') already.pages++;
        else errors.push({ item: `page ${url}`, reason: 'its counters kept changing while being recounted' });
      } catch (error) {
        errors.push({ item: `page ${url}`, reason: message(error) });
      }
      recounting.update(++recounted);
    });
  }
  await pagePool.drain();
  recounting.finish();

  // Step 4, last: the mark that lets the functions write again, only over a complete table.
  const site = await store.readSite();
  let siteOutcome: SiteOutcome;
  if (site.layout === layoutVersion) siteOutcome = 'already';
  else if (!site.exists) siteOutcome = 'absent';
  else if (errors.length > 0) siteOutcome = 'left';
  else if (dryRun) siteOutcome = 'would-mark';
  else {
    await store.markLayout();
    siteOutcome = 'marked';
  }
  return { dryRun, indexesCreated: created, ...counts, already, errors, site: siteOutcome };
}

/** Moves replies and indexes comments, one at a time, counting what it did. */
function createCommentMigration(
  store: MigrationStore,
  state: {
    dryRun: boolean;
    counts: { repliesMoved: number; rootsIndexed: number; repliesIndexed: number };
    already: { replies: number; roots: number };
    errors: { item: string; reason: string }[];
  },
) {
  const { dryRun, counts, already, errors } = state;
  /** New keys of the replies this run moves, reserved before each move so the scan never counts one twice. */
  const moved = new Set<string>();

  const migrateOnce = async (item: Item): Promise<'done' | 'changed'> => {
    const step = planComment(item);
    const isReply = typeof item.rid === 'string';
    if (step.kind === 'invalid') {
      errors.push({ item: describeKey(item), reason: step.reason });
      return 'done';
    }
    if (step.kind === 'in-place') {
      if (isReply) already.replies++;
      else already.roots++;
      return 'done';
    }
    if (step.kind === 'move') {
      if (!dryRun) {
        const target = keyId(step.to);
        moved.add(target);
        const outcome = await store.moveReply(item, step.to, step);
        if (outcome === 'changed') return 'changed';
        if (outcome === 'taken') {
          moved.delete(target);
          errors.push({ item: describeKey(item), reason: `another item is at ${step.to.pk} ${step.to.sk}` });
          return 'done';
        }
      }
      counts.repliesMoved++;
      return 'done';
    }
    if (!dryRun && (await store.setDerived(item, step)) === 'changed') return 'changed';
    if (isReply) counts.repliesIndexed++;
    else counts.rootsIndexed++;
    return 'done';
  };

  return {
    moved,
    async migrate(first: Item): Promise<void> {
      let item: Item | undefined = first;
      try {
        for (let attempt = 1; item; attempt++) {
          if ((await migrateOnce(item)) === 'done') return;
          if (attempt >= attempts) {
            errors.push({ item: describeKey(item), reason: 'it kept changing while being migrated' });
            return;
          }
          // Changed since it was read: read it again and decide again. Gone: nothing left to migrate.
          item = await store.read(keyOf(item));
        }
      } catch (error) {
        errors.push({ item: describeKey(first), reason: message(error) });
      }
    },
  };
}

/** Recounts page `url`: `recounted`, `already` when its counters were right, `changing` when they kept moving. */
async function recountPage(
  store: MigrationStore,
  url: string,
  dryRun: boolean,
): Promise<'recounted' | 'already' | 'changing'> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    // The counters first, then the comments: a comment written in between moves the counters, and the
    // conditional write below then refuses the count.
    const stored = await store.readPageCounts(url);
    const counted = await store.countPage(url);
    if (sameCounts(stored, counted)) return 'already';
    if (dryRun) return 'recounted';
    if ((await store.setPageCounts(url, counted, stored)) === 'done') return 'recounted';
  }
  return 'changing';
}

/** A missing counter counts as 0, as the functions read it. */
function sameCounts(stored: StoredPageCounts, counted: PageCounts): boolean {
  return pageCountNames.every((name) => (stored[name] ?? 0) === counted[name]);
}

/** Runs tasks (which never reject) at most `size` at a time. */
function createPool(size: number) {
  const running = new Set<Promise<void>>();
  return {
    /** Starts `task`, waiting first while `size` are running. */
    async add(task: () => Promise<void>): Promise<void> {
      const promise: Promise<void> = task().finally(() => running.delete(promise));
      running.add(promise);
      if (running.size >= size) await Promise.race(running);
    },
    /** Waits for every task started. */
    async drain(): Promise<void> {
      await Promise.all(running);
    },
  };
}
