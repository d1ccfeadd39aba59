/**
 * Gives every author their level counter (`AUTHOR#<key>` / `COUNT`, functions/shared/table/author-count-items.ts)
 * and their place on the user wall, from the approved comments the table holds: the functions keep the counters
 * in the transactions that change a status, but comments approved before them are counted nowhere.
 *
 * Recomputes, never adds: one Scan reads every approved comment (and every counter there is), groups them by
 * author (an account by its `userId`, an address by the keyed hash of its normalised form, which needs the
 * functions' IP-hash salt), and SETs each counter to its count, its wall sort value to the same, and an anonymous
 * author's display to their newest approved comment's nick, link and avatar (avatars under the functions' own
 * AVATAR_PROXY, GRAVATAR_STR and AVATAR_QQ, read from this process's environment). A counter whose author has no
 * approved comment left is set to 0, which takes it off the wall. A counter already right is not written: a
 * rerun, or a run after one that stopped half way, writes only what is left. With `dryRun`, only counts.
 *
 * Run it while no comment is being moderated: an approval that lands between the Scan and the write of its
 * author's counter is overwritten by the count read before it (running the step again puts it right).
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createAuthorTally, type AuthorDisplay } from '../../functions/shared/domain/author-tally.js';
import { createAvatarResolver } from '../../functions/shared/domain/avatar.js';
import { createAddressHasher } from '../../functions/shared/notify/address-hash.js';
import { approvedCountAttribute, wallPartition } from '../../functions/shared/table/author-count-items.js';
import { attributes, entities, keys } from '../../functions/shared/table/keys.js';
import { scanTable } from '../shared/storage/table-export.js';

type Item = Record<string, unknown>;

/** What the step did (or, on a dry run, would do). */
export interface AuthorCountOutcome {
  readonly dryRun: boolean;
  /** Approved comments read, and those that count for nobody (no account, no address). */
  readonly approvedComments: number;
  readonly uncounted: number;
  /** Counters set to their count (created, corrected, or set to 0). */
  readonly set: number;
  /** Counters found right already. */
  readonly already: number;
  /** Approved anonymous comments left uncounted because no salt was given. */
  readonly needSalt: number;
  readonly errors: readonly { readonly item: string; readonly reason: string }[];
}

