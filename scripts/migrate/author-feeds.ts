/**
 * Gives every stored comment its feed entries under its author's keys (`AUTHOR#user:<id>` or `AUTHOR#mail:<hash>` /
 * `FEED#<commentId>`, and an account's comment with an address under both: functions/shared/domain/author-tally.ts
 * `createFeedKeysOf`, functions/shared/table/author-count-items.ts): the functions write them in the transactions
 * that store a comment, but comments stored before (anonymous ones all, and any an import wrote) have none, and a
 * commenter's download and erase (`/api/my-data`) find their comments only through these entries.
 *
 * One Scan reads every comment and every entry there is; an entry is put only where it is missing, with a
 * condition that it still is (`attribute_not_exists`), so a rerun, or a run after one that stopped half way, writes
 * only what is left, and an entry written meanwhile by the functions is never overwritten. Entries of comments that
 * no longer exist are left: readers skip them. An address is keyed with the functions' IP-hash salt; without it,
 * only accounts' comments get theirs. With `dryRun`, only counts.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createFeedKeysOf } from '../../functions/shared/domain/author-tally.js';
import { createAddressHasher } from '../../functions/shared/notify/address-hash.js';
import { authorFeedPut } from '../../functions/shared/table/author-count-items.js';
import { parseCommentSk, entities } from '../../functions/shared/table/keys.js';
import { scanTable } from '../shared/storage/table-export.js';

/** What the step did (or, on a dry run, would do). */
export interface AuthorFeedOutcome {
  readonly dryRun: boolean;
  /** Comments read, and those that have no author (no account, no address). */
  readonly comments: number;
  readonly authorless: number;
  /** Entries put (or, dry, to put), found already, and comments of addresses left without a salt. */
  readonly put: number;
  readonly already: number;
  readonly needSalt: number;
  readonly errors: readonly { readonly item: string; readonly reason: string }[];
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Writes at once: the Puts are small and independent. */
const parallelWrites = 8;

/** Puts the missing feed entries of `tableName`'s comments; `salt` keys the addresses (without it: accounts only). */
export async function backfillAuthorFeeds(
  client: DynamoDBDocumentClient,
  tableName: string,
  salt: string | undefined,
  options: { readonly dryRun: boolean },
): Promise<AuthorFeedOutcome> {
  const feedKeysOf = createFeedKeysOf(salt ? createAddressHasher(salt) : () => '');
  const existing = new Set<string>();
  const wanted: { authorKey: string; id: string; url: string; rid?: string }[] = [];
  let comments = 0;
  let authorless = 0;
  let needSalt = 0;
  for await (const item of scanTable(client, tableName)) {
    if (item.entity === entities.authorFeed) {
      existing.add(`${text(item.pk)}\n${text(item.sk)}`);
      continue;
    }
    if (item.entity !== entities.comment) continue;
    comments++;
    const place = parseCommentSk(text(item.sk));
    const url = text(item.url);
    if (!place || !url) continue;
    const authorKeys = feedKeysOf({
      ...(typeof item.userId === 'string' ? { userId: item.userId } : {}),
      mail: text(item.mail),
    });
    if (authorKeys.length === 0) {
      authorless++;
      continue;
    }
    const id = place.replyId ?? place.rootId;
    for (const authorKey of authorKeys) {
      if (!salt && authorKey.startsWith('mail:')) {
        needSalt++;
        continue;
      }
      wanted.push({ authorKey, id, url, ...(place.replyId === undefined ? {} : { rid: place.rootId }) });
    }
  }
  const missing = wanted.filter(({ authorKey, id }) => !existing.has(`AUTHOR#${authorKey}\nFEED#${id}`));
  const counts = { put: 0, already: wanted.length - missing.length };
  const errors: { item: string; reason: string }[] = [];
  if (options.dryRun)
    return { dryRun: true, comments, authorless, needSalt, ...counts, put: missing.length, errors };
  for (let start = 0; start < missing.length; start += parallelWrites) {
    await Promise.all(
      missing.slice(start, start + parallelWrites).map(async (entry) => {
        const put = authorFeedPut(tableName, entry.authorKey, entry).Put;
        if (!put) return;
        try {
          await client.send(
            new PutCommand({
              TableName: tableName,
              Item: put.Item,
              // Only where none is: an entry the functions wrote since the Scan stays as it is.
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          );
          counts.put++;
        } catch (error) {
          if (error instanceof ConditionalCheckFailedException) {
            counts.already++;
            return;
          }
          errors.push({
            item: `AUTHOR#${entry.authorKey} FEED#${entry.id}`,
            reason: error instanceof Error ? error.message : String(error),
          });
        }
      }),
    );
  }
  return { dryRun: false, comments, authorless, needSalt, ...counts, errors };
}

/** The report's lines of the step. */
export function formatAuthorFeedReport(outcome: AuthorFeedOutcome): string {
  const lines = [
    `Feed entries of every comment under its author${outcome.dryRun ? ' (dry run)' : ''}`,
    `  comments: ${outcome.comments} (${outcome.authorless} without an account or an address)`,
    `  entries ${outcome.dryRun ? 'to put' : 'put'}: ${outcome.put}`,
    `  there already: ${outcome.already}`,
  ];
  const saltless = outcome.needSalt;
  if (saltless > 0) {
    lines.push(
      `  ${saltless} comments of addresses left without an entry: run again with --ip-hash-salt (the IpHashSalt ` +
        'secret, or IP_HASH_SALT locally)',
    );
  }
  lines.push(
    `  errors: ${outcome.errors.length}`,
    ...outcome.errors.slice(0, 10).map(({ item, reason }) => `    ${item}: ${reason}`),
  );
  return lines.join('\n');
}

/** The step as `npm run migrate` (and `npm run import`) runs it: complete unless an entry could not be written. */
export async function runAuthorFeedStep(
  client: DynamoDBDocumentClient,
  tableName: string,
  salt: string | undefined,
  options: { readonly dryRun: boolean },
): Promise<{ readonly report: string; readonly complete: boolean }> {
  const outcome = await backfillAuthorFeeds(client, tableName, salt, options);
  return { report: formatAuthorFeedReport(outcome), complete: outcome.errors.length === 0 };
}
