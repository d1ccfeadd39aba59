/**
 * Gives each test file a temporary directory of its own, removed when the file is done: everything a test or
 * a library makes under `os.tmpdir()` goes there. Without it a run left hundreds of directories behind (each
 * `new App()` without `outdir` synthesises into a fresh `cdk.out*` that aws-cdk-lib never removes, about 600 MB
 * a day of runs here). `os.tmpdir()` reads `TMPDIR` on each call, and child processes inherit it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// The system's directory, read once per process: a worker that runs a second file must not nest it in the first's.
const systemTemp = (process.env.MARGINALIA_SYSTEM_TMPDIR ??= tmpdir());
const fileTemp = mkdtempSync(join(systemTemp, 'marginalia-test-'));
process.env.TMPDIR = fileTemp;

// Registered before any test file's own hooks, so it runs after them (hooks stack): browsers and servers the
// file closes in its afterAll are gone before their files are.
afterAll(() => {
  process.env.TMPDIR = systemTemp;
  rmSync(fileTemp, { recursive: true, force: true });
});