/** One author's count as the comments give it, and what the newest of them shows. */
interface Tally {
  count: number;
  newest: number;
  display?: AuthorDisplay;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** An approved comment item: a comment whose status is approved, or that has none (stored before statuses). */
const isApprovedComment = (item: Item) =>
  item.entity === entities.comment && (item.status === undefined || item.status === 'approved');

/** Whether the counter `stored` already says `count` (and, for an address, shows `display`). */
function isRight(stored: Item | undefined, count: number, display: AuthorDisplay | undefined): boolean {
  if (!stored) return count === 0;
  const same =
    Number(stored[approvedCountAttribute]) === count &&
    Number(stored[attributes.likeSort]) === count &&
    stored[attributes.rootsPk] === wallPartition;
  if (!same || !display) return same;
  return stored.nick === display.nick && stored.link === display.link && stored.avatar === display.avatar;
}

/**
 * Recomputes every author counter of `tableName` from its approved comments; `salt` (the functions'
 * IP_HASH_SALT) keys the addresses (without it, only accounts' counters are set), `env` gives the avatar rule.
 */
export async function recountAuthors(
  client: DynamoDBDocumentClient,
  tableName: string,
  salt: string | undefined,
  options: { readonly dryRun: boolean; readonly env?: NodeJS.ProcessEnv },
): Promise<AuthorCountOutcome> {
  const env = options.env ?? process.env;
  const avatarFor = createAvatarResolver({
    ...(env.AVATAR_PROXY && env.AVATAR_PROXY !== 'false' ? { proxy: env.AVATAR_PROXY } : {}),
    ...(env.GRAVATAR_STR ? { template: env.GRAVATAR_STR } : {}),
    qq: /^(1|true|yes|on)$/i.test(env.AVATAR_QQ?.trim() ?? ''),
  });
  // Without the salt no address can be keyed: accounts only.
  const tallyOf = createAuthorTally({
    hashAddress: salt ? createAddressHasher(salt) : () => '',
    avatarFor,
  });
  const tallies = new Map<string, Tally>();
  const stored = new Map<string, Item>();
  let approvedComments = 0;
  let uncounted = 0;
  let needSalt = 0;
  for await (const item of scanTable(client, tableName)) {
    if (item.entity === entities.authorCount && typeof item.authorKey === 'string') {
      stored.set(item.authorKey, item);
      continue;
    }
    if (!isApprovedComment(item)) continue;
    approvedComments++;
    const comment = {
      ...(typeof item.userId === 'string' ? { userId: item.userId } : {}),
      mail: text(item.mail),
      nick: text(item.nick),
      link: text(item.link),
    };
    const tally = tallyOf(comment);
    if (!tally) {
      uncounted++;
      continue;
    }
    if (!salt && tally.display) {
      needSalt++;
      continue;
    }
    const time = Number(item.insertedAt) || 0;
    const sum = tallies.get(tally.authorKey) ?? { count: 0, newest: -1 };
    sum.count++;
    if (time >= sum.newest) {
      sum.newest = time;
      if (tally.display) sum.display = tally.display;
    }
    tallies.set(tally.authorKey, sum);
  }
  // Counters whose author has no approved comment left go to 0 (an address's only without the salt if keyed).
  for (const authorKey of stored.keys()) {
    if (!tallies.has(authorKey) && (salt || authorKey.startsWith('user:'))) {
      tallies.set(authorKey, { count: 0, newest: 0 });
    }
  }

  const counts = { set: 0, already: 0 };
  const errors: { item: string; reason: string }[] = [];
  for (const [authorKey, { count, display }] of tallies) {
    if (isRight(stored.get(authorKey), count, display)) {
      counts.already++;
      continue;
    }
    counts.set++;
    if (options.dryRun) continue;
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.authorCount(authorKey),
          // SET, not ADD: the count recomputed from the comments replaces whatever was there, so a rerun is harmless.
          UpdateExpression:
            'SET #approved = :count, #likeSort = :count, #rootsPk = :wall, #entity = :entity, #authorKey = :authorKey' +
            (display ? ', #nick = :nick, #link = :link, #avatar = :avatar' : ''),
          ExpressionAttributeNames: {
            '#approved': approvedCountAttribute,
            '#likeSort': attributes.likeSort,
            '#rootsPk': attributes.rootsPk,
            '#entity': 'entity',
            '#authorKey': 'authorKey',
            ...(display ? { '#nick': 'nick', '#link': 'link', '#avatar': 'avatar' } : {}),
          },
          ExpressionAttributeValues: {
            ':count': count,
            ':wall': wallPartition,
            ':entity': entities.authorCount,
            ':authorKey': authorKey,
            ...(display ? { ':nick': display.nick, ':link': display.link, ':avatar': display.avatar } : {}),
          },
        }),
      );
    } catch (error) {
      counts.set--;
      errors.push({
        item: `AUTHOR#${authorKey}`,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { dryRun: options.dryRun, approvedComments, uncounted, needSalt, ...counts, errors };
}

/** The report's lines of the step. */
export function formatAuthorCountReport(outcome: AuthorCountOutcome): string {
  const lines = [
    `Author level counters and the user wall, from the approved comments${outcome.dryRun ? ' (dry run)' : ''}`,
    `  approved comments: ${outcome.approvedComments} (${outcome.uncounted} without an account or an address)`,
    `  counters ${outcome.dryRun ? 'to set' : 'set'}: ${outcome.set}`,
    `  right already: ${outcome.already}`,
  ];
  if (outcome.needSalt > 0) {
    lines.push(
      `  ${outcome.needSalt} approved comments of addresses left uncounted: run again with --ip-hash-salt ` +
        '(the IpHashSalt secret, or IP_HASH_SALT locally) to count them',
    );
  }
  lines.push(`  errors: ${outcome.errors.length}`);
  for (const { item, reason } of outcome.errors.slice(0, 10)) lines.push(`    ${item}: ${reason}`);
  return lines.join('\n');
}

/** The step as `npm run migrate` runs it: complete unless a counter could not be written. */
export async function runAuthorCountStep(
  client: DynamoDBDocumentClient,
  tableName: string,
  salt: string | undefined,
  options: { readonly dryRun: boolean },
): Promise<{ readonly report: string; readonly complete: boolean }> {
  const outcome = await recountAuthors(client, tableName, salt, options);
  return { report: formatAuthorCountReport(outcome), complete: outcome.errors.length === 0 };
}
