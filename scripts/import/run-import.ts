/**
 * Carries out an import plan on a table: skips what is already there (a rerun or a resumed run adds
 * nothing twice), writes the rest in batches, then recomputes the counters of every page touched
 * and of the site, and sets reading counters (the larger of source and table wins).
 */
import type { CommentStatus } from '../../functions/shared/domain/comment.js';
import { counterNames, type CounterName } from '../../functions/shared/domain/counters.js';
import type { ImportRepository } from '../../functions/shared/storage/import-repository.js';
import { keyId } from '../../functions/shared/storage/batch-get.js';
import { keys } from '../../functions/shared/storage/keys.js';
import type { ImportPlan } from './plan.js';
import type { Progress } from './progress.js';

/** What an import did (or, in a dry run, would do). */
export interface ImportOutcome {
  readonly imported: Record<CommentStatus, number>;
  /** Comments found in the table already (same derived id): a rerun. */
  readonly alreadyThere: number;
  readonly skipped: { ref: string; reason: string }[];
  /** Pages whose reading counters were set. */
  readonly readingPages: number;
  /** Pages where the table already had larger reading counters, which were kept. */
  readonly largerKept: number;
  /** The site counters after the import; undefined in a dry run. */
  readonly site?: { comments: number; waiting: number; spam: number };
  readonly pagesRecounted: number;
}

const pool = async <T>(inputs: readonly T[], size: number, work: (input: T) => Promise<unknown>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, inputs.length) }, async () => {
      while (next < inputs.length) await work(inputs[next++] as T);
    }),
  );
};

/** Runs `plan` against `repository`; without one (a dry run) nothing is read or written. */
export async function runImport(
  plan: ImportPlan,
  repository: ImportRepository | undefined,
  progress: (total: number) => Progress,
): Promise<ImportOutcome> {
  const imported: Record<CommentStatus, number> = { approved: 0, waiting: 0, spam: 0 };
  const skipped = [...plan.skipped];
  if (!repository) {
    for (const comment of plan.comments) imported[comment.status]++;
    return {
      imported,
      alreadyThere: 0,
      skipped,
      readingPages: plan.readingCounts.size,
      largerKept: 0,
      pagesRecounted: 0,
    };
  }

  const wanted = plan.comments.flatMap((comment) => [
    keys.comment(comment.url, comment.id),
    keys.duplicate(comment.url, comment.contentHash),
  ]);
  const existing = await repository.existing(wanted);
  const writes: Record<string, unknown>[] = [];
  let alreadyThere = 0;
  for (const comment of plan.comments) {
    const mark = existing.get(keyId(keys.duplicate(comment.url, comment.contentHash)));
    if (existing.has(keyId(keys.comment(comment.url, comment.id)))) {
      alreadyThere++;
      // A run stopped between a comment and its mark: write the mark now.
      if (!mark) writes.push(comment.duplicateMark);
    } else if (mark && mark.of !== comment.id) {
      skipped.push({ ref: comment.ref, reason: 'the same author already posted the same text on this page' });
    } else {
      writes.push(comment.item, comment.duplicateMark);
      imported[comment.status]++;
    }
  }
  const bar = progress(writes.length);
  await repository.putAll(writes, { onProgress: (done) => bar.update(done) });
  bar.finish();

  const urls = [...new Set(plan.comments.map((comment) => comment.url))];
  await pool(urls, 8, (url) => repository.recountPage(url));
  const site = await repository.recountSite();

  const readingUrls = [...plan.readingCounts.keys()];
  const current = await repository.readingCounts(readingUrls, counterNames);
  let largerKept = 0;
  await pool(readingUrls, 8, async (url) => {
    const source = plan.readingCounts.get(url) ?? {};
    const now = current.get(url) ?? {};
    const values: Partial<Record<CounterName, number>> = {};
    for (const [name, value] of Object.entries(source) as [CounterName, number][]) {
      if (value > (now[name] ?? 0)) values[name] = value;
      else if (value < (now[name] ?? 0)) largerKept++;
    }
    await repository.setReadingCounts(url, values);
  });
  return {
    imported,
    alreadyThere,
    skipped,
    readingPages: readingUrls.length,
    largerKept,
    site,
    pagesRecounted: urls.length,
  };
}
