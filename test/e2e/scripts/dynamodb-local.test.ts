import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalDynamoDbClient, ensureTable } from '../../../scripts/create-table.js';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../../scripts/dynamodb-local.js';

describe('startDynamoDbLocal', () => {
  const started: DynamoDbLocal[] = [];
  const tempDirs: string[] = [];

  afterAll(async () => {
    await Promise.all(started.map((engine) => engine.stop()));
    await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function start(dataDir: string): Promise<DynamoDbLocal> {
    const engine = await startDynamoDbLocal({ dataDir });
    started.push(engine);
    return engine;
  }

  async function listTables(endpoint: string): Promise<string[]> {
    const client = createLocalDynamoDbClient(endpoint);
    try {
      return (await client.send(new ListTablesCommand({}))).TableNames ?? [];
    } finally {
      client.destroy();
    }
  }

  // Two starts of the engine, each allowed its 30 s start timeout on a slow machine.
  it(
    'keeps a table across a stop and a restart when given a data directory',
    { timeout: 90_000 },
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'marginalia-dynamodb-'));
      tempDirs.push(root);
      const dataDir = join(root, 'not', 'yet', 'there');

      const first = await start(dataDir);
      const client = createLocalDynamoDbClient(first.endpoint);
      await ensureTable(client, 'persisted');
      client.destroy();
      await first.stop();
      // Stopped means nothing listens any more, not some other failure.
      await expect(listTables(first.endpoint)).rejects.toThrow(/ECONNREFUSED/);

      const second = await start(dataDir);
      expect(await listTables(second.endpoint)).toContain('persisted');
      await second.stop();
      await expect(listTables(second.endpoint)).rejects.toThrow(/ECONNREFUSED/);
    },
  );

  it('rejects with an install hint when Java cannot be found', async () => {
    const attempt = startDynamoDbLocal({ javaCommand: join(tmpdir(), 'no-such-dir', 'java') });

    await expect(attempt).rejects.toThrow(
      /DynamoDB Local needs Java 17 or later: install it \(Debian: apt-get install/,
    );
  });
});
