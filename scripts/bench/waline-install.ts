/**
 * `npm run bench:waline`: installs the real Waline server (@waline/vercel, whose SQLite driver compiles
 * from source: about four minutes) into .bench/waline/, git-ignored, with a package.json of its own. Once
 * it is there, the load section of `npm run bench` runs every case against Waline too, in the same run.
 * Neither `npm ci` nor `npm test` nor CI installs it. Does nothing when the install there already loads;
 * `--dir=<path>` installs elsewhere (to try the install from scratch).
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isWalineInstalled, walineDir, walineVersion } from './waline-server.js';

/** Installs Waline into `dir` unless it is there already; logs each step. */
async function installWaline(dir: string, log: (line: string) => void): Promise<void> {
  if (isWalineInstalled(dir)) {
    log(`Waline ${walineVersion} is already installed in ${dir}: nothing to do.`);
    return;
  }
  await mkdir(dir, { recursive: true });
  const manifest = {
    name: 'marginalia-bench-waline',
    private: true,
    description: 'The real Waline server, for the side-by-side load run of npm run bench.',
    dependencies: { '@waline/vercel': walineVersion },
  };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const command = ['nice', '-n', '19', 'npm', 'install', '--no-audit', '--no-fund'];
  log(`Installing @waline/vercel@${walineVersion} into ${dir}: ${command.join(' ')}`);
  log('About 600 packages and 280 MB; sqlite3 compiles from source with node-gyp (a few minutes).');
  const startedAt = Date.now();
  const minutes = () => ((Date.now() - startedAt) / 60_000).toFixed(1);
  const heartbeat = setInterval(() => log(`  still installing, ${minutes()} min...`), 30_000);
  try {
    await run(command, dir);
  } finally {
    clearInterval(heartbeat);
  }
  log(`npm install done in ${minutes()} min; checking that Waline and sqlite3 load...`);
  if (!isWalineInstalled(dir)) {
    throw new Error(
      `Waline was installed in ${dir} but does not load: see npm's output above (sqlite3 needs node-gyp, ` +
        `python3, make and a C++ compiler, and Node's headers); run \`cd ${dir} && node -e "require('sqlite3')"\``,
    );
  }
  log(
    dir === walineDir
      ? `Waline ${walineVersion} is installed: the load section of \`npm run bench\` now runs it side by side.`
      : `Waline ${walineVersion} is installed in ${dir} (the bench runs the one in ${walineDir}).`,
  );
}

function run(command: readonly string[], cwd: string): Promise<void> {
  const [file = '', ...args] = command;
  return new Promise((resolveRun, reject) => {
    const child = spawn(file, args, { cwd, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolveRun()
        : reject(new Error(`${command.join(' ')} failed (code ${code}, signal ${signal})`)),
    );
  });
}

const { values } = parseArgs({ options: { dir: { type: 'string', default: walineDir } } });
try {
  await installWaline(resolve(values.dir), (line) => console.log(line));
} catch (error) {
  console.error('bench:waline failed:', error instanceof Error ? error.message : error);
  process.exit(1);
}
