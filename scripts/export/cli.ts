/**
 * `npm run export -- <file> [target options, see scripts/table-target.ts]`: writes the whole table
 * as Waline's `waline.json` (comments of every status with their IP hashes as `ipHash` and their author's
 * account as `user_id`, pageviews, reactions, and accounts as `Users` rows). No secret is exported (password
 * hashes, TOTP secrets, recovery codes), nor raw IPs (never stored) or voter marks.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { scanTable } from '../shared/storage/table-export.js';
import { openTarget, targetArgs, targetUsage } from '../table-target.js';
import { toWalineExport } from './to-waline.js';
import { runCli } from '../run-cli.js';

const usage = `usage: npm run export -- <file> ${targetUsage}`;

await runCli(main);

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      ...targetArgs,
    },
  });
  const [file] = positionals;
  if (!file || positionals.length > 1) throw new Error(usage);
  const target = await openTarget(values, (line) => process.stderr.write(`${line}\n`));
  try {
    const items: Record<string, unknown>[] = [];
    for await (const item of scanTable(target.client, target.tableName)) items.push(item);
    const data = toWalineExport(items, Date.now());
    await writeFile(file, `${JSON.stringify(data, null, '\t')}\n`);
    console.log(
      `Exported ${data.data.Comment.length} comments, ${data.data.Counter.length} page counters and ${data.data.Users.length} accounts (without passwords) from ${target.description} to ${file}`,
    );
  } finally {
    await target.close();
  }
}
