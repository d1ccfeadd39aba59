import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  installedRegionDatabase,
  regionDatabaseFile,
  regionDatabasePath,
} from '../../../../../functions/shared/region/region-database.js';
import {
  createRegionLookup,
  loadRegionLookup,
} from '../../../../../functions/shared/region/region-lookup.js';

describe('the region lookup', () => {
  it('names the country of known addresses, IPv4, IPv6 and IPv4-mapped, from the shipped database', async () => {
    const regionOf = await loadRegionLookup();
    expect(regionOf('8.8.8.8')).toBe('United States');
    expect(regionOf('::ffff:8.8.8.8')).toBe('United States');
    expect(regionOf('193.99.144.80')).toBe('Germany');
    expect(regionOf('114.114.114.114')).toBe('China');
    expect(regionOf('2a00:1450:4001:80b::200e')).toEqual(expect.any(String));
  });

  it('places private, reserved and malformed addresses nowhere', () => {
    const regionOf = createRegionLookup(readFileSync(installedRegionDatabase()));
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.0.2.1', '::1', '', 'not an ip', '8.8.8.8.8']) {
      expect(regionOf(ip), ip).toBeUndefined();
    }
  });

  it('reads the copy beside the bundle on Lambda, else the installed package', () => {
    const taskRoot = mkdtempSync(join(tmpdir(), 'marginalia-task-'));
    try {
      expect(regionDatabasePath({ LAMBDA_TASK_ROOT: taskRoot })).toBe(installedRegionDatabase());
      writeFileSync(join(taskRoot, regionDatabaseFile), '');
      expect(regionDatabasePath({ LAMBDA_TASK_ROOT: taskRoot })).toBe(join(taskRoot, regionDatabaseFile));
      expect(regionDatabasePath({})).toBe(installedRegionDatabase());
    } finally {
      rmSync(taskRoot, { recursive: true, force: true });
    }
  });
});
