import type { Config } from './config.js';

/** Everything a route needs, built once per cold start and injected into the route factories. */
export interface Services {
  readonly config: Config;
  /** Milliseconds since the epoch; injected so tests control time. */
  readonly now: () => number;
}

/** Builds the DynamoDB client and repositories for `config`. */
export function createServices(config: Config): Services {
  return { config, now: Date.now };
}
