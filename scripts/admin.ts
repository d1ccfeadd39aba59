/**
 * `npm run admin -- add <email> [--name "Display name"] [--replace]`: creates an administrator.
 * The password is asked for on the terminal (not echoed) or read from standard input when piped;
 * it is hashed with scrypt and never printed.
 *
 * Where it writes:
 * - by default the local table: through the running `npm start` (its DynamoDB Local endpoint is in
 *   .data/dynamodb-endpoint), or by starting DynamoDB Local on .data/dynamodb itself;
 * - `--endpoint URL --table NAME`: any DynamoDB Local;
 * - `--table NAME [--region R]`: a deployed table (the stack's TableName output), with credentials
 *   from the standard AWS chain.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ulid } from 'ulid';
import { z } from 'zod';
import { hashPassword } from '../functions/shared/auth/password.js';
import { createAdminRepository } from '../functions/shared/storage/admin-repository.js';
import { createDocumentClient } from '../functions/shared/storage/client.js';
import { ensureTable } from './create-table.js';
import { createLocalDynamoDbClient } from './create-table.js';
import { startDynamoDbLocal } from './dynamodb-local.js';

const dataRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '.data');
const usage =
  'usage: npm run admin -- add <email> [--name "Display name"] [--replace] [--table NAME] [--region R] [--endpoint URL]';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      replace: { type: 'boolean', default: false },
      table: { type: 'string' },
      region: { type: 'string' },
      endpoint: { type: 'string' },
    },
  });
  const [command, rawEmail] = positionals;
  if (command !== 'add' || !rawEmail) throw new Error(usage);
  const email = z
    .email()
    .max(254)
    .parse(rawEmail.trim().toLowerCase(), { error: () => `not an email address: ${rawEmail}` });
  const password = await askPassword(`Password for ${email}: `);
  if (password.length < 12) throw new Error('Choose a password of at least 12 characters.');
  const account = {
    id: ulid(),
    email,
    displayName: values.name ?? email.split('@')[0] ?? email,
    passwordHash: await hashPassword(password),
    createdAt: Date.now(),
  };

  await withTable(values, async (client, tableName) => {
    const saved = await createAdminRepository(client, tableName).save(account, { replace: values.replace });
    if (!saved) throw new Error(`${email} is already an administrator; add --replace to set a new password.`);
    console.log(`Administrator ${email} saved in table ${tableName}.`);
  });
}

type DocumentClient = ReturnType<typeof createDocumentClient>;

/** Runs `work` against the table the options name (see the header of this file). */
async function withTable(
  options: { table?: string; region?: string; endpoint?: string },
  work: (client: DocumentClient, tableName: string) => Promise<void>,
): Promise<void> {
  if (options.table && !options.endpoint) {
    if (options.region) process.env.AWS_REGION = options.region;
    await work(createDocumentClient(), options.table);
    return;
  }
  const tableName = options.table ?? process.env.TABLE_NAME ?? 'marginalia';
  const running =
    options.endpoint ?? (await readFile(join(dataRoot, 'dynamodb-endpoint'), 'utf8').catch(() => ''));
  if (running.trim()) {
    await work(createDocumentClient({ endpoint: running.trim() }), tableName);
    return;
  }
  console.log('Starting DynamoDB Local on .data/dynamodb (npm start is not running)...');
  const engine = await startDynamoDbLocal({ dataDir: join(dataRoot, 'dynamodb') });
  try {
    const admin = createLocalDynamoDbClient(engine.endpoint);
    await ensureTable(admin, tableName).finally(() => admin.destroy());
    await work(createDocumentClient({ endpoint: engine.endpoint }), tableName);
  } finally {
    await engine.stop();
  }
}

/** Reads a password without echoing it on a terminal; reads one line from a pipe. */
function askPassword(prompt: string): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    return new Promise((resolve) => {
      const lines = createInterface({ input });
      lines.once('line', (line) => {
        resolve(line);
        lines.close();
      });
      lines.once('close', () => resolve(''));
    });
  }
  process.stdout.write(prompt);
  input.setRawMode(true);
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          input.setRawMode(false);
          input.pause();
          input.off('data', onData);
          process.stdout.write('\n');
          resolve(typed);
          return;
        }
        if (char === '\u0003') {
          input.setRawMode(false);
          reject(new Error('Cancelled.'));
          return;
        }
        typed = char === '\u007f' ? typed.slice(0, -1) : typed + char;
      }
    };
    input.on('data', onData);
  });
}
