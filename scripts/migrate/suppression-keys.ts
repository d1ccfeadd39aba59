/**
 * Moves the suppressions kept under an address's unkeyed hash (`MUTE#<SHA-256 hex>`, as the notifier
 * wrote them before address hashes were keyed) to its keyed hash (`MUTE#<HMAC>`,
 * functions/shared/notify/address-hash.ts). The keyed hash is an HMAC of the unkeyed one, so no address is
 * needed: only the IP-hash salt the functions key it with.
 *
 * Each suppression is copied first and its old item deleted after, so an interrupted run loses none (the
 * next run deletes what it copied). A keyed suppression already there (the reader unsubscribed again since
 * the upgrade) is kept as it is. A rerun finds nothing left to move. Per-recipient caps (`MAILCAP#`) are
 * left: they expire within two days by their TTL.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, paginateScan, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keyUnkeyedHash, unkeyedHashPattern } from '../../functions/shared/notify/address-hash.js';
import { attributes } from '../../functions/shared/table/keys.js';

type Item = Record<string, unknown>;

/** What the move of suppressions did (or, on a dry run, would do). */
export interface SuppressionOutcome {
  readonly dryRun: boolean;
  /** Suppressions moved from the unkeyed hash to the keyed one. */
  readonly moved: number;
  /** Of those, the ones whose keyed suppression was there already (only the old item was deleted). */
  readonly merged: number;
  /** Suppressions under a keyed hash already. */
  readonly already: number;
  readonly errors: readonly { readonly item: string; readonly reason: string }[];
}

const prefix = 'MUTE#';

/** The suppressions of the table, page by page: a Scan (offline tool only) filtered to `MUTE#` items. */
async function* suppressionItems(client: DynamoDBDocumentClient, tableName: string): AsyncGenerator<Item> {
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      // The filter runs after the read: the whole table is read (and paid for), only suppressions come back.
      FilterExpression: 'begins_with(#pk, :prefix)',
      ExpressionAttributeNames: { '#pk': attributes.pk },
      ExpressionAttributeValues: { ':prefix': prefix },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) yield* page.Items ?? [];
}

/**
 * Moves every suppression of `tableName` kept under an unkeyed hash to its keyed hash under `salt` (the
 * functions' IP_HASH_SALT); with `dryRun`, only counts them.
 */
export async function migrateSuppressionKeys(
  client: DynamoDBDocumentClient,
  tableName: string,
  salt: string,
  options: { readonly dryRun: boolean },
): Promise<SuppressionOutcome> {
  const { dryRun } = options;
  const counts = { moved: 0, merged: 0, already: 0 };
  const errors: { item: string; reason: string }[] = [];
  for await (const item of suppressionItems(client, tableName)) {
    const pk = String(item[attributes.pk]);
    const sk = String(item[attributes.sk]);
    const hash = pk.slice(prefix.length);
    if (!unkeyedHashPattern.test(hash)) {
      counts.already++;
      continue;
    }
    if (dryRun) {
      counts.moved++;
      continue;
    }
    try {
      const copied = await copyTo(client, tableName, {
        ...item,
        [attributes.pk]: `${prefix}${keyUnkeyedHash(salt, hash)}`,
      });
      await client.send(
        new DeleteCommand({ TableName: tableName, Key: { [attributes.pk]: pk, [attributes.sk]: sk } }),
      );
      counts.moved++;
      if (!copied) counts.merged++;
    } catch (error) {
      errors.push({ item: `${pk} ${sk}`, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { dryRun, ...counts, errors };
}

/** Puts `item` unless an item is at its key already (that one is kept); true when it was put. */
export async function copyTo(
  client: DynamoDBDocumentClient,
  tableName: string,
  item: Item,
): Promise<boolean> {
  try {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: item,
        // A suppression recorded under the keyed hash since the upgrade is newer: never overwritten.
        ConditionExpression: 'attribute_not_exists(#pk)',
        ExpressionAttributeNames: { '#pk': attributes.pk },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The report's lines of the move of suppressions. */
export function formatSuppressionReport(outcome: SuppressionOutcome): string {
  const lines = [
    `Suppressions (unsubscribes, bounces) under an unkeyed address hash${outcome.dryRun ? ' (dry run)' : ''}`,
    `  ${outcome.dryRun ? 'to move' : 'moved'} to the keyed hash: ${outcome.moved}` +
      (outcome.merged > 0 ? ` (${outcome.merged} already there as well)` : ''),
    `  keyed already: ${outcome.already}`,
    ...errorLines(outcome.errors),
  ];
  return lines.join('\n');
}

/** A report's error count, and the first ten errors, one a line. */
export function errorLines(errors: SuppressionOutcome['errors']): string[] {
  return [
    `  errors: ${errors.length}`,
    ...errors.slice(0, 10).map(({ item, reason }) => `    ${item}: ${reason}`),
  ];
}

/**
 * The step as `npm run migrate` runs it: with the salt, the move (or its dry run); without it, a count of
 * what is left to move. `complete` is false when suppressions were left under an unkeyed hash (no salt, or
 * errors): the notifier does not see those until a run with the salt moves them.
 */
export async function runSuppressionStep(
  client: DynamoDBDocumentClient,
  tableName: string,
  salt: string | undefined,
  options: { readonly dryRun: boolean },
): Promise<{ readonly report: string; readonly complete: boolean }> {
  if (salt) {
    const outcome = await migrateSuppressionKeys(client, tableName, salt, options);
    return { report: formatSuppressionReport(outcome), complete: outcome.errors.length === 0 };
  }
  const left = await migrateSuppressionKeys(client, tableName, '', { dryRun: true });
  if (left.moved === 0) return { report: formatSuppressionReport(left), complete: true };
  return {
    report:
      `${formatSuppressionReport(left)}\n  left as they are: the keyed hash needs the functions' salt; run ` +
      'again with --ip-hash-salt (the IpHashSalt secret, or IP_HASH_SALT locally)',
    complete: false,
  };
}
