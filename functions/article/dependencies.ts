import type { Config } from '../shared/config.js';
import { cacheCounterReads } from '../shared/caches/cached-counters.js';
import { createFunctionClient } from '../shared/dynamodb-client/client.js';
import { type CounterRepository, createCounterRepository } from '../shared/table/counter-repository.js';

/** Everything the article function's routes use, built once per cold start. */
export interface ArticleDependencies {
  readonly config: Pick<Config, 'ALLOWED_ORIGINS' | 'IP_HASH_SALT'>;
  /** Reading counts: pageviews and reactions (reads cached per instance: caches/cached-counters.ts). */
  readonly counters: Pick<CounterRepository, 'readPageCounters' | 'increment' | 'react'>;
}

/** Builds the article function's dependencies for `config`; `overrides` lets tests swap any part. */
export function createArticleDependencies(
  config: Config,
  overrides: Partial<ArticleDependencies> = {},
): ArticleDependencies {
  const client = createFunctionClient(config);
  const { counters } = cacheCounterReads(createCounterRepository(client, config.TABLE_NAME), {
    ttlMs: config.LIST_CACHE_MS,
  });
  return { config, counters, ...overrides };
}
