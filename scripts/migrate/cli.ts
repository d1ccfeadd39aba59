/**
 * `npm run migrate -- [--dry-run] [--ip-hash-salt S] [target options, see scripts/table-target.ts]`
 *
 * Brings a table written by 0.1.0 or 0.2 to item layout 3 (run-migration.ts), and moves the suppressions
 * kept under an unkeyed address hash to the keyed one (suppression-keys.ts), then copies those of +tag and
 * Gmail-dot addresses to the hash of the normalised address (normalised-suppressions.ts); both need the
 * functions' IP-hash salt: locally .data/ip-hash-salt, on AWS --ip-hash-salt or IP_HASH_SALT. It also gives
 * each article the time of its first approved comment, which READONLY_AGE counts from (first-comment-times.ts),
 * turns the administrators of before accounts into accounts (admin-accounts.ts), and gives each author their
 * level counter and wall place, recounted from the approved comments (author-counts.ts), and every comment its
 * feed entry under its author's key, which a commenter's download and erase page through (author-feeds.ts).
 * Until it has run, the functions answer 503 naming this command. On DynamoDB Local it adds the indexes the table lacks; on AWS those come
 * from deploying the stack, first. Safe to rerun, and to run again after it was stopped: it finishes
 * what is left. Prints a report on stdout.
 *
 * Exit code: 0 when the table is in layout 3 (or a dry run found nothing in the way); 1 when something
 * stopped the run (the message says what; nothing was marked); 2 when some items could not be migrated
 * (the report lists them; the table stays unmarked), suppressions were left under an unkeyed hash, or some
 * articles' first-comment times, administrators' accounts or author counters could not be set.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { parseArgs } from 'node:util';
import { createLocalDynamoDbClient } from '../create-table.js';
import { createProgress } from '../import/progress.js';
import { runCli } from '../run-cli.js';
import { openTarget, type Target, targetArgs, targetUsage } from '../table-target.js';
import { formatReport } from './report.js';
import { runMigration } from './run-migration.js';
import { runNormalisedSuppressionStep } from './normalised-suppressions.js';
import { runFirstCommentStep } from './first-comment-times.js';
import { runAuthorCountStep } from './author-counts.js';
import { runAuthorFeedStep } from './author-feeds.js';
import { runSuppressionStep } from './suppression-keys.js';
import { runAdminAccountStep } from './admin-accounts.js';

const usage = `usage: npm run migrate -- [--dry-run] [--ip-hash-salt S] ${targetUsage}`;

await runCli(main);

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean', default: false },
      'ip-hash-salt': { type: 'string' },
      ...targetArgs,
    },
  });
  if (positionals.length > 0) throw new Error(usage);
  const target = await openTarget(values, (line) => process.stderr.write(`${line}\n`));
  try {
    const { admin, local } = await adminClient(target);
    try {
      const outcome = await runMigration(
        { client: target.client, admin, tableName: target.tableName },
        { dryRun: values['dry-run'], local, progress: (label, total) => createProgress(label, total) },
      );
      console.log(formatReport(outcome, { target: target.description }));
      if (outcome.errors.length > 0) process.exitCode = 2;
      const suppressions = await runSuppressionStep(target.client, target.tableName, target.ipHashSalt, {
        dryRun: values['dry-run'],
      });
      console.log(suppressions.report);
      if (!suppressions.complete) process.exitCode = 2;
      // After the move above: the suppressions it keyed are the ones this copies to the normalised hash.
      const normalised = await runNormalisedSuppressionStep(
        target.client,
        target.tableName,
        target.ipHashSalt,
        {
          dryRun: values['dry-run'],
        },
      );
      console.log(normalised.report);
      if (!normalised.complete) process.exitCode = 2;
      const firstComments = await runFirstCommentStep(target.client, target.tableName, {
        dryRun: values['dry-run'],
      });
      console.log(firstComments.report);
      if (!firstComments.complete) process.exitCode = 2;
      const administrators = await runAdminAccountStep(target.client, target.tableName, {
        dryRun: values['dry-run'],
      });
      console.log(administrators.report);
      if (!administrators.complete) process.exitCode = 2;
      const authors = await runAuthorCountStep(target.client, target.tableName, target.ipHashSalt, {
        dryRun: values['dry-run'],
      });
      console.log(authors.report);
      if (!authors.complete) process.exitCode = 2;
      const feeds = await runAuthorFeedStep(target.client, target.tableName, target.ipHashSalt, {
        dryRun: values['dry-run'],
      });
      console.log(feeds.report);
      if (!feeds.complete) process.exitCode = 2;
    } finally {
      admin.destroy();
    }
  } finally {
    await target.close();
  }
}

/**
 * A client for the table's own requests (DescribeTable, UpdateTable) where the target's document client
 * sends its items: the same local endpoint, or AWS with the standard chain. Local means an endpoint was
 * given to the document client, which openTarget does for DynamoDB Local only.
 */
async function adminClient(target: Target): Promise<{ admin: DynamoDBClient; local: boolean }> {
  const endpoint = target.client.config.isCustomEndpoint
    ? await target.client.config.endpoint?.()
    : undefined;
  if (!endpoint) return { admin: new DynamoDBClient({}), local: false };
  const port = endpoint.port === undefined ? '' : `:${endpoint.port}`;
  return {
    admin: createLocalDynamoDbClient(`${endpoint.protocol}//${endpoint.hostname}${port}${endpoint.path}`),
    local: true,
  };
}
