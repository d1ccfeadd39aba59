/** The final report of a migration, as text for the terminal. */
import { layoutVersion } from '../../functions/shared/table/table-definition.js';
import type { MigrationOutcome, SiteOutcome } from './run-migration.js';

/** Errors listed one by one; the rest are counted. */
const errorsShown = 10;

const siteLines: Record<SiteOutcome, string> = {
  marked: `table marked as layout ${layoutVersion}: the functions accept comment writes again`,
  already: `table already marked as layout ${layoutVersion}`,
  'would-mark': `the table would then be marked as layout ${layoutVersion}`,
  left:
    'table left unmarked because of the errors above: the functions keep answering 503. ' +
    'Run the migration again once they are fixed; what is done stays done.',
  absent: 'no site counters (no comment was ever counted): nothing to mark',
};

/** Formats the report: what was done, what needed nothing, the errors, and the state of the layout mark. */
export function formatReport(outcome: MigrationOutcome, context: { target: string }): string {
  const { already, dryRun } = outcome;
  const alreadyTotal = already.replies + already.roots + already.pages;
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const lines = [
    `${dryRun ? 'Dry run (nothing written) of the migration' : 'Migration'} of ${context.target} to item layout ${layoutVersion}`,
  ];
  if (outcome.indexesCreated.length > 0) {
    lines.push(`  indexes ${dryRun ? 'to create' : 'created'}: ${outcome.indexesCreated.join(', ')}`);
  }
  lines.push(
    `  items scanned: ${outcome.scanned}`,
    `  replies ${dryRun ? 'to move' : 'moved'}: ${outcome.repliesMoved}`,
    `  roots ${dryRun ? 'to index' : 'indexed'}: ${outcome.rootsIndexed}`,
    `  replies ${dryRun ? 'to index' : 'indexed'}: ${outcome.repliesIndexed}`,
    `  pages ${dryRun ? 'to recount' : 'recounted'}: ${outcome.pagesRecounted}`,
    `  already in layout ${layoutVersion}: ${alreadyTotal} (${count(already.replies, 'reply', 'replies')}, ` +
      `${count(already.roots, 'root', 'roots')}, ${count(already.pages, 'page', 'pages')})`,
    `  errors: ${outcome.errors.length}`,
  );
  for (const { item, reason } of outcome.errors.slice(0, errorsShown)) lines.push(`    ${item}: ${reason}`);
  if (outcome.errors.length > errorsShown) lines.push(`    and ${outcome.errors.length - errorsShown} more`);
  lines.push(`  ${siteLines[outcome.site]}`);
  return lines.join('\n');
}
