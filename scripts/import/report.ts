/** The final report of an import, as text for the terminal. */
import type { PageVariant } from './page-keys.js';
import type { ImportPlan } from './plan.js';
import type { ImportOutcome } from './run-import.js';

const amount = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** `/a (2 comments, 10 pageviews)`: one source key of a merged page and what it held. */
function describeVariant({ key, comments, pageviews, reactions }: PageVariant): string {
  const held = [
    comments > 0 ? amount(comments, 'comment') : '',
    pageviews > 0 ? amount(pageviews, 'pageview') : '',
    reactions > 0 ? amount(reactions, 'reaction') : '',
  ].filter(Boolean);
  return `${key} (${held.join(', ')})`;
}

/**
 * Formats the report: counts by kind, skips grouped by reason (with up to 3 records each), every
 * page merged with the source keys it came from, repairs, notes.
 */
export function formatReport(
  plan: ImportPlan,
  outcome: ImportOutcome,
  context: { target: string; dryRun: boolean },
): string {
  const { imported } = outcome;
  const total = imported.approved + imported.waiting + imported.spam;
  const lines = [
    `${context.dryRun ? 'Dry run (nothing written)' : 'Import'} from ${plan.format} into ${context.target}`,
    `  comments ${context.dryRun ? 'to import' : 'imported'}: ${total} (approved ${imported.approved}, waiting ${imported.waiting}, spam ${imported.spam})`,
  ];
  if (!context.dryRun) lines.push(`  comments already in the table (skipped): ${outcome.alreadyThere}`);
  const { accounts } = outcome;
  if (plan.accounts.length > 0) {
    lines.push(
      `  accounts ${context.dryRun ? 'to create' : 'created'}: ${accounts.created}` +
        (context.dryRun
          ? ''
          : `; already in the table: ${accounts.alreadyThere}; address already had an account (comments go to it): ${accounts.matchedByAddress}`),
      `  comments ${context.dryRun ? 'to write' : 'written'} with their author's account: ${outcome.withAccount}`,
    );
    if (outcome.authorsLinked > 0) {
      lines.push(`  comments of an earlier import given their author's account: ${outcome.authorsLinked}`);
    }
  }
  lines.push(`  pages with pageviews or reactions: ${outcome.readingPages}`);
  if (!context.dryRun) lines.push(`  reading counters moved: ${outcome.readingChanged}`);
  if (outcome.site) {
    lines.push(
      `  site after import: ${outcome.site.comments} approved, ${outcome.site.waiting} waiting, ${outcome.site.spam} spam; ${outcome.pagesRecounted} pages recounted`,
    );
  }
  const byReason = new Map<string, string[]>();
  for (const { ref, reason } of outcome.skipped) byReason.set(reason, [...(byReason.get(reason) ?? []), ref]);
  lines.push(`  skipped: ${outcome.skipped.length}`);
  for (const [reason, refs] of byReason) {
    const shown = refs.slice(0, 3).join('; ') + (refs.length > 3 ? `; and ${refs.length - 3} more` : '');
    lines.push(`    ${refs.length} x ${reason} (${shown})`);
  }
  if (plan.merges.length > 0) {
    lines.push(
      `  pages merged from several source keys (--merge-paths ${plan.mergePaths}): ${plan.merges.length}`,
    );
    for (const { into, variants } of plan.merges) {
      lines.push(`    ${into} <- ${variants.map(describeVariant).join(', ')}`);
    }
  }
  if (plan.repairs.size > 0) {
    lines.push('  repaired:');
    for (const [kind, count] of plan.repairs) lines.push(`    ${count} x ${kind}`);
  }
  if (plan.notes.length > 0) {
    lines.push('  notes:');
    for (const note of plan.notes) lines.push(`    ${note}`);
  }
  return lines.join('\n');
}
