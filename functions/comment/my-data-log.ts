import { type ResolveViewer, requireAdmin } from '../shared/auth/viewer.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import type { MyDataStore } from '../shared/table/my-data-store.js';

/** Entries the log shows: the newest. */
export const dataLogEntries = 50;

/**
 * `GET /api/my-data/log`, an administrator's: the newest 50 commenters' data requests (download or erase), each
 * with when, how (a mailed link or an account), the first 8 characters of the address's keyed hash (never the
 * address), its outcome and counts. One Query of the log's partition.
 */
export function createMyDataLog({
  viewer,
  store,
}: {
  readonly viewer: ResolveViewer;
  readonly store: Pick<MyDataStore, 'requests'>;
}): Router {
  return async (request) => {
    await requireAdmin(viewer, request.authorization, request.lang);
    const entries = await store.requests(dataLogEntries);
    return envelope(entries.map((entry) => ({ ...entry, at: new Date(entry.at).toISOString() })));
  };
}
