/**
 * Turns the administrators of before accounts (`ADMIN#<email>` / `ADMIN` items, entity `admin`) into
 * accounts (issue 27): each becomes `USER#<id>` with the same id, type `administrator`, state `active` and
 * session version 0, so the tokens it holds (`{sub: id, email}`, read as version 0) keep working; with its
 * address claim and its place in the account count and list (table/account-repository.ts, in one
 * transaction). The old item is deleted only once the account is written.
 *
 * A rerun, or a run after one that stopped half way, finishes what is left: an administrator whose account
 * exists already (same id, same address) only has its old item removed. An address another account holds
 * is reported and both are left as they are.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Account } from '../../functions/shared/domain/account.js';
import { normalizeAddress } from '../../functions/shared/domain/normalize-address.js';
import { createAccountRepository } from '../../functions/shared/table/account-repository.js';
import { entities } from '../../functions/shared/table/keys.js';
import { scanEntity } from '../../functions/shared/table/scan-entity.js';

/** What the administrator step did (or, on a dry run, would do). */
export interface AdminAccountOutcome {
  readonly dryRun: boolean;
  /** Administrators of before accounts found. */
  readonly found: number;
  /** Accounts written for them (on a dry run: that would be). */
  readonly migrated: number;
  /** Old items whose account existed already (a rerun): only the old item removed. */
  readonly already: number;
  readonly errors: readonly { readonly item: string; readonly reason: string }[];
}

type Item = Record<string, unknown>;

/** The account an `ADMIN#` item becomes; undefined for an item that is not a whole administrator. */
export function accountOfAdminItem(item: Item): Account | undefined {
  const { id, email, displayName, link, passwordHash, createdAt } = item;
  if (typeof id !== 'string' || typeof email !== 'string' || typeof passwordHash !== 'string')
    return undefined;
  return {
    id,
    email,
    displayName: typeof displayName === 'string' ? displayName : '',
    ...(typeof link === 'string' && link !== '' ? { link } : {}),
    type: 'administrator',
    state: 'active',
    passwordHash,
    sessionVersion: 0,
    createdAt: Number(createdAt) || 0,
  };
}

/** Every `ADMIN#` item: a Scan (an offline tool, once). */
async function adminItems(client: DynamoDBDocumentClient, tableName: string): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of scanEntity(client, tableName, entities.admin)) items.push(item);
  return items;
}

/**
 * Migrates the administrators of `tableName` to accounts; with `dryRun`, reads and counts only. Returns the
 * outcome and its report, and whether every administrator is an account now.
 */
export async function runAdminAccountStep(
  client: DynamoDBDocumentClient,
  tableName: string,
  options: { readonly dryRun: boolean },
): Promise<{ outcome: AdminAccountOutcome; report: string; complete: boolean }> {
  const accounts = createAccountRepository(client, tableName);
  const errors: { item: string; reason: string }[] = [];
  let migrated = 0;
  let already = 0;
  const items = await adminItems(client, tableName);
  for (const item of items) {
    const name = `${String(item.pk)} ${String(item.sk)}`;
    const account = accountOfAdminItem(item);
    if (!account) {
      errors.push({ item: name, reason: 'not a whole administrator (id, email or password hash missing)' });
      continue;
    }
    try {
      const existing = await accounts.findById(account.id);
      const ours =
        existing !== undefined && normalizeAddress(existing.email) === normalizeAddress(account.email);
      if (existing && !ours) {
        errors.push({ item: name, reason: `account ${account.id} exists with another address` });
        continue;
      }
      if (!existing) {
        const holder = await accounts.findByEmail(account.email);
        if (holder) {
          errors.push({ item: name, reason: `the address is account ${holder.id}'s already` });
          continue;
        }
      }
      if (options.dryRun) {
        if (existing) already++;
        else migrated++;
        continue;
      }
      if (!existing && (await accounts.create(account)) !== 'created') {
        errors.push({ item: name, reason: 'its account or address was written meanwhile; run again' });
        continue;
      }
      await removeAdminItem(client, tableName, item, account.id);
      if (existing) already++;
      else migrated++;
    } catch (error) {
      errors.push({ item: name, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  const outcome = { dryRun: options.dryRun, found: items.length, migrated, already, errors };
  return { outcome, report: formatAdminReport(outcome), complete: errors.length === 0 };
}

/** Deletes the old item, only while it still names the account just written. */
async function removeAdminItem(client: DynamoDBDocumentClient, tableName: string, item: Item, id: string) {
  try {
    await client.send(
      new DeleteCommand({
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        // Gone already (a concurrent run) is as good; another id there is not this account's: it stays.
        ConditionExpression: 'attribute_not_exists(pk) OR #id = :id',
        ExpressionAttributeNames: { '#id': 'id' },
        ExpressionAttributeValues: { ':id': id },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The step's lines of the report. */
export function formatAdminReport(outcome: AdminAccountOutcome): string {
  const verb = outcome.dryRun ? 'would become' : 'became';
  const lines = [
    `Administrators: ${outcome.found} found; ${outcome.migrated} ${verb} accounts; ${outcome.already} were accounts already.`,
    ...outcome.errors.map((error) => `  left as it is: ${error.item}: ${error.reason}`),
  ];
  return lines.join('\n');
}
