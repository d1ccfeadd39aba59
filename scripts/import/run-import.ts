/**
 * Carries out an import plan on a table: skips what is already there (a rerun or a resumed run adds
 * nothing twice) and what an administrator deleted since (its tombstone), writes the rest in batches,
 * then recounts every page touched and moves the site counters by what those pages gained, and adds
 * to reading counters what the source holds beyond what earlier imports added.
 */
import type { CommentStatus } from '../../functions/shared/domain/comment.js';
import type { ImportRepository, PageCounts } from '../shared/storage/import-repository.js';
import { keyId } from '../../functions/shared/table/batch-get.js';
import { type Key, keys } from '../../functions/shared/table/keys.js';
import type { ImportPlan } from './plan.js';
import type { Progress } from './progress.js';
import { type AccountsOutcome, type ImportAccounts, runAccounts } from './run-accounts.js';

/** What an import did (or, in a dry run, would do). */
export interface ImportOutcome {
  readonly imported: Record<CommentStatus, number>;
  /** The source's registered users brought over as accounts (a dry run counts them all as created). */
  readonly accounts: AccountsOutcome;
  /** Comments written with their author's account id (`userId`). */
  readonly withAccount: number;
  /** Comments an earlier import wrote without their author's account, given it now. */
  readonly authorsLinked: number;
  /** Comments found in the table already (same derived id): a rerun. */
  readonly alreadyThere: number;
  readonly skipped: { ref: string; reason: string }[];
  /** Pages whose reading counters were set. */
  readonly readingPages: number;
  /** Reading counters moved by this run (a rerun of the same source moves none). */
  readonly readingChanged: number;
  /** The site counters after the import; undefined in a dry run. */
  readonly site?: { comments: number; waiting: number; spam: number };
  readonly pagesRecounted: number;
}

/** The counts alone, as kept on the page until the import's counts are stored (no first-comment time). */
const pageCounts = ({ comments, roots, waiting, spam, heldRoots }: PageCounts): PageCounts => ({
  comments,
  roots,
  waiting,
  spam,
  heldRoots,
});

const pool = async <T>(inputs: readonly T[], size: number, work: (input: T) => Promise<unknown>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, inputs.length) }, async () => {
      while (next < inputs.length) await work(inputs[next++] as T);
    }),
  );
};

/**
 * Runs `plan` against `repository`, its accounts through `accounts` first (needed when the plan has any);
 * without a repository (a dry run) nothing is read or written.
 */
export async function runImport(
  plan: ImportPlan,
  repository: ImportRepository | undefined,
  progress: (total: number) => Progress,
  accounts?: ImportAccounts,
): Promise<ImportOutcome> {
  const imported: Record<CommentStatus, number> = { approved: 0, waiting: 0, spam: 0 };
  const skipped = [...plan.skipped];
  if (!repository) {
    const run = await runAccounts(plan.accounts, undefined);
    for (const comment of plan.comments) imported[comment.status]++;
    return {
      imported,
      accounts: run.outcome,
      withAccount: plan.comments.filter((comment) => comment.userSourceId !== undefined).length,
      authorsLinked: 0,
      alreadyThere: 0,
      skipped,
      readingPages: plan.readingCounts.size,
      readingChanged: 0,
      pagesRecounted: 0,
    };
  }

  // Nothing is written into a table of the previous layout: `npm run migrate` comes first.
  await repository.ensureLayout();
  if (plan.accounts.length > 0 && !accounts)
    throw new Error('the plan has accounts: runImport needs the account store');
  // Accounts first: a comment is written with its author's account id only once that account exists.
  const authors = await runAccounts(plan.accounts, accounts);
  skipped.push(...authors.skipped);
  let withAccount = 0;
  const authorOf = (comment: (typeof plan.comments)[number]) =>
    comment.userSourceId === undefined ? undefined : authors.accountIds.get(comment.userSourceId);
  const itemOf = (comment: (typeof plan.comments)[number]) => {
    const userId = authorOf(comment);
    if (userId === undefined) return comment.item;
    withAccount++;
    return { ...comment.item, userId };
  };
  // A reply may sit visible or held since an earlier run (moderated meanwhile): both places are looked at.
  const places = (comment: (typeof plan.comments)[number]) =>
    comment.rid === undefined
      ? [keys.root(comment.url, comment.id)]
      : [true, false].map((held) => keys.reply(comment.url, comment.rid as string, comment.id, held));
  // With each comment, its tombstone: one an administrator deleted since an earlier run stays deleted.
  const wanted = plan.comments.flatMap((comment) => [
    ...places(comment),
    keys.duplicate(comment.url, comment.contentHash),
    keys.tombstone(comment.url, comment.id),
  ]);
  const existing = await repository.existing(wanted);
  const writes: Record<string, unknown>[] = [];
  // Comments an import wrote before accounts were imported: they get their author's account now.
  const links: { key: Key; userId: string }[] = [];
  let alreadyThere = 0;
  for (const comment of plan.comments) {
    const mark = existing.get(keyId(keys.duplicate(comment.url, comment.contentHash)));
    const place = places(comment).find((key) => existing.has(keyId(key)));
    if (place) {
      alreadyThere++;
      const userId = authorOf(comment);
      if (userId !== undefined && existing.get(keyId(place))?.userId === undefined)
        links.push({ key: place, userId });
      // A run stopped between a comment and its mark: write the mark now.
      if (!mark) writes.push(comment.duplicateMark);
    } else if (existing.has(keyId(keys.tombstone(comment.url, comment.id)))) {
      skipped.push({ ref: comment.ref, reason: 'deleted by an administrator after an earlier import' });
    } else if (mark && mark.of !== comment.id) {
      skipped.push({ ref: comment.ref, reason: 'the same author already posted the same text on this page' });
    } else {
      writes.push(itemOf(comment), comment.duplicateMark);
      imported[comment.status]++;
    }
  }

  // Each page touched is counted from its own partition (consistent reads, never an index) before
  // and after the writes: its counters are SET from the second count and the site gains the
  // difference, so comments of other pages and the site's own ADDs are left alone. The first count
  // is kept on the page until the second is stored, so a run resumed after a crash still adds what
  // the stopped run wrote.
  const urls = [...new Set(plan.comments.map((comment) => comment.url))];
  const before = new Map<string, PageCounts>();
  await pool(urls, 8, async (url) =>
    before.set(url, await repository.markCountsBefore(url, pageCounts(await repository.countPage(url)))),
  );

  const bar = progress(writes.length);
  await repository.putAll(writes, { onProgress: (done) => bar.update(done) });
  bar.finish();
  let authorsLinked = 0;
  await pool(links, 8, async ({ key, userId }) => {
    if (await repository.linkAuthor(key, userId)) authorsLinked++;
  });

  await pool(urls, 8, async (url) =>
    repository.storeCounts(url, before.get(url) as PageCounts, await repository.countPage(url)),
  );
  const site = await repository.siteCounts();

  const readingUrls = [...plan.readingCounts.keys()];
  let readingChanged = 0;
  await pool(readingUrls, 8, async (url) => {
    const added = await repository.addImportedReadings(url, plan.readingCounts.get(url) ?? {});
    readingChanged += Object.keys(added).length;
  });
  return {
    imported,
    accounts: authors.outcome,
    withAccount,
    authorsLinked,
    alreadyThere,
    skipped,
    readingPages: readingUrls.length,
    readingChanged,
    site,
    pagesRecounted: urls.length,
  };
}
