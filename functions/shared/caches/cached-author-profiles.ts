import type { AuthorProfile } from '../domain/account.js';
import type { ReadAuthorProfiles } from '../domain/profile-overlay.js';
import { createReadCache } from './read-cache.js';

/** Profiles kept per instance: a few hundred bytes each. */
const maxProfiles = 20_000;

/** A profile reader whose answers are cached, and the hook that forgets one account's. */
export interface CachedAuthorProfiles {
  readonly read: ReadAuthorProfiles;
  /** Forgets `id`'s profile: this instance changed the account. */
  forget(id: string): void;
}

/**
 * Serves authors' profiles from a copy read less than `ttlMs` ago, as the counters are (cached-counters.ts,
 * `LIST_CACHE_MS`): one entry per account, an account without a profile (deleted) cached as such, the ids a
 * request misses read in one call of `read` (one BatchGetItem per 100), shared with concurrent requests
 * missing the same ids. A profile change shows on every comment of its author within `ttlMs` (at once on the
 * instance that made it, through `forget`).
 */
export function cacheAuthorProfiles(
  read: ReadAuthorProfiles,
  options: { readonly ttlMs: number; readonly now?: () => number },
): CachedAuthorProfiles {
  if (options.ttlMs <= 0) return { read, forget: () => undefined };
  const cache = createReadCache<AuthorProfile | null>({
    ttlMs: options.ttlMs,
    maxWeight: maxProfiles,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    async read(ids) {
      const missing: { id: string; settle: (p: AuthorProfile | null) => void; fail: (e: unknown) => void }[] =
        [];
      const distinct = [...new Set(ids)];
      const answers = distinct.map((id) =>
        cache.get(id, () => new Promise((settle, fail) => missing.push({ id, settle, fail }))),
      );
      if (missing.length > 0) {
        read(missing.map(({ id }) => id)).then(
          (found) => missing.forEach(({ id, settle }) => settle(found.get(id) ?? null)),
          (error: unknown) => missing.forEach(({ fail }) => fail(error)),
        );
      }
      const profiles = await Promise.all(answers);
      const byId = new Map<string, AuthorProfile>();
      profiles.forEach((profile, index) => {
        if (profile) byId.set(distinct[index] as string, profile);
      });
      return byId;
    },
    forget: (id) => cache.forget(id),
  };
}
