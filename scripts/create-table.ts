/**
 * Creates the table from functions/shared/table/table-definition.ts on DynamoDB Local (or any endpoint), so local mode and tests
 * run against exactly the keys and indexes the stack deploys.
 */
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  type DynamoDBClientConfig,
  ResourceInUseException,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import {
  byIdIndexAttributes,
  cardAttributes,
  tableDefinition,
} from '../functions/shared/table/table-definition.js';

/**
 * The CreateTable request for `tableName`: on-demand billing, the by-id GSI and the two card indexes
 * (approved-by-time, held-by-time) with their INCLUDE projections, and the two keys-only roots indexes.
 */
export function buildCreateTableInput(tableName: string): CreateTableCommandInput {
  const { partitionKey, sortKey, indexes } = tableDefinition;
  const keyAttributes = [
    partitionKey,
    sortKey,
    indexes.recent.partitionKey,
    indexes.recent.sortKey,
    indexes.held.partitionKey,
    indexes.held.sortKey,
    indexes.rootsByTime.partitionKey,
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamView },
    AttributeDefinitions: [
      ...keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
      { AttributeName: indexes.byId.partitionKey, AttributeType: 'S' },
      { AttributeName: indexes.rootsByLike.sortKey, AttributeType: 'N' },
    ],
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: indexes.byId.name,
        KeySchema: [{ AttributeName: indexes.byId.partitionKey, KeyType: 'HASH' }],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...byIdIndexAttributes] },
      },
      // The roots indexes keys only; the card indexes with the cards, never a text.
      ...[indexes.rootsByTime, indexes.rootsByLike, indexes.recent, indexes.held].map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
          { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
        ],
        Projection:
          index === indexes.recent || index === indexes.held
            ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...cardAttributes] }
            : { ProjectionType: 'KEYS_ONLY' as const },
      })),
    ],
  };
}

/**
 * Creates `tableName` unless it exists, waits until it is ACTIVE, then turns on its TTL attribute. A table
 * that exists already gets the indexes it lacks (one made before the roots indexes, say) and its stream.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  let existed = false;
  try {
    await client.send(new CreateTableCommand(buildCreateTableInput(tableName)));
  } catch (error) {
    // ResourceInUseException: the table already exists (or is being created); either way, wait for it below.
    if (!(error instanceof ResourceInUseException)) throw error;
    existed = true;
  }
  // The waiter polls DescribeTable until TableStatus is ACTIVE; DynamoDB Local answers ACTIVE at once.
  await waitUntilTableExists(
    { client, minDelay: 1, maxDelay: 5, maxWaitTime: 120 },
    { TableName: tableName },
  );
  if (existed) {
    await ensureIndexes(client, tableName);
    await ensureStream(client, tableName);
  }
  await enableTimeToLive(client, tableName);
}

/**
 * Turns on the stream of an existing table made before notifications (local mode's `.data/`), so the
 * notifier has something to read; returns whether it did. For DynamoDB Local: on AWS the stack owns it.
 */
export async function ensureStream(client: DynamoDBClient, tableName: string): Promise<boolean> {
  const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (table?.StreamSpecification?.StreamEnabled) return false;
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamView },
    }),
  );
  return true;
}

/** The indexes of functions/shared/table/table-definition.ts that `table` lacks, by name. */
export function missingIndexes(table: TableDescription): string[] {
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const wanted = buildCreateTableInput(table.TableName ?? '').GlobalSecondaryIndexes ?? [];
  return wanted.flatMap((index) =>
    index.IndexName && !present.has(index.IndexName) ? [index.IndexName] : [],
  );
}

/** How often, and how long at most, ensureIndexes looks whether a new index is ACTIVE. */
const indexPollMs = 100;
const indexWaitMs = 10 * 60 * 1000;

/**
 * Adds to the existing table `tableName` every index of the definition it lacks, one UpdateTable each
 * (DynamoDB builds one new index at a time), waiting until each is ACTIVE, that is filled with the items
 * already there. Returns the names of the indexes created. For DynamoDB Local: on AWS the stack owns them.
 */
export async function ensureIndexes(client: DynamoDBClient, tableName: string): Promise<string[]> {
  const describe = async () => {
    const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (!table) throw new Error(`DescribeTable ${tableName} answered no table`);
    return table;
  };
  const wanted = buildCreateTableInput(tableName);
  const created: string[] = [];
  for (const name of missingIndexes(await describe())) {
    const index = wanted.GlobalSecondaryIndexes?.find((candidate) => candidate.IndexName === name);
    if (!index?.KeySchema) continue;
    const keyNames = new Set(index.KeySchema.map((key) => key.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        // Only the index's own key attributes: their types, as the definition gives them.
        AttributeDefinitions: wanted.AttributeDefinitions?.filter((a) => keyNames.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    // A new index is CREATING while it takes in the items already there; queries on it fail until then.
    const deadline = Date.now() + indexWaitMs;
    for (;;) {
      const table = await describe();
      const status = table.GlobalSecondaryIndexes?.find((candidate) => candidate.IndexName === name);
      if (status?.IndexStatus === 'ACTIVE' && table.TableStatus === 'ACTIVE') break;
      if (Date.now() > deadline) {
        throw new Error(`Index ${name} of ${tableName} is still ${status?.IndexStatus}`);
      }
      await new Promise((resolve) => setTimeout(resolve, indexPollMs));
    }
    created.push(name);
  }
  return created;
}

async function enableTimeToLive(client: DynamoDBClient, tableName: string): Promise<void> {
  const attributeName = tableDefinition.timeToLiveAttribute;
  try {
    const { TimeToLiveDescription: current } = await client.send(
      new DescribeTimeToLiveCommand({ TableName: tableName }),
    );
    if (current?.TimeToLiveStatus === 'ENABLED' || current?.TimeToLiveStatus === 'ENABLING') return;
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: attributeName, Enabled: true },
      }),
    );
  } catch (error) {
    // TTL only deletes expired items eventually; an engine that already has it on, or lacks it, is still usable.
    if (!isIgnorableTimeToLiveError(error)) throw error;
  }
}

function isIgnorableTimeToLiveError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'UnknownOperationException') return true;
  return error.name === 'ValidationException' && /already enabled/i.test(error.message);
}

/** A DynamoDB client for a local endpoint: region from AWS_REGION (else us-east-1), dummy static credentials. */
export function createLocalDynamoDbClient(
  endpoint: string,
  overrides: Partial<DynamoDBClientConfig> = {},
): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION || 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    ...overrides,
  });
}
