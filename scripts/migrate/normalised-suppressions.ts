/**
 * Copies the suppressions of the addresses that normalisation respells (a `+tag`, dots at Gmail:
 * functions/shared/notify/normalize-address.ts) from the hash they were recorded under, the keyed hash of
 * the address as written, to the hash of its normalised form, which the notifier keys on now. The addresses
 * are the comments' own (no address is kept anywhere else), so a Scan of the comments finds them.
 *
 * The old item is kept: unsubscribe links mailed before carry the old hash, and the notifier still honours
 * a suppression under it until those links expire. A suppression already under the new hash is kept as it
 * is. A rerun, or a run after one that stopped half way, copies what is left and nothing twice.
 */
import { type DynamoDBDocumentClient, GetCommand, paginateQuery, paginateScan } from '@aws-sdk/lib-dynamodb';
import {
  createAddressHasher,
  createFormerAddressHasher,
} from '../../functions/shared/notify/address-hash.js';
import { normalizeAddress } from '../../functions/shared/notify/normalize-address.js';
import { attributes, entities } from '../../functions/shared/table/keys.js';
import { copyTo, errorLines } from './suppression-keys.js';

/** What the copy of suppressions did (or, on a dry run, would do). */
export interface NormalisedSuppressionOutcome {
  readonly dryRun: boolean;
  /** Distinct comment addresses that normalisation respells. */
  readonly respelt: number;
  /** Suppressions copied to the normalised hash. */
  readonly copied: number;
  /** Suppressions found under the normalised hash already (a rerun, or recorded since). */
  readonly already: number;
  readonly errors: readonly { readonly item: string; readonly reason: string }[];
}

const prefix = 'MUTE#';

/** The distinct addresses of the comments that normalisation respells: a Scan (offline tool only). */
async function respeltAddresses(client: DynamoDBDocumentClient, tableName: string): Promise<Set<string>> {
  const found = new Set<string>();
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      // The filter runs after the read: the whole table is read (and paid for), only comments' mails come back.
      FilterExpression: '#entity = :comment AND attribute_exists(#mail)',
      ProjectionExpression: '#mail',
      ExpressionAttributeNames: { '#entity': 'entity', '#mail': 'mail' },
      ExpressionAttributeValues: { ':comment': entities.comment },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const written = typeof item.mail === 'string' ? item.mail.trim().toLowerCase() : '';
      if (written.includes('@') && normalizeAddress(written) !== written) found.add(written);
    }
  }
  return found;
}

/**
 * Copies every suppression of a respelt comment address from its former hash to its normalised hash under
 * `salt` (the functions' IP_HASH_SALT); with `dryRun`, only counts them.
 */
export async function copySuppressionsToNormalisedHash(
  client: DynamoDBDocumentClient,
  tableName: string,
  salt: string,
  options: { readonly dryRun: boolean },
): Promise<NormalisedSuppressionOutcome> {
  const { dryRun } = options;
  const hash = createAddressHasher(salt);
  const former = createFormerAddressHasher(salt);
  const addresses = await respeltAddresses(client, tableName);
  const counts = { copied: 0, already: 0 };
  const errors: { item: string; reason: string }[] = [];
  for (const address of addresses) {
    const from = `${prefix}${former(address)}`;
    const to = `${prefix}${hash(address)}`;
    const pages = paginateQuery(
      { client },
      {
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': attributes.pk },
        ExpressionAttributeValues: { ':pk': from },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const sk = String(item[attributes.sk]);
        try {
          const copied = await copyUnlessThere(client, tableName, { ...item, [attributes.pk]: to }, dryRun);
          if (copied) counts.copied++;
          else counts.already++;
        } catch (error) {
          errors.push({
            item: `${from} ${sk}`,
            reason: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
  }
  return { dryRun, respelt: addresses.size, ...counts, errors };
}

/** Puts `item` unless an item is at its key already (kept); true when it was put, or (dry) would be. */
async function copyUnlessThere(
  client: DynamoDBDocumentClient,
  tableName: string,
  item: Record<string, unknown>,
  dryRun: boolean,
): Promise<boolean> {
  if (dryRun) {
    const key = { [attributes.pk]: item[attributes.pk], [attributes.sk]: item[attributes.sk] };
    const found = await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
    return found.Item === undefined;
  }
  return copyTo(client, tableName, item);
}

/** The report's lines of the copy of suppressions. */
export function formatNormalisedSuppressionReport(outcome: NormalisedSuppressionOutcome): string {
  const lines = [
    `Suppressions of +tag and Gmail-dot addresses, to their normalised hash${outcome.dryRun ? ' (dry run)' : ''}`,
    `  comment addresses respelt by normalisation: ${outcome.respelt}`,
    `  ${outcome.dryRun ? 'to copy' : 'copied'}: ${outcome.copied}`,
    `  there already: ${outcome.already}`,
    ...errorLines(outcome.errors),
  ];
  return lines.join('\n');
}

/**
 * The step as `npm run migrate` runs it: with the salt, the copy (or its dry run); without it, a count of
 * the respelt addresses and a line saying the copy needs the salt. Only errors make it incomplete: until the
 * copy, the notifier honours the suppressions under the former hash, so no mail goes where it was stopped.
 */
export async function runNormalisedSuppressionStep(
  client: DynamoDBDocumentClient,
  tableName: string,
  salt: string | undefined,
  options: { readonly dryRun: boolean },
): Promise<{ readonly report: string; readonly complete: boolean }> {
  if (!salt) {
    const respelt = (await respeltAddresses(client, tableName)).size;
    return {
      report:
        `Suppressions of +tag and Gmail-dot addresses (${respelt} such comment addresses): left under their ` +
        'former hash, which the notifier honours; run again with --ip-hash-salt (the IpHashSalt secret, or ' +
        'IP_HASH_SALT locally) to copy them to the normalised one',
      complete: true,
    };
  }
  const outcome = await copySuppressionsToNormalisedHash(client, tableName, salt, options);
  return { report: formatNormalisedSuppressionReport(outcome), complete: outcome.errors.length === 0 };
}
