/**
 * `npm run admin -- add <email> [--name "Display name"] [--replace]`: creates an administrator (active); with
 * `--replace`, sets a new password on the address's account, revokes its tokens, makes it an active
 * administrator and keeps its profile (name unless `--name`, link). Administrators come only from here or
 * from another administrator (`PUT /api/user/{id}`).
 * The password is asked for on the terminal (not echoed) or read from standard input when piped;
 * it is hashed with scrypt and never printed.
 * `npm run admin -- list`: the administrators, by email (one Scan of the table).
 * `npm run admin -- remove <email>`: deletes an administrator's account and its address claim; the tokens
 * it holds stop working at once.
 * `npm run admin -- reset-2fa <email>`: turns the two-factor sign-in of the address's account off (a lost
 * authenticator with its recovery codes, or a rotated JWT_TOKEN, which no sealed TOTP secret survives); its owner
 * signs in with the password alone and may enrol again.
 *
 * Where it works: the local table by default, or another one; see scripts/table-target.ts.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ulid } from 'ulid';
import { z } from 'zod';
import { hashPassword } from '../functions/shared/auth/password.js';
import { limits } from '../functions/shared/domain/limits.js';
import {
  type AccountRepository,
  createAccountRepository,
} from '../functions/shared/table/account-repository.js';
import { type AccountTotpStore, createAccountTotpStore } from '../functions/shared/table/account-totp.js';
import { openTarget, targetArgs, targetUsage } from './table-target.js';
import { runCli } from './run-cli.js';

const target = targetUsage;
const usage = [
  `usage: npm run admin -- add <email> [--name "Display name"] [--replace] ${target}`,
  `       npm run admin -- list ${target}`,
  `       npm run admin -- remove <email> ${target}`,
  `       npm run admin -- reset-2fa <email> ${target}`,
].join('\n');

await runCli(main);

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      replace: { type: 'boolean', default: false },
      ...targetArgs,
    },
  });
  const [command, rawEmail] = positionals;
  const arity = command === 'list' ? 0 : 1;
  const commands = ['add', 'list', 'remove', 'reset-2fa'];
  if (!command || !commands.includes(command) || positionals.length !== arity + 1) {
    throw new Error(usage);
  }
  /** Runs `work` on the accounts (and their second factors) of the target table, and closes it. */
  const withAccounts = async (
    work: (accounts: AccountRepository, tableName: string, totp: AccountTotpStore) => Promise<void>,
  ) => {
    const opened = await openTarget(values, (line) => console.log(line));
    try {
      await work(
        createAccountRepository(opened.client, opened.tableName),
        opened.tableName,
        createAccountTotpStore(opened.client, opened.tableName),
      );
    } finally {
      await opened.close();
    }
  };

  if (command === 'list') {
    await withAccounts(async (accounts, tableName) => {
      const administrators = (await accounts.listAll())
        .filter((account) => account.type === 'administrator')
        .sort((a, b) => a.email.localeCompare(b.email));
      if (administrators.length === 0) console.log(`No administrators in table ${tableName}.`);
      for (const account of administrators) {
        const added = account.createdAt ? new Date(account.createdAt).toISOString() : 'unknown';
        console.log(`${account.email}\t${account.displayName}\tadded ${added}\t${account.state}`);
      }
    });
    return;
  }

  const email = parseEmail(rawEmail);
  if (command === 'remove') {
    await withAccounts(async (accounts, tableName) => {
      const account = await accounts.findByEmail(email);
      if (account?.type !== 'administrator' || !(await accounts.remove(account.id))) {
        throw new Error(`${email} is not an administrator in table ${tableName}.`);
      }
      console.log(`Administrator ${email} removed from table ${tableName}; its tokens no longer work.`);
    });
    return;
  }

  if (command === 'reset-2fa') {
    await withAccounts(async (accounts, tableName, totp) => {
      const account = await accounts.findByEmail(email);
      if (!account) throw new Error(`${email} has no account in table ${tableName}.`);
      if (!account.totp) {
        console.log(`${email} has no two-factor sign-in in table ${tableName}; nothing changed.`);
        return;
      }
      await totp.reset(account.id, Date.now());
      console.log(
        `Two-factor sign-in of ${email} turned off in table ${tableName}; the password alone signs in.`,
      );
    });
    return;
  }

  const password = await askPassword(`Password for ${email}: `);
  if (password.length < limits.passwordMinChars) {
    throw new Error(`Choose a password of at least ${limits.passwordMinChars} characters.`);
  }
  const passwordHash = await hashPassword(password);
  await withAccounts(async (accounts, tableName) => {
    const existing = await accounts.findByEmail(email);
    if (existing && !values.replace) {
      const what =
        existing.type === 'administrator' ? 'already an administrator' : `already a ${existing.type} account`;
      throw new Error(
        `${email} is ${what}; add --replace to set a new password and make it an administrator.`,
      );
    }
    if (existing) {
      // A new password, and every token issued before revoked, on the same profile: its name (unless --name
      // gives one), its link and when it was added stay. The address's account becomes an active administrator.
      const changed = await accounts.update(existing.id, {
        passwordHash,
        revokeTokens: true,
        type: 'administrator',
        state: 'active',
        ...(values.name === undefined ? {} : { displayName: values.name }),
      });
      if (changed.status !== 'updated') {
        throw new Error(`${email} changed while its password was set; run the command again.`);
      }
      console.log(`Administrator ${email} given a new password in table ${tableName}.`);
      return;
    }
    const created = await accounts.create({
      id: ulid(),
      email,
      displayName: values.name ?? email.split('@')[0] ?? email,
      type: 'administrator',
      state: 'active',
      passwordHash,
      sessionVersion: 0,
      createdAt: Date.now(),
    });
    if (created !== 'created') throw new Error(`${email} was added meanwhile; run the command again.`);
    console.log(`Administrator ${email} saved in table ${tableName}.`);
  });
}

/** The address given, lowercased, or an error that names it. */
function parseEmail(raw: string | undefined): string {
  return z
    .email()
    .max(254)
    .parse((raw ?? '').trim().toLowerCase(), { error: () => `not an email address: ${raw}` });
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
