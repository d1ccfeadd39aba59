/**
 * The indexes layout 3 reads: on DynamoDB Local the migration adds the missing ones itself; on AWS the
 * stack owns them, so a missing one stops the migration until the stack is deployed.
 */
import { DescribeTableCommand, type DynamoDBClient, type TableDescription } from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../../functions/shared/table/table-definition.js';
import { ensureIndexes, missingIndexes } from '../create-table.js';

/** What the index check found, and did. */
export interface IndexCheck {
  /** Indexes created (or, on a dry run, that would be). */
  readonly created: readonly string[];
  /** The table's item count as DynamoDB last measured it (AWS: within about six hours). */
  readonly itemCount: number;
}

/** The indexes added since 0.1.0, in the order the upgrade deploys add them (lib/marginalia-stack.ts). */
const addedIndexes = [
  tableDefinition.indexes.rootsByTime.name,
  tableDefinition.indexes.rootsByLike.name,
  tableDefinition.indexes.recent.name,
  tableDefinition.indexes.held.name,
];

/**
 * The message for a deployed table without every index of layout 3. CloudFormation adds one index per
 * stack update: one deploy per missing index, `-c upgradeIndexes=N` (which keeps layout 2's `recent`
 * index), then the migration, then a plain deploy that removes `recent`.
 */
export function deployFirstMessage(tableName: string, missing: readonly string[]): string {
  const steps = addedIndexes.flatMap((name, i) =>
    missing.includes(name) ? [`\`npx cdk deploy -c upgradeIndexes=${i + 1}\``] : [],
  );
  const deploys =
    steps.length === 0
      ? 'with `npx cdk deploy`'
      : `${steps.length === 1 ? 'once' : `${steps.length} times, one index each`}: ${steps.join(', then ')}`;
  return (
    `Table ${tableName} lacks the index${missing.length > 1 ? 'es' : ''} ${missing.join(', ')}: ` +
    `deploy the stack first, ${deploys}; then run \`npm run migrate\` again, and last \`npx cdk deploy\`.`
  );
}

/**
 * Checks that `tableName` is a Marginalia table with every index of the definition, ACTIVE. `local`: the
 * missing ones are created (not on a dry run, which only names them); otherwise their absence throws.
 */
export async function checkIndexes(
  client: DynamoDBClient,
  tableName: string,
  options: { local: boolean; dryRun: boolean },
): Promise<IndexCheck> {
  const table = await describe(client, tableName);
  const keyNames = (table.KeySchema ?? []).map((key) => key.AttributeName);
  if (keyNames.join() !== [tableDefinition.partitionKey, tableDefinition.sortKey].join()) {
    throw new Error(`Table ${tableName} has the key (${keyNames.join(', ')}), not Marginalia's (pk, sk).`);
  }
  const itemCount = table.ItemCount ?? 0;
  const missing = missingIndexes(table);
  if (missing.length > 0 && !options.local) throw new Error(deployFirstMessage(tableName, missing));
  if (missing.length > 0 && options.dryRun) return { created: missing, itemCount };
  const created = missing.length > 0 ? await ensureIndexes(client, tableName) : [];
  const now = created.length > 0 ? await describe(client, tableName) : table;
  const building = (now.GlobalSecondaryIndexes ?? []).filter((index) => index.IndexStatus !== 'ACTIVE');
  if (building.length > 0) {
    const names = building.map((index) => `${index.IndexName} (${index.IndexStatus})`).join(', ');
    throw new Error(`Table ${tableName}: the index ${names} is not ACTIVE yet; run again once it is.`);
  }
  return { created, itemCount };
}

async function describe(client: DynamoDBClient, tableName: string): Promise<TableDescription> {
  const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (!table) throw new Error(`DescribeTable ${tableName} answered no table`);
  return table;
}
