/**
 * `npm run import -- <file>... [--from waline|valine|twikoo|disqus|artalk] [--dry-run]
 *   [--source-timezone Asia/Shanghai] [--ip-hash-salt S] [--merge-paths slash|no-slash|none]
 *   [target options, see target.ts]`
 *
 * Reads a Waline, Valine/LeanCloud, Twikoo, Disqus or Artalk export and writes it into the table, with
 * Waline's registered users as accounts.
 * Safe to rerun. Prints a report on stdout; exits 1 with the file, record and rule on a bad file.
 */
import { parseArgs } from 'node:util';
import { createAccountRepository } from '../../functions/shared/table/account-repository.js';
import { createImportRepository } from '../shared/storage/import-repository.js';
import { readSource } from './detect.js';
import { mergeRules, type MergeRule } from './page-keys.js';
import { planImport, type PlanOptions } from './plan.js';
import { createProgress } from './progress.js';
import { readInputs } from './read-input.js';
import { runAuthorCountStep } from '../migrate/author-counts.js';
import { runAuthorFeedStep } from '../migrate/author-feeds.js';
import { formatReport } from './report.js';
import { runImport } from './run-import.js';
import { formats, type SourceFormat } from './source.js';
import { openTarget, targetArgs, targetUsage } from '../table-target.js';
import { isTimeZone } from './values.js';
import { runCli } from '../run-cli.js';

const usage =
  'usage: npm run import -- <file>... [--from waline|valine|twikoo|disqus|artalk] [--dry-run] ' +
  `[--source-timezone ZONE] [--ip-hash-salt S] [--merge-paths ${mergeRules.join('|')}] ${targetUsage}`;

await runCli(main);

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'source-timezone': { type: 'string', default: 'UTC' },
      'ip-hash-salt': { type: 'string' },
      'merge-paths': { type: 'string' },
      ...targetArgs,
    },
  });
  if (positionals.length === 0) throw new Error(usage);
  const from = values.from === 'leancloud' ? 'valine' : values.from;
  if (from !== undefined && !formats.includes(from as SourceFormat)) {
    throw new Error(`--from must be one of ${formats.join(', ')}, got "${from}"`);
  }
  const mergePaths = values['merge-paths'];
  if (mergePaths !== undefined && !mergeRules.includes(mergePaths as MergeRule)) {
    throw new Error(`--merge-paths must be one of ${mergeRules.join(', ')}, got "${mergePaths}"`);
  }
  const merge: PlanOptions = mergePaths === undefined ? {} : { mergePaths: mergePaths as MergeRule };
  const zone = values['source-timezone'];
  if (!isTimeZone(zone))
    throw new Error(`--source-timezone must be an IANA zone such as Asia/Shanghai, got "${zone}"`);

  const { files, notes } = await readInputs(positionals);
  const source = await readSource(files, {
    sourceTimezone: zone,
    ...(from ? { from: from as SourceFormat } : {}),
  });
  source.notes.unshift(...notes);
  const log = (line: string) => process.stderr.write(`${line}\n`);

  if (values['dry-run']) {
    // Nothing is opened: the report counts what the file holds. The salt only changes hashes.
    const plan = planImport(source, { ...merge, ipHashSalt: 'dry-run' });
    const outcome = await runImport(plan, undefined, (total) => createProgress('Writing', total));
    console.log(formatReport(plan, outcome, { target: 'no table', dryRun: true }));
    return;
  }
  const target = await openTarget(values, log);
  try {
    const plan = planImport(source, {
      ...merge,
      ...(target.ipHashSalt ? { ipHashSalt: target.ipHashSalt } : {}),
    });
    const repository = createImportRepository(target.client, target.tableName);
    const accounts = createAccountRepository(target.client, target.tableName);
    const outcome = await runImport(plan, repository, (total) => createProgress('Writing', total), accounts);
    console.log(formatReport(plan, outcome, { target: target.description, dryRun: false }));
    // The imported approved comments count for their authors' levels and the user wall: recounted, as the
    // migration does, from every approved comment (a rerun recounts to the same numbers).
    if (outcome.imported.approved > 0) {
      const authors = await runAuthorCountStep(target.client, target.tableName, target.ipHashSalt, {
        dryRun: false,
      });
      console.log(authors.report);
      if (!authors.complete) process.exitCode = 2;
    }
    // Every imported comment is filed under its author's key, as a live one is in its submit transaction: the
    // commenter's download and erase find it there (a rerun puts only what is missing).
    if (
      outcome.imported.approved + outcome.imported.waiting + outcome.imported.spam + outcome.authorsLinked >
      0
    ) {
      const feeds = await runAuthorFeedStep(target.client, target.tableName, target.ipHashSalt, {
        dryRun: false,
      });
      console.log(feeds.report);
      if (!feeds.complete) process.exitCode = 2;
    }
  } finally {
    await target.close();
  }
}
