import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { layoutVersion } from './table-definition.js';
import { UpgradeRequiredError } from '../domain/errors.js';
import { attributes, keys } from './keys.js';
import { projection } from './projection.js';
import { once } from '../once.js';

/**
 * The guard every write to the site counters carries: the site item is new (a fresh table) or says it
 * holds this layout. A table of the previous layout refuses every comment write until it is migrated,
 * so nothing is written in the new layout beside comments of the old one.
 */
export const layoutGuard = {
  ConditionExpression: 'attribute_not_exists(#layoutPk) OR #layout = :layout',
  ExpressionAttributeNames: { '#layoutPk': attributes.pk, '#layout': attributes.layout },
  ExpressionAttributeValues: { ':layout': layoutVersion },
} as const;

/** True when the transaction item `item` carries the layout guard. */
export function carriesLayoutGuard(item: unknown): boolean {
  const update = (item as { Update?: { ConditionExpression?: string } } | undefined)?.Update;
  return update?.ConditionExpression === layoutGuard.ConditionExpression;
}

/**
 * Reads the layout of the table once per instance: resolves when the table is of this layout (or new),
 * throws UpgradeRequiredError when it was written by the previous one. Only a success is remembered,
 * so an instance notices the migration as soon as it has run.
 */
export function createLayoutCheck(client: DynamoDBDocumentClient, tableName: string): () => Promise<void> {
  const check = async () => {
    const output = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.siteCounters(),
        ...projection([attributes.layout]),
      }),
    );
    // No site item: nothing was ever written, so nothing is of an older layout.
    if (!output.Item) return;
    const stored = Number(output.Item[attributes.layout]) || undefined;
    if (stored !== layoutVersion) throw new UpgradeRequiredError(stored);
  };
  return once(check);
}

/**
 * Runs `read` beside `ensureLayout` (one round trip, not two, on an instance's first read) and answers its
 * result, but a failed check wins over the read's own failure: on a table not yet migrated, an index the
 * read needs may be missing or empty, and the answer must be the 503 that names the migration.
 */
export async function readBesideLayoutCheck<T>(
  ensureLayout: () => Promise<void>,
  read: () => Promise<T>,
): Promise<T> {
  const [checked, result] = await Promise.allSettled([ensureLayout(), read()]);
  if (checked.status === 'rejected') throw checked.reason;
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}
