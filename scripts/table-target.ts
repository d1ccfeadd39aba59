/**
 * Which table `npm run admin`, `import` and `export` work on:
 * - by default the local table: through the running `npm start` (its DynamoDB Local endpoint is in
 *   .data/dynamodb-endpoint), or by starting DynamoDB Local on .data/dynamodb itself;
 * - `--endpoint URL --table NAME`: any DynamoDB Local;
 * - `--table NAME [--region R]`, or `--outputs cdk-outputs.json` (written by
 *   `cdk deploy --outputs-file`): a deployed table, with credentials from the standard AWS chain.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../functions/shared/dynamodb-client/client.js';
import { createLocalDynamoDbClient, ensureTable } from './create-table.js';
import { acquireDataLock } from './data-lock.js';
import { startDynamoDbLocal } from './dynamodb-local.js';
import { localDataDir } from './local-data-dir.js';

const dataRoot = localDataDir();

/** The table options every tool takes, for `parseArgs`. */
export const targetArgs = {
  table: { type: 'string' },
  region: { type: 'string' },
  endpoint: { type: 'string' },
  outputs: { type: 'string' },
} as const;

/** How the tools' usage lines spell the table options. */
export const targetUsage =
  '[--table NAME [--region R] | --outputs cdk-outputs.json | --endpoint URL --table NAME]';

/** The table options of the command line. */
export interface TargetOptions {
  readonly table?: string;
  readonly region?: string;
  readonly endpoint?: string;
  readonly outputs?: string;
  readonly 'ip-hash-salt'?: string;
}

/** An open table. */
export interface Target {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  /** The salt live comments are hashed with, when known. */
  readonly ipHashSalt?: string;
  /** Says where, for the report. */
  readonly description: string;
  close(): Promise<void>;
}

/** The TableName output of the first stack in a `cdk deploy --outputs-file` file. */
async function tableFromOutputs(path: string): Promise<string> {
  const outputs = JSON.parse(await readFile(path, 'utf8')) as Record<string, Record<string, unknown>>;
  for (const stack of Object.values(outputs)) {
    if (typeof stack?.TableName === 'string') return stack.TableName;
  }
  throw new Error(`${path}: no TableName output in it`);
}

/** The local salt npm start uses (.data/ip-hash-salt), created as npm start would when missing. */
async function localSalt(create: boolean): Promise<string | undefined> {
  const file = join(dataRoot, 'ip-hash-salt');
  const existing = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (existing || !create) return existing || undefined;
  const salt = randomBytes(32).toString('hex');
  await mkdir(dataRoot, { recursive: true });
  await writeFile(file, `${salt}\n`, { mode: 0o600 });
  return salt;
}

/** Opens the table `options` name; `log` tells when DynamoDB Local is started. */
export async function openTarget(options: TargetOptions, log: (line: string) => void): Promise<Target> {
  const givenSalt = options['ip-hash-salt'] || process.env.IP_HASH_SALT || undefined;
  if ((options.table || options.outputs) && !options.endpoint) {
    if (options.region) process.env.AWS_REGION = options.region;
    const tableName = options.table ?? (await tableFromOutputs(options.outputs as string));
    const client = createDocumentClient();
    return {
      client,
      tableName,
      ...(givenSalt ? { ipHashSalt: givenSalt } : {}),
      description: `table ${tableName} (AWS)`,
      close: async () => client.destroy(),
    };
  }
  const tableName = options.table ?? process.env.TABLE_NAME ?? 'marginalia';
  const running =
    options.endpoint ?? (await readFile(join(dataRoot, 'dynamodb-endpoint'), 'utf8').catch(() => '')).trim();
  if (running) {
    const client = createDocumentClient({ endpoint: running });
    const salt = givenSalt ?? (await localSalt(!options.endpoint));
    return {
      client,
      tableName,
      ...(salt ? { ipHashSalt: salt } : {}),
      description: `table ${tableName} at ${running}`,
      close: async () => client.destroy(),
    };
  }
  // Held while this tool's DynamoDB Local has the files open: an npm start meanwhile stops, naming this PID.
  const lock = await acquireDataLock(dataRoot, {
    command: 'a local tool (npm run admin, import, export or migrate)',
  });
  log('Starting DynamoDB Local on .data/dynamodb (npm start is not running)...');
  const engine = await startDynamoDbLocal({ dataDir: join(dataRoot, 'dynamodb') }).catch(
    async (error: unknown) => {
      await lock.release();
      throw error;
    },
  );
  try {
    const admin = createLocalDynamoDbClient(engine.endpoint);
    await ensureTable(admin, tableName).finally(() => admin.destroy());
  } catch (error) {
    await engine.stop();
    await lock.release();
    throw error;
  }
  const client = createDocumentClient({ endpoint: engine.endpoint });
  const salt = givenSalt ?? (await localSalt(true));
  return {
    client,
    tableName,
    ...(salt ? { ipHashSalt: salt } : {}),
    description: `local table ${tableName}`,
    close: async () => {
      client.destroy();
      await engine.stop();
      await lock.release();
    },
  };
}
