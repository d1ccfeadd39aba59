/** The final report of an import, as text for the terminal. */
import type { ImportPlan } from './plan.js';
import type { ImportOutcome } from './run-import.js';

/** Formats the report: counts by kind, skips grouped by reason (with up to 3 records each), repairs, notes. */
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
