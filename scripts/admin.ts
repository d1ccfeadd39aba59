/**
 * `npm run admin -- add <email> [--name "Display name"] [--replace]`: creates an administrator.
 * The password is asked for on the terminal (not echoed) or read from standard input when piped;
 * it is hashed with scrypt and never printed.
 *
 * Where it writes: the local table by default, or another one; see scripts/table-target.ts.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ulid } from 'ulid';
import { z } from 'zod';
import { hashPassword } from '../functions/shared/auth/password.js';
import { createAdminRepository } from '../functions/shared/storage/admin-repository.js';
import { openTarget } from './table-target.js';
import { runCli } from './run-cli.js';

const usage =
  'usage: npm run admin -- add <email> [--name "Display name"] [--replace] [--table NAME [--region R] | --outputs cdk-outputs.json | --endpoint URL --table NAME]';

await runCli(main);

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      replace: { type: 'boolean', default: false },
      table: { type: 'string' },
      region: { type: 'string' },
      endpoint: { type: 'string' },
      outputs: { type: 'string' },
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

  const target = await openTarget(values, (line) => console.log(line));
  try {
    const admins = createAdminRepository(target.client, target.tableName);
    if (!(await admins.save(account, { replace: values.replace }))) {
      throw new Error(`${email} is already an administrator; add --replace to set a new password.`);
    }
    console.log(`Administrator ${email} saved in table ${target.tableName}.`);
  } finally {
    await target.close();
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
